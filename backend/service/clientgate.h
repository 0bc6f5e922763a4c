// tessera-server's one gate (issue 48): every call on every listener passes it before a handler is
// chosen, and leaves with the caller's name and whether they are an admin.
#pragma once

#include <grpcpp/security/auth_metadata_processor.h>
#include <grpcpp/server_context.h>

#include <QString>
#include <QStringList>

#include <memory>

namespace tessera {

class RevocationList;

/// Who is calling, as the gate admitted them.
struct Caller {
    QString user;       ///< a client certificate's CN, or the server's own user on the socket
    bool admin = false; ///< may cancel and release anyone's
};

/// An AuthMetadataProcessor for the control API's listeners:
/// * the Unix socket (gRPC local credentials, transport "local"): the socket is 0600, so the
///   caller is the server's own user, an admin;
/// * TCP with mutual TLS (transport "ssl"; the handshake already refused certificates of other
///   CAs, and plaintext): the certificate must be a person's (OU kUserUnit) and not revoked; its
///   CN is the user, an admin when listed in server.json;
/// * anything else is refused.
/// Refusals are UNAUTHENTICATED with a message that names the certificate and what to do.
///
/// Process changes nothing in the auth context: gRPC gives every call of a connection the same
/// one, so a property added per call would race the handlers that read it (an abort in
/// grpc_auth_property_iterator_next) and grow with every call. A handler asks callerOf, which
/// admits the call's peer again (a certificate parse: microseconds).
class ClientGate : public grpc::AuthMetadataProcessor {
public:
    /// `localUser`: the server's own user (the Unix socket's caller). `revoked` may be null
    /// (nothing revoked: the socket-only servers of the app and serve).
    ClientGate(QString localUser, QStringList admins, std::shared_ptr<RevocationList> revoked);

    grpc::Status Process(const InputMetadata& metadata, grpc::AuthContext* context,
                         OutputMetadata* consumed, OutputMetadata* response) override;

    /// The caller as admitted, or, outside the gate (direct calls in tests), the local user.
    /// `admit` is what Process would say for a peer with this certificate (PEM), "" for the
    /// local transport: the caller, or the refusal's message.
    struct Admission {
        bool ok = false;
        Caller caller;
        QString refusal;
    };
    Admission admit(const QString& transport, const std::string& certPem) const;
    /// admit() for the peer an auth context describes (its transport_security_type and
    /// x509_pem_cert properties).
    Admission admit(const grpc::AuthContext& context) const;

    /// The caller of a call that passed this gate; a call without an auth context, or one the
    /// gate would now refuse (its certificate revoked since), is nobody: user "", not an admin.
    Caller callerOf(const grpc::ServerContext& context) const;

    /// This process's user name (getpwuid(geteuid())), or "uid N" when it has none.
    static QString processUser();

private:
    QString m_localUser;
    QStringList m_admins;
    std::shared_ptr<RevocationList> m_revoked;
};

} // namespace tessera
