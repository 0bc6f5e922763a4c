// The control API's gate (see clientgate.h).
#include "backend/service/clientgate.h"

#include "backend/core/logging.h"
#include "backend/tls/certificate_authority.h"
#include "backend/tls/clientcerts.h"

#include <pwd.h>
#include <unistd.h>

namespace tessera {

namespace {

std::string firstProperty(const grpc::AuthContext& context, const char* name) {
    for (const auto& value : context.FindPropertyValues(name)) {
        return std::string(value.data(), value.size());
    }
    return {};
}

} // namespace

ClientGate::ClientGate(QString localUser, QStringList admins,
                       std::shared_ptr<RevocationList> revoked)
    : m_localUser(std::move(localUser)), m_admins(std::move(admins)),
      m_revoked(std::move(revoked)) {}

QString ClientGate::processUser() {
    const uid_t uid = ::geteuid();
    if (const passwd* pw = ::getpwuid(uid); pw != nullptr && pw->pw_name != nullptr) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return QStringLiteral("uid %1").arg(uid);
}

ClientGate::Admission ClientGate::admit(const QString& transport,
                                        const std::string& certPem) const {
    if (transport == QLatin1String("local")) {
        return {true, {m_localUser, true}, {}};
    }
    if (transport != QLatin1String("ssl") || certPem.empty()) {
        return {false,
                {},
                QStringLiteral("tessera-server admits only mutual TLS with a client certificate "
                               "of its cluster CA (tessera-ctl certify --client NAME on the "
                               "server)")};
    }
    const auto info = tls::inspect(certPem);
    if (!info) {
        return {false, {}, QStringLiteral("the client certificate does not parse")};
    }
    const QString subject = QString::fromStdString(info->subject);
    if (info->organizationalUnit != kUserUnit) {
        return {false,
                {},
                QStringLiteral("the certificate of %1 is not a user's (its OU is not '%2'): "
                               "make one with `tessera-ctl certify --client NAME` on the server")
                    .arg(subject, QLatin1String(kUserUnit))};
    }
    const QString user = QString::fromStdString(info->commonName);
    if (!ClientCertificates::nameProblem(user).isEmpty()) {
        return {
            false, {}, QStringLiteral("the certificate of %1 names no valid user").arg(subject)};
    }
    if (m_revoked && m_revoked->isRevoked(info->serial)) {
        return {false,
                {},
                QStringLiteral("the certificate of '%1' (serial %2) was revoked: ask the server's "
                               "admin for a new one (tessera-ctl certify --client %1)")
                    .arg(user, QString::fromStdString(info->serial))};
    }
    return {true, {user, m_admins.contains(user)}, {}};
}

ClientGate::Admission ClientGate::admit(const grpc::AuthContext& context) const {
    return admit(QString::fromStdString(firstProperty(context, "transport_security_type")),
                 firstProperty(context, GRPC_X509_PEM_CERT_PROPERTY_NAME));
}

grpc::Status ClientGate::Process(const InputMetadata&, grpc::AuthContext* context, OutputMetadata*,
                                 OutputMetadata*) {
    // Read only: the auth context is the connection's, shared by its concurrent calls (gRPC's
    // server_auth_filter), so a property added here would race their readers and pile up.
    const Admission a = admit(*context);
    if (!a.ok) {
        qCInfo(lcServer).noquote() << "refused a call:" << a.refusal;
        return {grpc::StatusCode::UNAUTHENTICATED, a.refusal.toStdString()};
    }
    return grpc::Status::OK;
}

Caller ClientGate::callerOf(const grpc::ServerContext& context) const {
    const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
    if (!auth) {
        return {};
    }
    const Admission a = admit(*auth);
    return a.ok ? a.caller : Caller{};
}

} // namespace tessera
