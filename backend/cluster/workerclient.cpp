// gRPC client of one tessera-worker (see workerclient.h).
#include "backend/cluster/workerclient.h"

#include <QCoreApplication>
#include <QFile>

#include "worker/common/bearer_token.h"

#include "backend/core/logging.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <ctime>

namespace tessera {

namespace {

void setDeadline(grpc::ClientContext* context, int timeoutMs) {
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(timeoutMs));
}

} // namespace

WorkerClient::WorkerClient(const QString& address, const QString& token,
                           std::shared_ptr<const tls::Identity> tls)
    : m_address(address), m_token(token.toStdString()), m_tls(std::move(tls)) {
    grpc::ChannelArguments args;
    // Reconnect quickly after a worker restart instead of gRPC's default backoff of up to 120 s.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 200);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (m_tls && address.startsWith(QLatin1String("unix:"))) {
        // An SSH tunnel's local end: the worker is on the far host's loopback, and every worker
        // certificate names "localhost" (ClusterCa::issueWorker).
        args.SetSslTargetNameOverride("localhost");
    }
    if (m_tls) {
        grpc::SslCredentialsOptions options;
        options.pem_root_certs = m_tls->caPem;
        options.pem_cert_chain = m_tls->certPem;
        options.pem_private_key = m_tls->keyPem;
        credentials = grpc::SslCredentials(options);
    }
    m_channel = grpc::CreateCustomChannel(address.toStdString(), credentials, args);
    m_stub = v1::WorkerService::NewStub(m_channel);
}

void WorkerClient::authorize(grpc::ClientContext* context) const {
    // gRPC aborts the process on a header value with control characters; a token it cannot
    // carry is left out, so the worker answers UNAUTHENTICATED and the caller gets an Error.
    if (isValidBearerToken(m_token)) {
        context->AddMetadata("authorization", "Bearer " + m_token);
    }
}

std::optional<std::string> WorkerClient::handshakeFailure(const QString& detail) const {
    const auto text = [&](const char* source) {
        return QCoreApplication::translate("tessera::WorkerClient", source)
            .arg(m_address, detail)
            .toStdString();
    };
    if (!m_tls) {
        if (!detail.contains(QLatin1String("Socket closed"))) {
            return std::nullopt;
        }
        // A TLS worker drops a plaintext ClientHello-less connection at once.
        return text(QT_TRANSLATE_NOOP(
            "tessera::WorkerClient",
            "worker %1 closed the connection (%2): if it was started with --tls-cert, connect "
            "with the cluster's certificates (tessera-ctl --tls, or "
            "--tls-ca/--tls-cert/--tls-key)"));
    }
    if (detail.contains(QLatin1String("certificate verify failed")) ||
        detail.contains(QLatin1String("Peer name"))) {
        return text(QT_TRANSLATE_NOOP(
            "tessera::WorkerClient",
            "worker %1: its certificate was refused (%2): it was not issued by this cluster's CA, "
            "has expired, or does not name this address; re-rent the node (Tessera issues a new "
            "certificate) or give it one from `tessera-ctl certify`"));
    }
    if (!detail.contains(QLatin1String("Socket closed")) &&
        !detail.contains(QLatin1String("handshake"), Qt::CaseInsensitive)) {
        // gRPC says "Ssl handshake failed", "tcp handshaker shutdown" or "Handshake read
        // failed" for the same refusal, depending on which side gives up first.
        return std::nullopt;
    }
    if (auto own = tls::verify(m_tls->certPem, m_tls->caPem, std::time(nullptr)); !own) {
        return QCoreApplication::translate("tessera::WorkerClient",
                                           "worker %1: refused this side's certificate: %2")
            .arg(m_address, QString::fromStdString(own.error().message))
            .toStdString();
    }
    return text(QT_TRANSLATE_NOOP(
        "tessera::WorkerClient",
        "worker %1 ended the TLS handshake (%2): it trusts another CA than this cluster's, or it "
        "serves plaintext (started with --insecure, or on loopback); give it a certificate from "
        "`tessera-ctl certify`, or connect without TLS if it is meant to be plaintext"));
}

Error WorkerClient::toError(const grpc::Status& status, const char* call) const {
    // In the user's language (context tessera::WorkerClient); tessera-ctl loads no translator.
    const QString detail = QString::fromStdString(status.error_message());
    const auto text = [&](const char* source) {
        return QCoreApplication::translate("tessera::WorkerClient", source)
            .arg(m_address, QString::fromLatin1(call), detail)
            .toStdString();
    };
    if (const auto why = handshakeFailure(detail)) {
        return Error{ErrorCode::PermissionDenied, *why};
    }
    switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
        return Error{ErrorCode::Unavailable,
                     text(QT_TRANSLATE_NOOP("tessera::WorkerClient",
                                            "worker %1 (%2): does not answer (%3); check that "
                                            "tessera-worker runs there and the address and port "
                                            "are right"))};
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
        return Error{ErrorCode::PermissionDenied,
                     text(QT_TRANSLATE_NOOP("tessera::WorkerClient",
                                            "worker %1 (%2): refused the token (%3); use the "
                                            "token file the worker was started with"))};
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::OUT_OF_RANGE:
        return Error{ErrorCode::InvalidArgument,
                     text(QT_TRANSLATE_NOOP("tessera::WorkerClient", "worker %1 (%2): %3"))};
    case grpc::StatusCode::NOT_FOUND:
        return Error{ErrorCode::NotFound,
                     text(QT_TRANSLATE_NOOP("tessera::WorkerClient", "worker %1 (%2): %3"))};
    default:
        return Error{ErrorCode::Internal,
                     QCoreApplication::translate("tessera::WorkerClient",
                                                 "worker %1 (%2): failed with gRPC status %3: %4")
                         .arg(m_address, QString::fromLatin1(call),
                              QString::number(static_cast<int>(status.error_code())), detail)
                         .toStdString()};
    }
}

Result<v1::WorkerInfo> WorkerClient::getInfo(int timeoutMs) const {
    grpc::ClientContext context;
    authorize(&context);
    setDeadline(&context, timeoutMs);
    v1::WorkerInfo info;
    const grpc::Status status = m_stub->GetInfo(&context, v1::GetInfoRequest(), &info);
    if (!status.ok()) {
        return fail(toError(status, "GetInfo"));
    }
    return info;
}

Result<v1::LaunchJobReply> WorkerClient::launchJob(const v1::LaunchJobRequest& request,
                                                   int timeoutMs) const {
    grpc::ClientContext context;
    authorize(&context);
    setDeadline(&context, timeoutMs);
    v1::LaunchJobReply reply;
    const grpc::Status status = m_stub->LaunchJob(&context, request, &reply);
    if (!status.ok()) {
        return fail(toError(status, "LaunchJob"));
    }
    return reply;
}

Result<bool> WorkerClient::hasBundle(const QString& sha256, int timeoutMs) const {
    grpc::ClientContext context;
    authorize(&context);
    setDeadline(&context, timeoutMs);
    v1::BundleRef request;
    request.set_sha256(sha256.toStdString());
    v1::BundleStatus reply;
    const grpc::Status status = m_stub->HasBundle(&context, request, &reply);
    if (!status.ok()) {
        return fail(toError(status, "HasBundle"));
    }
    return reply.present();
}

Result<quint64> WorkerClient::putBundle(const QString& path, const QString& sha256,
                                        quint64 bytes) const {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, "cannot read the packed workdir '" + path.toStdString() +
                                       "': " + file.errorString().toStdString());
    }
    constexpr qint64 kChunk = 1 << 20;
    grpc::ClientContext context;
    authorize(&context);
    setDeadline(&context, 10000 + static_cast<int>(std::min<quint64>(bytes / kChunk, 3600)) * 1000);
    v1::BundleStatus reply;
    auto writer = m_stub->PutBundle(&context, &reply);
    quint64 sent = 0;
    bool first = true;
    while (first || !file.atEnd()) {
        v1::BundleChunk chunk;
        if (first) {
            chunk.set_sha256(sha256.toStdString());
            chunk.set_total_bytes(bytes);
            first = false;
        }
        const QByteArray data = file.read(kChunk);
        chunk.set_data(data.constData(), static_cast<size_t>(data.size()));
        if (!writer->Write(chunk)) {
            break; // the worker ended the call: Finish() says why
        }
        sent += static_cast<quint64>(data.size());
    }
    writer->WritesDone();
    const grpc::Status status = writer->Finish();
    if (!status.ok()) {
        return fail(toError(status, "PutBundle"));
    }
    return sent;
}

Result<v1::JobState> WorkerClient::cancelJob(const QString& jobId, double graceSeconds,
                                             int timeoutMs) const {
    grpc::ClientContext context;
    authorize(&context);
    setDeadline(&context, timeoutMs);
    v1::CancelJobRequest request;
    request.set_job_id(jobId.toStdString());
    request.set_grace_seconds(graceSeconds);
    v1::CancelJobReply reply;
    const grpc::Status status = m_stub->CancelJob(&context, request, &reply);
    if (!status.ok()) {
        return fail(toError(status, "CancelJob"));
    }
    return reply.state();
}

std::unique_ptr<grpc::ClientReader<v1::JobEvent>>
WorkerClient::watchJob(grpc::ClientContext* context, const QString& jobId, quint64 fromSeq) const {
    authorize(context);
    v1::WatchJobRequest request;
    request.set_job_id(jobId.toStdString());
    request.set_from_seq(fromSeq);
    qCDebug(lcRpc) << "WatchJob" << jobId << "from seq" << fromSeq << "on" << m_address;
    return m_stub->WatchJob(context, request);
}

std::unique_ptr<grpc::ClientReader<v1::TelemetrySample>>
WorkerClient::watchTelemetry(grpc::ClientContext* context, quint32 intervalMs,
                             quint64 fromSeq) const {
    authorize(context);
    v1::WatchTelemetryRequest request;
    request.set_interval_ms(intervalMs);
    request.set_from_seq(fromSeq);
    qCDebug(lcRpc) << "WatchTelemetry every" << intervalMs << "ms from seq" << fromSeq << "on"
                   << m_address;
    return m_stub->WatchTelemetry(context, request);
}

} // namespace tessera
