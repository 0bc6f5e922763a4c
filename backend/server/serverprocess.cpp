// tessera-server's process (see serverprocess.h).
#include "backend/server/serverprocess.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/core/paths.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/serverconfig.h"
#include "backend/tls/clientcerts.h"
#include "backend/tls/clusterca.h"

#include <QDir>
#include <QHostAddress>
#include <QNetworkInterface>
#include <QSaveFile>
#include <QSysInfo>

namespace tessera {

namespace {

/// Writes the server's certificate and key beside the CA (tls/server.crt, server.key 0600), for
/// a person to inspect; the server keeps its own copy in memory.
void keepCopy(const QString& folder, const tls::KeyAndCert& pair) {
    for (const auto& [name, text, secret] :
         {std::tuple{"server.key", &pair.keyPem, true}, {"server.crt", &pair.certPem, false}}) {
        QSaveFile f(QDir(folder).filePath(QLatin1String(name)));
        if (f.open(QIODevice::WriteOnly)) {
            if (secret) {
                f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
            }
            f.write(text->data(), qint64(text->size()));
            f.commit();
        }
    }
}

bool isWildcard(const QString& host) {
    return host.isEmpty() || host == QLatin1String("0.0.0.0") || host == QLatin1String("::") ||
           host == QLatin1String("[::]");
}

} // namespace

QStringList serverCertificateNames(const QString& listenHost, const QStringList& extra) {
    QStringList names;
    QString host = listenHost;
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2);
    }
    if (!isWildcard(host)) {
        names << host;
    }
    names << extra << QSysInfo::machineHostName();
    for (const QHostAddress& a : QNetworkInterface::allAddresses()) {
        if (a.protocol() == QAbstractSocket::IPv4Protocol ||
            (a.protocol() == QAbstractSocket::IPv6Protocol && a.scopeId().isEmpty())) {
            names << a.toString();
        }
    }
    names.removeAll(QString());
    names.removeDuplicates();
    return names;
}

ServerProcess::ServerProcess(ServerOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_lock(dataDir()) {}

ServerProcess::~ServerProcess() {
    stop();
}

int ServerProcess::tcpPort() const {
    return m_server ? m_server->tcpPort() : 0;
}

Result<void> ServerProcess::start() {
    if (const QString problem = BackendServer::socketPathProblem(m_lock.socketPath());
        !problem.isEmpty()) {
        return fail(ErrorCode::InvalidArgument, problem.toStdString());
    }
    const QString configPath =
        m_options.configPath.isEmpty() ? ServerConfig::defaultPath() : m_options.configPath;
    auto config = ServerConfig::read(configPath);
    if (!config) {
        return relay(config);
    }
    if (Result<void> claimed = m_lock.tryClaim(QLatin1String(DataFolderLock::kServer)); !claimed) {
        return relay(claimed, "cannot serve " + dataDir().toStdString() + ": ");
    }
    m_session = std::make_unique<BackendSession>(QString(), nullptr, BackendSession::Host::Server);
    if (!m_session->storeError().isEmpty()) {
        Q_EMIT said(
            tr("warning: no history (no audit log either): %1").arg(m_session->storeError()));
    }
    if (!m_session->provisionError().isEmpty()) {
        Q_EMIT said(tr("warning: %1").arg(m_session->provisionError()));
    }
    connectJournal();
    m_server = std::make_unique<BackendServer>(
        m_session.get(), QLatin1String(DataFolderLock::kServer), m_lock.socketPath());
    ServerAccess access;
    access.admins = config->admins;
    const QString listen = m_options.listen.isEmpty() ? config->listen : m_options.listen;
    if (!listen.isEmpty()) {
        auto ca = ClusterCa::shared();
        if (!ca) {
            stop();
            return relay(ca);
        }
        const int colon = listen.lastIndexOf(QLatin1Char(':'));
        bool portOk = false;
        const int port = colon > 0 ? listen.mid(colon + 1).toInt(&portOk) : -1;
        if (colon <= 0 || !portOk || port < 0 || port > 65535) {
            stop();
            return fail(ErrorCode::InvalidArgument,
                        "--listen '" + listen.toStdString() +
                            "' is not HOST:PORT (e.g. 0.0.0.0:7443, or 127.0.0.1:0 for any port)");
        }
        m_certNames = serverCertificateNames(listen.left(colon), config->names + m_options.names);
        auto pair = (*ca)->issueServer(m_certNames);
        if (!pair) {
            stop();
            return relay(pair);
        }
        keepCopy((*ca)->folder(), *pair);
        access.tcpAddress = listen;
        access.tcpIdentity = {(*ca)->caCertPem(), pair->certPem, pair->keyPem};
        access.revokedPath = ClientCertificates((*ca)->folder()).revokedPath();
    }
    m_server->setAccess(access);
    if (Result<void> listening = m_server->start(); !listening) {
        stop();
        return listening;
    }
    const QStringList followed = m_session->controller()->jobIds();
    Q_EMIT said(
        tr("serving %1 on %2 (%3 job(s) to follow; admins: %4)")
            .arg(dataDir(), m_server->listening().join(QStringLiteral(" and ")))
            .arg(followed.size())
            .arg((QStringList{access.localUser} << access.admins).join(QStringLiteral(", "))));
    return {};
}

void ServerProcess::connectJournal() {
    JobController* jobs = m_session->controller();
    connect(jobs, &JobController::jobStateChanged, this,
            [this](const QString& id, JobState state, const QString& reason) {
                Q_EMIT said(tr("job %1 %2%3")
                                .arg(id, jobStateName(state),
                                     reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
            });
    connect(jobs, &JobController::jobReattached, this, [this](const QString& id, quint64 from) {
        Q_EMIT said(tr("following job %1 again from event %2").arg(id).arg(from));
    });
    connect(jobs, &JobController::jobRecovering, this,
            [this](const QString& id, int attempt, const QString& cause, qint64 resumeStep,
                   const QStringList& workers) {
                Q_EMIT said(tr("job %1: %2; relaunching it as attempt %3 on %4 from step %5")
                                .arg(id, cause)
                                .arg(attempt)
                                .arg(workers.join(QLatin1Char(',')))
                                .arg(resumeStep));
            });
    connect(m_session->autoscaler(), &Autoscaler::decided, this,
            [this](const AutoscaleDecision& d) { Q_EMIT said(tr("autoscaler: ") + d.text); });
}

void ServerProcess::stop() {
    m_server.reset(); // streams end first: nothing reads the session while it goes
    m_session.reset();
    m_lock.release();
}

} // namespace tessera
