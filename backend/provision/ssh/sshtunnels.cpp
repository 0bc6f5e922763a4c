// SSH tunnels to workers behind a firewall (see sshtunnels.h).
#include "backend/provision/ssh/sshtunnels.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/provision/ssh/sshconnection.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace tessera {

namespace {

constexpr int kFirstDelayMs = 1000;
constexpr int kMaxDelayMs = 15000;

} // namespace

SshTunnels* SshTunnels::shared() {
    static QPointer<SshTunnels> instance;
    if (!instance) {
        instance = new SshTunnels(QCoreApplication::instance());
    }
    return instance;
}

SshTunnels::SshTunnels(QObject* parent) : QObject(parent) {}

QString SshTunnels::open(ClusterRegistry* registry, const QString& node, const SshHost& host,
                         int remotePort, std::function<void()> ready) {
    const QString dir = sshControlDir();
    if (dir.isEmpty()) {
        return QString();
    }
    close(node);
    // Short (a Unix socket path takes about 100 bytes), private, and this process's own: the app
    // and tessera-ctl may both hold a tunnel to one node.
    const QByteArray hash = QCryptographicHash::hash(node.toUtf8(), QCryptographicHash::Sha256);
    Tunnel t;
    t.host = host;
    t.remotePort = remotePort;
    t.socket = dir + QStringLiteral("/tun-%1-%2")
                         .arg(QCoreApplication::applicationPid())
                         .arg(QString::fromLatin1(hash.toHex().left(12)));
    t.restart = new QTimer(this);
    t.restart->setSingleShot(true);
    connect(t.restart, &QTimer::timeout, this, [this, node] { start(node); });
    t.watch = new QTimer(this);
    t.watch->setInterval(100);
    connect(t.watch, &QTimer::timeout, this, [this, node] { lookForSocket(node); });
    t.onReady = std::move(ready);
    t.registry = registry;
    t.owner = registry;
    m_tunnels.insert(node, t);
    if (registry && !m_watched.contains(registry)) {
        m_watched.insert(registry, connect(registry, &ClusterRegistry::nodeRemoved, this,
                                           [this](const QString& removed) { close(removed); }));
        // A registry that goes away (an app run's end) takes its tunnels with it.
        connect(registry, &QObject::destroyed, this, [this, registry] {
            m_watched.remove(registry);
            for (const QString& n : m_tunnels.keys()) {
                if (m_tunnels.value(n).owner == registry) {
                    close(n);
                }
            }
        });
    }
    start(node);
    return QStringLiteral("unix:") + t.socket;
}

void SshTunnels::start(const QString& node) {
    auto it = m_tunnels.find(node);
    if (it == m_tunnels.end()) {
        return;
    }
    auto* ssh = new QProcess(this);
    ssh->setProgram(QStringLiteral("ssh"));
    ssh->setArguments(sshTunnelArguments(it->host, it->socket, it->remotePort));
    ssh->setStandardOutputFile(QProcess::nullDevice());
    ssh->setProcessChannelMode(QProcess::SeparateChannels);
    connect(ssh, &QProcess::finished, this, [this, node, ssh] { onEnded(node, ssh); });
    connect(ssh, &QProcess::errorOccurred, this, [this, node, ssh](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            onEnded(node, ssh);
        }
    });
    it->ssh = ssh;
    it->ready = false;
    it->started.start();
    QFile::remove(it->socket); // its appearance is the sign that ssh listens
    ssh->start();
    it->watch->start();
}

void SshTunnels::lookForSocket(const QString& node) {
    auto it = m_tunnels.find(node);
    if (it == m_tunnels.end() || !it->ssh || !QFileInfo::exists(it->socket)) {
        return;
    }
    it->watch->stop();
    it->ready = true;
    if (auto onReady = std::exchange(it->onReady, {})) {
        onReady(); // the first time: the caller adds the node now
        return;
    }
    // Back after a restart: a fresh channel for the node (see the class comment).
    if (ClusterRegistry* r = it->registry) {
        if (const auto n = r->node(node)) {
            qCInfo(lcLease).noquote()
                << QStringLiteral("the SSH tunnel to %1's worker is back").arg(node);
            r->addNode(*n);
        }
    }
}

void SshTunnels::onEnded(const QString& node, QProcess* ssh) {
    const QString err = QString::fromUtf8(ssh->readAllStandardError()).trimmed();
    ssh->deleteLater();
    auto it = m_tunnels.find(node);
    if (it == m_tunnels.end() || it->ssh != ssh) {
        return; // closed, or replaced by a newer tunnel
    }
    it->ssh = nullptr;
    it->ready = false;
    it->watch->stop();
    if (it->started.elapsed() > 30000) {
        it->delayMs = kFirstDelayMs; // it had worked: a fresh outage starts over
    }
    qCWarning(lcLease).noquote()
        << QStringLiteral("the SSH tunnel to %1's worker (%2) ended (%3); starting it again in "
                          "%4 s")
               .arg(node, it->host.offerId(), err.isEmpty() ? ssh->errorString() : err.right(300))
               .arg(it->delayMs / 1000.0, 0, 'f', 1);
    it->restart->start(it->delayMs);
    it->delayMs = std::min(kMaxDelayMs, it->delayMs * 2);
}

void SshTunnels::close(const QString& node) {
    const auto it = m_tunnels.find(node);
    if (it == m_tunnels.end()) {
        return;
    }
    Tunnel t = *it;
    m_tunnels.erase(it);
    delete t.restart;
    delete t.watch;
    if (QProcess* ssh = t.ssh) {
        ssh->disconnect(this);
        connect(ssh, &QProcess::finished, ssh, &QObject::deleteLater);
        ssh->kill(); // reaped when its finished() comes
    }
    QFile::remove(t.socket);
}

bool SshTunnels::isOpen(const QString& node) const {
    return m_tunnels.contains(node);
}

bool SshTunnels::isReady(const QString& node) const {
    const auto it = m_tunnels.constFind(node);
    return it != m_tunnels.cend() && it->ready;
}

} // namespace tessera
