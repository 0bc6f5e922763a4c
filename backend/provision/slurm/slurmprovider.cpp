// Slurm provider: offers from the configured partitions, leases driven by SlurmRent (see
// slurmprovider.h).
#include "backend/provision/slurm/slurmprovider.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/slurm/slurmrent.h"

#include <QTimer>

namespace tessera {

SlurmProvider::SlurmProvider(ClusterRegistry* registry, LeaseStore* store, QObject* parent)
    : Provider(store, parent), m_registry(registry), m_watchTimer(new QTimer(this)) {
    connect(m_watchTimer, &QTimer::timeout, this, &SlurmProvider::watch);
    m_watchTimer->start(15000);
}

void SlurmProvider::setWatchInterval(int ms) {
    m_watchTimer->start(ms);
}

SlurmProvider::~SlurmProvider() = default;

void SlurmProvider::setClusters(const QList<SlurmCluster>& clusters) {
    m_clusters = clusters;
    Q_EMIT offersChanged();
}

QList<Offer> SlurmProvider::offers() const {
    QList<Offer> out;
    for (const SlurmCluster& c : m_clusters) {
        Offer o;
        o.provider = id();
        o.id = c.offerId();
        o.name = c.name + QLatin1Char('-') + c.partition;
        o.deviceKind = c.gpusPerNode <= 0    ? QStringLiteral("cpu")
                       : c.gpuName.isEmpty() ? QStringLiteral("gpu")
                                             : c.gpuName;
        o.devicesPerNode = qMax(c.gpusPerNode, 0);
        o.slotsPerNode = c.slots() > 0 ? c.slots() : 1;
        o.pricePerHour = c.pricePerNodeHour;
        o.where = QStringLiteral("Slurm partition %1 of %2").arg(c.partition, c.name);
        o.nodesPerRent = qMax(c.nodes, 1);
        o.available = std::max(0, c.maxLeases - liveLeasesOf(o.id));
        out.append(o);
    }
    return out;
}

int SlurmProvider::liveLeasesOf(const QString& offerId) const {
    int n = 0;
    for (const Lease& l : leases()) {
        n += l.live() && l.offerId == offerId ? 1 : 0;
    }
    return n;
}

Result<QString> SlurmProvider::rent(const QString& offerId) {
    const auto it = std::find_if(m_clusters.cbegin(), m_clusters.cend(),
                                 [&](const SlurmCluster& c) { return c.offerId() == offerId; });
    if (it == m_clusters.cend()) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("no Slurm partition %1: add it in the settings first")
                        .arg(offerId)
                        .toStdString());
    }
    if (liveLeasesOf(offerId) >= it->maxLeases) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("%1 already holds %2 allocation(s), its maxLeases: release one "
                                   "or raise maxLeases in the Slurm clusters file")
                        .arg(offerId)
                        .arg(it->maxLeases)
                        .toStdString());
    }
    if (Result<void> ok = checkBudget(offerId, it->pricePerNodeHour * it->nodes); !ok) {
        return relay(ok);
    }
    Lease l;
    l.id = newLeaseId();
    l.provider = id();
    l.offerId = offerId;
    l.pricePerHour = it->pricePerNodeHour;
    l.created = QDateTime::currentDateTimeUtc();
    l.owner = rentOwner();
    auto* r = new SlurmRent(*it, l.id, m_registry, this);
    SlurmJobDetail d;
    d.cluster = *it;
    d.jobName = QStringLiteral("tessera-") + l.id;
    l.detail = d.toJson();
    if (store()) {
        if (Result<void> saved = store()->save(l); !saved) {
            delete r;
            return relay(saved); // nothing submitted: nothing to forget
        }
    }
    update(l);
    r->setPollInterval(m_pollMs);
    r->setRegisterTimeout(m_registerTimeoutMs);
    startRent(l.id, r);
    return l.id;
}

Result<void> SlurmProvider::release(const QString& leaseId) {
    const Result<Lease> live = liveLease(leaseId, QStringLiteral("Slurm"));
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
    m_releasing.insert(leaseId);
    cancelSlurmJob(this, SlurmJobDetail::fromJson(live->detail),
                   [this, leaseId](const QString& cancelError) {
                       m_releasing.remove(leaseId);
                       end(leaseId, LeaseState::Released, cancelError);
                   });
    return {};
}

void SlurmProvider::watch() {
    for (const Lease& l : leases()) {
        if (l.state != LeaseState::Ready || m_watching.contains(l.id) ||
            m_releasing.contains(l.id)) {
            continue;
        }
        const SlurmJobDetail d = SlurmJobDetail::fromJson(l.detail);
        if (d.jobId.isEmpty()) {
            continue;
        }
        m_watching.insert(l.id);
        const QString leaseId = l.id;
        runSlurm(this, d.cluster, QStringLiteral("squeue"),
                 {QStringLiteral("-h"), QStringLiteral("-j"), d.jobId, QStringLiteral("-t"),
                  QStringLiteral("all"), QStringLiteral("-o"), QStringLiteral("%T|%r")},
                 {}, 30000, [this, leaseId, jobId = d.jobId](const ProcessResult& r) {
                     m_watching.remove(leaseId);
                     onWatched(leaseId, jobId, r);
                 });
    }
}

void SlurmProvider::onWatched(const QString& leaseId, const QString& jobId,
                              const ProcessResult& r) {
    const Lease l = lease(leaseId);
    if (l.state != LeaseState::Ready || m_releasing.contains(leaseId)) {
        return; // released meanwhile
    }
    const QStringList f = QString::fromUtf8(r.out).trimmed().split(QLatin1Char('|'));
    const bool purged = !r.ok() && r.err.contains("Invalid job id");
    if (!purged && !(r.ok() && slurmJobEnded(f.value(0)))) {
        return; // still running, or squeue failed (the registry's probes notice dead workers)
    }
    for (const QString& node : l.nodes) {
        m_registry->removeNode(node);
    }
    end(leaseId, LeaseState::Failed,
        QStringLiteral("Slurm job %1 ended on the cluster's side (%2): its nodes left the "
                       "cluster; rent again to get new ones")
            .arg(jobId, purged ? QStringLiteral("no longer known to Slurm")
                               : f.value(0) + QStringLiteral(", ") + f.value(1)));
}

void SlurmProvider::restore() {
    if (!store()) {
        return;
    }
    for (Lease l : store()->live()) {
        if (l.provider != id() || !lease(l.id).id.isEmpty()) {
            continue;
        }
        const SlurmJobDetail d = SlurmJobDetail::fromJson(l.detail);
        if (l.state == LeaseState::Ready) {
            update(l);
            for (const SlurmJobDetail::Node& n : d.nodes) {
                WorkerNode node;
                node.name = n.name;
                node.address = n.address;
                node.token = d.token;
                node.provider = id();
                if (d.tls) {
                    node.tls = restoredTlsIdentity(node.name);
                }
                m_registry->addNode(node); // probes it: Unreachable if the job ended meanwhile
            }
            continue;
        }
        // A rent cut short by the app's end cannot be resumed: cancel the job it submitted
        // (found by name when its id was never saved).
        const QString why = markCutShort(l);
        const QString leaseId = l.id;
        cancelSlurmJob(this, d, [this, leaseId, why](const QString& cancelError) {
            end(leaseId, LeaseState::Failed, joinReasons(why, cancelError));
        });
    }
    Q_EMIT offersChanged();
}

} // namespace tessera
