// SSH provider: offers from the configured hosts, leases driven by SshRent (see sshprovider.h).
#include "backend/provision/ssh/sshprovider.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/nodewatch.h"
#include "backend/provision/ssh/sshhostsfile.h"
#include "backend/provision/ssh/sshrent.h"

#include <QLoggingCategory>

namespace tessera {

SshProvider::SshProvider(ClusterRegistry* registry, LeaseStore* store, QObject* parent)
    : Provider(store, parent), m_registry(registry), m_watch(new NodeWatch(registry, this)) {
    m_fileWriter.setMaxThreadCount(1);
    connect(m_watch, &NodeWatch::lost, this, &SshProvider::onLost);
}

SshProvider::~SshProvider() = default;

void SshProvider::setHosts(const QList<SshHost>& hosts) {
    m_hosts = hosts;
    Q_EMIT offersChanged();
}

void SshProvider::setUnreachableGrace(int ms) {
    m_watch->setGrace(ms);
}

std::optional<SshHost> SshProvider::hostOf(const QString& offerId) const {
    for (const SshHost& h : m_hosts) {
        if (h.offerId() == offerId) {
            return h;
        }
    }
    return std::nullopt;
}

QString SshProvider::liveLeaseOf(const QString& offerId) const {
    for (const Lease& l : leases()) {
        if (l.live() && l.offerId == offerId) {
            return l.id;
        }
    }
    return QString();
}

QList<Offer> SshProvider::offers() const {
    QList<Offer> out;
    for (const SshHost& h : m_hosts) {
        Offer o = sshOffer(h);
        o.available = liveLeaseOf(o.id).isEmpty() ? 1 : 0;
        out.append(o);
    }
    return out;
}

Result<QString> SshProvider::rent(const QString& offerId) {
    const std::optional<SshHost> host = hostOf(offerId);
    if (!host) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("no SSH host %1: add it in the settings first")
                        .arg(offerId)
                        .toStdString());
    }
    if (const QString held = liveLeaseOf(offerId); !held.isEmpty()) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("%1 is already rented (lease %2): release it first")
                        .arg(offerId, held)
                        .toStdString());
    }
    if (Result<void> ok = checkBudget(offerId, host->pricePerHour); !ok) {
        return relay(ok);
    }
    if (m_registry->node(host->nodeName())) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("the cluster already has a node called %1: give the SSH host "
                                   "another name")
                        .arg(host->nodeName())
                        .toStdString());
    }
    Lease l;
    l.id = newLeaseId();
    l.provider = id();
    l.offerId = offerId;
    l.pricePerHour = host->pricePerHour;
    l.created = QDateTime::currentDateTimeUtc();
    l.owner = rentOwner();
    l.nodes = {host->nodeName()};
    SshWorkerDetail d;
    d.host = *host;
    l.detail = d.toJson();
    if (store()) {
        if (Result<void> saved = store()->save(l); !saved) {
            return relay(saved); // nothing started: nothing to forget
        }
    }
    update(l);
    auto* r = new SshRent(*host, l.id, m_registry, &m_bundleHashes, this);
    r->setRegisterTimeout(m_registerTimeoutMs);
    r->setTls(m_workerTls);
    connect(r, &SshRent::checked, this,
            [this, offerId](const SshMachine& m) { onChecked(offerId, m); });
    Q_EMIT offersChanged();
    startRent(l.id, r);
    return l.id;
}

void SshProvider::onChecked(const QString& offerId, const SshMachine& machine) {
    SshHost* host = nullptr;
    for (SshHost& h : m_hosts) {
        host = h.offerId() == offerId ? &h : host;
    }
    if (!host || !learnMachine(host, machine)) {
        return; // removed meanwhile, or nothing new
    }
    Q_EMIT offersChanged();
    if (m_hostsFile.isEmpty()) {
        return;
    }
    // Change only this entry's machine fields, in the file as it is now: the user may have
    // edited other entries (or this one's settings, or fields Tessera does not know) since the
    // app read it, and the Add SSH host form may be writing it this moment (editSshHostsFile).
    m_fileWriter.start([path = m_hostsFile, found = *host] {
        if (Result<QList<SshHost>> saved = writeFoundMachine(path, found); !saved) {
            qCWarning(lcLease).noquote()
                << "not saving what the rent found on" << found.offerId() << "into" << path << ":"
                << QString::fromStdString(saved.error().message);
        }
    });
}

void SshProvider::rentReady(const QString& leaseId, const QStringList& nodes,
                            const QString& detail) {
    setReady(leaseId, nodes, detail);
    for (const QString& node : nodes) {
        m_watch->watch(node);
    }
}

void SshProvider::onLost(const QString& node, qint64 unreachableMs, const QString& lastError) {
    for (const Lease& l : leases()) {
        if (l.state != LeaseState::Ready || !l.nodes.contains(node)) {
            continue;
        }
        const SshWorkerDetail d = SshWorkerDetail::fromJson(l.detail);
        m_registry->removeNode(node);
        end(l.id, LeaseState::Failed,
            QStringLiteral("%1 (%2) was unreachable for %3 s (last error: %4), so the lease "
                           "ended and the node left the cluster; check the machine, then rent "
                           "it again")
                .arg(node, d.host.offerId())
                .arg(double(unreachableMs) / 1000.0, 0, 'f', 1)
                .arg(lastError.isEmpty() ? QStringLiteral("none") : lastError));
        // Best effort: a machine back online must not keep a worker nobody rents.
        SshRent::stopWorker(
            this, d,
            [node](const QString& stopError) {
                qCInfo(lcLease).noquote()
                    << "stopping the worker of lost node" << node << ":"
                    << (stopError.isEmpty() ? QStringLiteral("stopped") : stopError);
            },
            5000);
    }
}

Result<void> SshProvider::release(const QString& leaseId) {
    const Result<Lease> live = liveLease(leaseId, QStringLiteral("SSH"));
    if (!live) {
        return relay(live);
    }
    if (LeaseRent* r = rentOf(leaseId)) {
        r->abort(QStringLiteral("released while renting"));
        return {};
    }
    for (const QString& node : live->nodes) {
        m_registry->removeNode(node);
    }
    const SshWorkerDetail d = SshWorkerDetail::fromJson(live->detail);
    SshRent::stopWorker(this, d, [this, leaseId](const QString& stopError) {
        end(leaseId, LeaseState::Released, stopError);
    });
    return {};
}

void SshProvider::restore() {
    if (!store()) {
        return;
    }
    for (Lease l : store()->live()) {
        if (l.provider != id() || !lease(l.id).id.isEmpty()) {
            continue;
        }
        const SshWorkerDetail d = SshWorkerDetail::fromJson(l.detail);
        if (l.state == LeaseState::Ready) {
            update(l);
            const WorkerNode node =
                rejoinedNode(d, l.nodes.value(0, d.host.nodeName()), id(), m_registry);
            m_registry->addNode(node); // probes it: Unreachable if the machine went away
            m_watch->watch(node.name);
            continue;
        }
        // A rent cut short by the app's end cannot be resumed: undo what it started.
        const QString why = markCutShort(l);
        const QString leaseId = l.id;
        if (d.pid <= 0) {
            end(leaseId, LeaseState::Failed, why);
            continue;
        }
        SshRent::stopWorker(this, d, [this, leaseId, why](const QString& stopError) {
            end(leaseId, LeaseState::Failed, joinReasons(why, stopError));
        });
    }
    Q_EMIT offersChanged();
}

} // namespace tessera
