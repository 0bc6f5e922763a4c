// The workers tessera-ctl's --workers names (see ctloptions.h).
#include "backend/ctl/ctloptions.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/tls/clusterca.h"
#include "worker/common/bearer_token.h"

#include <QFile>

namespace tessera::ctl {

namespace {

Result<std::string> readPemFile(const QString& path, const char* flag) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, std::string(flag) + " '" + path.toStdString() +
                                       "' cannot be read: " + f.errorString().toStdString());
    }
    return f.read(1 << 20).toStdString();
}

/// The TLS identity --tls or --tls-ca/--tls-cert/--tls-key ask for; null for plaintext.
Result<std::shared_ptr<const tls::Identity>> tlsIdentity(const CtlOptions& o) {
    if (o.tls) {
        auto ca = ClusterCa::shared();
        if (!ca) {
            return relay(ca, "--tls: ");
        }
        return (*ca)->backendIdentity();
    }
    if (o.tlsCa.isEmpty()) {
        return std::shared_ptr<const tls::Identity>();
    }
    auto ca = readPemFile(o.tlsCa, "--tls-ca");
    auto cert = readPemFile(o.tlsCert, "--tls-cert");
    auto key = readPemFile(o.tlsKey, "--tls-key");
    if (!ca || !cert || !key) {
        return relay(!ca ? ca : !cert ? cert : key);
    }
    if (!tls::keyMatches(*key, *cert)) {
        return fail(ErrorCode::InvalidArgument, "--tls-key '" + o.tlsKey.toStdString() +
                                                    "' is not the key of --tls-cert '" +
                                                    o.tlsCert.toStdString() + "'");
    }
    return std::make_shared<const tls::Identity>(tls::Identity{*ca, *cert, *key});
}

} // namespace

Result<QList<WorkerNode>> manualWorkers(const CtlOptions& options) {
    auto token = readBearerTokenFile(options.tokenFile.toStdString());
    if (!token) {
        return relay(token);
    }
    auto identity = tlsIdentity(options);
    if (!identity) {
        return relay(identity);
    }
    QList<WorkerNode> nodes;
    for (int i = 0; i < options.workers.size(); ++i) {
        WorkerNode n;
        n.name = QStringLiteral("worker-%1").arg(i + 1);
        n.address = options.workers[i];
        n.token = QString::fromStdString(*token);
        n.provider = QStringLiteral("manual");
        n.tls = *identity;
        nodes.append(n);
    }
    return nodes;
}

Result<void> addManualWorkers(const CtlOptions& options, ClusterRegistry& registry) {
    Result<QList<WorkerNode>> workers = manualWorkers(options);
    if (!workers) {
        return relay(workers);
    }
    for (const WorkerNode& n : *workers) {
        registry.addNode(n);
    }
    return {};
}

} // namespace tessera::ctl
