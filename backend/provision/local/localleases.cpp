// Leases of local worker processes (see localleases.h).
#include "backend/provision/local/localleases.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"

namespace tessera {

LocalLeases::LocalLeases(LocalWorkers* local, ClusterRegistry* registry, int capacity,
                         QObject* parent)
    : Provider(nullptr, parent), m_local(local), m_registry(registry), m_capacity(capacity) {
    connect(local, &LocalWorkers::started, this, &LocalLeases::onRentFinished);
    connect(local, &LocalWorkers::startFailed, this, &LocalLeases::onRentFailed);
    connect(local, &LocalWorkers::workerStopped, this, [this](const QString& name) {
        if (const QString id = leaseOfNode(name); !id.isEmpty()) {
            end(id, LeaseState::Released, QString());
        }
    });
    connect(local, &LocalWorkers::workerDied, this,
            [this](const QString& name, const QString& why) {
                if (const QString id = leaseOfNode(name); !id.isEmpty()) {
                    end(id, LeaseState::Failed, tr("the worker process ended (%1)").arg(why));
                }
            });
    connect(local, &LocalWorkers::stopped, this, [this] {
        for (const Lease& l : leases()) {
            if (l.live() && !m_pending.contains(l.id)) {
                end(l.id, LeaseState::Released, tr("every local worker was released"));
            }
        }
    });
    connect(registry, &ClusterRegistry::nodeChanged, this, &LocalLeases::onNodeChanged);
}

QList<Offer> LocalLeases::offers() const {
    Offer o;
    o.provider = id();
    o.id = QStringLiteral("local-worker");
    o.name = tr("local worker");
    o.deviceKind = QStringLiteral("cpu");
    o.slotsPerNode = 1;
    o.where = tr("this machine");
    // Workers started from the cluster panel share the machine too.
    o.available = std::max(0, m_capacity - int(m_local->names().size()));
    return {o};
}

Result<QString> LocalLeases::rent(const QString& offerId) {
    if (offerId != QLatin1String("local-worker")) {
        return fail(ErrorCode::NotFound, "no local offer " + offerId.toStdString());
    }
    if (offers().first().available <= 0) {
        return fail(ErrorCode::Unavailable,
                    tr("this machine already runs %1 local workers, the most it offers")
                        .arg(m_capacity)
                        .toStdString());
    }
    Lease l;
    l.id = newLeaseId();
    l.provider = id();
    l.offerId = offerId;
    l.state = LeaseState::Booting;
    l.reason = tr("starting a worker process");
    l.created = QDateTime::currentDateTimeUtc();
    l.owner = rentOwner();
    m_pending.append(l.id);
    update(l);
    Q_EMIT offersChanged();
    m_local->start(1, 1);
    return l.id;
}

void LocalLeases::onRentFinished(const QStringList& names) {
    if (m_pending.isEmpty() || names.size() != 1) {
        return; // a rent of the cluster panel, not ours (ours start one worker each)
    }
    const QString id = m_pending.takeFirst();
    Lease l = lease(id);
    l.nodes = names;
    if (m_cancel.remove(id)) {
        update(l);
        m_local->stopWorker(names.first());
        end(id, LeaseState::Failed, tr("released while renting"));
        return;
    }
    l.state = LeaseState::Registering;
    l.reason = tr("waiting for %1 to answer").arg(names.first());
    update(l);
    onNodeChanged(names.first());
}

void LocalLeases::onRentFailed(const QString& error) {
    if (!m_pending.isEmpty()) {
        const QString id = m_pending.takeFirst();
        m_cancel.remove(id);
        end(id, LeaseState::Failed, error);
    }
}

void LocalLeases::onNodeChanged(const QString& name) {
    const QString id = leaseOfNode(name);
    const auto node = m_registry->node(name);
    if (id.isEmpty() || !node || node->state != NodeState::Ready) {
        return;
    }
    Lease l = lease(id);
    if (l.state == LeaseState::Registering) {
        l.state = LeaseState::Ready;
        l.reason.clear();
        l.ready = QDateTime::currentDateTimeUtc();
        update(l);
    }
}

QString LocalLeases::leaseOfNode(const QString& node) const {
    for (const Lease& l : leases()) {
        if (l.live() && l.nodes.contains(node)) {
            return l.id;
        }
    }
    return QString();
}

Result<void> LocalLeases::release(const QString& leaseId) {
    const Lease l = lease(leaseId);
    if (l.id.isEmpty() || !l.live()) {
        return fail(ErrorCode::NotFound, "no live local lease " + leaseId.toStdString());
    }
    if (m_pending.contains(leaseId)) {
        m_cancel.insert(leaseId); // ended when its worker serves
        return {};
    }
    if (l.nodes.isEmpty() || !m_local->stopWorker(l.nodes.first())) {
        end(leaseId, LeaseState::Released, tr("its worker had already ended"));
    }
    return {};
}

} // namespace tessera
