// A GPU cloud as a provider (see cloudprovider.h).
#include "backend/provision/cloud/cloudprovider.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudpeerfirewall.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/nodewatch.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>

#include <algorithm>

namespace tessera {

namespace {

constexpr int kCloudRentsPerOffer = 16;

/// The part of a cut-short lease's reason that sends the person to the lost instances; it
/// becomes strayReleasedNote() once that instance is released.
QString strayRunsNote(const QString& instanceId) {
    return QStringLiteral("its instance %1 still runs: release it from the instances Tessera "
                          "lost track of")
        .arg(instanceId);
}

QString strayReleasedNote(const QString& instanceId) {
    return QStringLiteral("its instance %1 was released later").arg(instanceId);
}

Offer offerOf(const QString& provider, const CloudInstanceType& t) {
    Offer o;
    o.provider = provider;
    o.id = t.name;
    o.name = t.description.isEmpty() ? t.name : t.description;
    o.deviceKind = t.gpus > 0 ? QStringLiteral("NVIDIA ") + t.gpuName : QStringLiteral("cpu");
    o.devicesPerNode = t.gpus;
    o.deviceMemoryBytes = quint64(t.gpus > 0 ? t.gpuMemoryBytes : t.memoryGiB * 1073741824.0);
    o.slotsPerNode = std::max(1, t.gpus);
    o.pricePerHour = t.pricePerHour;
    o.where = t.regions.isEmpty() ? QStringLiteral("no capacity now")
                                  : t.regions.join(QStringLiteral(", "));
    // The cloud does not say how many it has; the autoscaler's node cap and budgets bound what
    // it takes, and a launch beyond the capacity is refused with the reason.
    o.available = t.regions.isEmpty() ? 0 : kCloudRentsPerOffer;
    return o;
}

/// A rent still in progress in another live process on this data folder (the app and
/// tessera-ctl share it): its lease is that process's to finish.
bool rentingElsewhere(const Lease& l, const CloudLeaseDetail& d) {
    if (l.state == LeaseState::Ready || d.ownerPid <= 0 ||
        d.ownerPid == QCoreApplication::applicationPid()) {
        return false;
    }
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(d.ownerPid));
    return cmdline.open(QIODevice::ReadOnly) && cmdline.read(4096).contains("tessera");
}

bool gone(const CloudInstance& i) {
    return i.status == CloudStatus::Terminated || i.status == CloudStatus::Preempted;
}

} // namespace

QStringList orderRegions(const QStringList& withCapacity, const QStringList& preferred) {
    QStringList out;
    for (const QString& r : preferred) {
        if (withCapacity.contains(r) && !out.contains(r)) {
            out << r;
        }
    }
    for (const QString& r : withCapacity) {
        if (!out.contains(r)) {
            out << r;
        }
    }
    return out;
}

CloudProvider::CloudProvider(CloudApi* api, ClusterRegistry* registry, LeaseStore* store,
                             QObject* parent)
    : Provider(store, parent), m_api(api), m_firewall(new CloudPeerFirewall(api, this)),
      m_registry(registry), m_watch(new NodeWatch(registry, this)) {
    qRegisterMetaType<tessera::CloudInstance>();
    connect(m_watch, &NodeWatch::lost, this, &CloudProvider::onLost);
    m_health.setInterval(60000);
    connect(&m_health, &QTimer::timeout, this, &CloudProvider::checkHealth);
    m_health.start();
}

CloudProvider::~CloudProvider() = default;

QString CloudProvider::id() const {
    return m_api->id();
}

void CloudProvider::setUnreachableGrace(int ms) {
    m_watch->setGrace(ms);
}

QList<Offer> CloudProvider::offers() const {
    QList<Offer> out;
    for (const CloudInstanceType& t : m_types) {
        out << offerOf(id(), t);
    }
    return out;
}

void CloudProvider::refreshOffers() {
    m_api->instanceTypes(this, [this](CloudResult<QList<CloudInstanceType>> types) {
        if (types) {
            m_types = *types;
            m_offersError.clear();
        } else {
            m_types.clear();
            m_offersError = types.error().message;
            m_offersErrorKind = types.error().kind;
            qCInfo(lcLease).noquote() << m_offersError;
        }
        Q_EMIT offersChanged();
    });
}

Result<QString> CloudProvider::rent(const QString& offerId) {
    const auto type = std::find_if(m_types.cbegin(), m_types.cend(),
                                   [&](const CloudInstanceType& t) { return t.name == offerId; });
    if (type == m_types.cend()) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("%1 offers no instance type %2: refresh the offers")
                        .arg(m_api->displayName(), offerId)
                        .toStdString());
    }
    if (!m_api->hasApiKey()) {
        return fail(ErrorCode::PermissionDenied,
                    QStringLiteral("Tessera has no %1 API key: add one first (Rent dialog, or "
                                   "tessera-ctl cloud-key < FILE)")
                        .arg(m_api->displayName())
                        .toStdString());
    }
    if (Result<void> ok = checkBudget(offerId, type->pricePerHour); !ok) {
        return relay(ok);
    }
    if (type->regions.isEmpty()) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("no region has capacity for %1 now: choose another instance "
                                   "type, or try later")
                        .arg(offerId)
                        .toStdString());
    }
    Lease l;
    l.id = newLeaseId();
    l.provider = id();
    l.offerId = offerId;
    l.pricePerHour = type->pricePerHour;
    l.created = QDateTime::currentDateTimeUtc();
    l.owner = rentOwner();
    const QString node = id() + QLatin1Char('-') + l.id.right(4);
    if (m_registry->node(node)) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("the cluster already has a node called %1: try again")
                        .arg(node)
                        .toStdString());
    }
    l.nodes = {node};
    auto* r = new CloudRent(m_api, m_registry, &m_bundleHashes, l.id, node, *type,
                            orderRegions(type->regions, m_preferred), this);
    r->setTiming(m_timing);
    r->setPeerFirewall(m_firewall);
    l.detail = r->detail().toJson();
    l.reason = QStringLiteral("asking %1 for %2").arg(m_api->displayName(), offerId);
    // Stored before the launch request leaves: a crash from here on leaves a record to
    // reconcile with the cloud's instances at the next start.
    if (store()) {
        if (Result<void> saved = store()->save(l); !saved) {
            delete r;
            return relay(saved);
        }
    }
    update(l);
    Q_EMIT offersChanged();
    startRent(l.id, r);
    return l.id;
}

void CloudProvider::rentReady(const QString& leaseId, const QStringList& nodes,
                              const QString& detail) {
    setReady(leaseId, nodes, detail);
    for (const QString& node : nodes) {
        m_watch->watch(node);
    }
}

Result<void> CloudProvider::release(const QString& leaseId) {
    const Result<Lease> live = liveLease(leaseId, m_api->displayName());
    if (!live) {
        return relay(live);
    }
    if (LeaseRent* r = rentOf(leaseId)) {
        r->abort(QStringLiteral("released while renting"));
        return {};
    }
    for (const QString& node : live->nodes) {
        m_watch->unwatch(node);
        m_registry->removeNode(node);
    }
    CloudLeaseDetail d = CloudLeaseDetail::fromJson(live->detail);
    d.releasing = true; // stored: a restart before the cloud confirms finishes the release
    Lease marked = *live;
    marked.detail = d.toJson();
    update(marked);
    terminateLease(leaseId, d.instanceId, LeaseState::Released, QString());
    return {};
}

void CloudProvider::setReason(const QString& leaseId, const QString& reason) {
    Lease l = lease(leaseId);
    l.reason = reason;
    update(l);
}

void CloudProvider::terminateLease(const QString& leaseId, const QString& instanceId,
                                   LeaseState endAs, const QString& why) {
    if (instanceId.isEmpty()) {
        end(leaseId, endAs, why);
        return;
    }
    if (m_terminating.contains(instanceId)) {
        return;
    }
    m_terminating.insert(instanceId);
    setReason(leaseId, joinReasons(why, QStringLiteral("terminating instance %1").arg(instanceId)));
    m_api->terminate(this, instanceId, [=, this](CloudResult<void> r) {
        if (!r) {
            m_terminating.remove(instanceId);
            setReason(leaseId,
                      QStringLiteral("terminating instance %1 failed (%2): trying again in %3 s")
                          .arg(instanceId, r.error().message)
                          .arg(m_health.interval() / 1000));
            QTimer::singleShot(m_health.interval(), this, [=, this] {
                if (lease(leaseId).live()) {
                    terminateLease(leaseId, instanceId, endAs, why);
                }
            });
            return;
        }
        waitTerminated(instanceId, [=, this](const QString&) {
            m_terminating.remove(instanceId);
            end(leaseId, endAs,
                joinReasons(why, QStringLiteral("instance %1 terminated").arg(instanceId)));
            closePeers();
        });
    });
}

void CloudProvider::waitTerminated(const QString& instanceId, std::function<void(QString)> done,
                                   int delayMs) {
    QTimer::singleShot(delayMs, this, [=, this] {
        m_api->instance(this, instanceId, [=, this](CloudResult<CloudInstance> i) {
            if ((!i && i.error().kind == CloudErrorKind::NotFound) || (i && gone(*i))) {
                done(QString());
                return;
            }
            waitTerminated(instanceId, done,
                           std::clamp(delayMs * 2, m_timing.pollFirstMs, m_timing.pollMaxMs));
        });
    });
}

void CloudProvider::restore() {
    if (store()) {
        for (const Lease& l : store()->live()) {
            if (l.provider == id() && lease(l.id).id.isEmpty()) {
                update(l);
            }
        }
    }
    if (!m_api->hasApiKey()) {
        // Without a key nothing can be asked; ready leases rejoin, and setting a key restores
        // again (setCloudApiKey).
        for (const Lease& l : leases()) {
            if (l.live() && l.state == LeaseState::Ready && !m_registry->node(l.nodes.value(0))) {
                rejoin(l, CloudLeaseDetail::fromJson(l.detail));
            }
        }
        Q_EMIT reconciled(false, QStringLiteral("no %1 API key").arg(m_api->displayName()));
        return;
    }
    m_api->instances(this, [this](CloudResult<QList<CloudInstance>> list) {
        if (list) {
            reconcile(*list);
            return;
        }
        // Nothing is decided without the cloud's word; ready leases rejoin meanwhile (their
        // workers answer or not), and the reconciliation is tried again.
        for (const Lease& l : leases()) {
            if (l.live() && l.state == LeaseState::Ready && !m_registry->node(l.nodes.value(0))) {
                rejoin(l, CloudLeaseDetail::fromJson(l.detail));
            }
        }
        qCWarning(lcLease).noquote()
            << "cannot reconcile" << m_api->displayName() << "leases yet:" << list.error().message;
        Q_EMIT reconciled(false, list.error().message);
        QTimer::singleShot(m_health.interval(), this, &CloudProvider::restore);
    });
}

void CloudProvider::rejoin(const Lease& l, const CloudLeaseDetail& d) {
    const WorkerNode node = rejoinedNode(d.ssh, l.nodes.value(0), id(), m_registry);
    m_registry->addNode(node);
    m_watch->watch(node.name);
}

void CloudProvider::reconcile(const QList<CloudInstance>& instances) {
    QHash<QString, CloudInstance> byId;
    QHash<QString, QString> byLease; // lease id → instance id
    for (const CloudInstance& i : instances) {
        byId.insert(i.id, i);
        if (const QString t = instanceOwner(i).lease; !t.isEmpty()) {
            byLease.insert(t, i.id);
        }
    }
    QSet<QString> held;
    for (Lease l : leases()) {
        if (!l.live()) {
            continue;
        }
        CloudLeaseDetail d = CloudLeaseDetail::fromJson(l.detail);
        if (d.instanceId.isEmpty()) {
            d.instanceId = byLease.value(l.id);
        }
        if (rentOf(l.id) || rentingElsewhere(l, d)) {
            held.insert(d.instanceId); // a rent in progress here or in another tessera process
            continue;
        }
        const auto inst = byId.constFind(d.instanceId);
        const bool exists = inst != byId.cend() && !gone(*inst);
        if (l.state == LeaseState::Ready && exists && inst->status == CloudStatus::Active &&
            !d.releasing) {
            held.insert(d.instanceId);
            if (!m_registry->node(l.nodes.value(0))) {
                rejoin(l, d);
            }
        } else if (l.state == LeaseState::Ready && exists) {
            held.insert(d.instanceId);
            // Terminating: the app stopped while releasing it; anything else is not usable.
            const bool releasing = d.releasing || inst->status == CloudStatus::Terminating;
            terminateLease(l.id, d.instanceId,
                           releasing ? LeaseState::Released : LeaseState::Failed,
                           releasing ? QString()
                                     : QStringLiteral("instance %1 was %2 when Tessera started")
                                           .arg(d.instanceId, inst->statusText));
        } else if (l.state == LeaseState::Ready && d.releasing) {
            end(l.id, LeaseState::Released,
                QStringLiteral("instance %1 terminated").arg(d.instanceId));
        } else if (l.state == LeaseState::Ready) {
            end(l.id, LeaseState::Failed,
                QStringLiteral(
                    "instance %1 is gone (terminated outside Tessera, or reclaimed by %2)")
                    .arg(d.instanceId, m_api->displayName()));
        } else {
            const QString why = markCutShort(l);
            end(l.id, LeaseState::Failed,
                exists ? joinReasons(why, strayRunsNote(d.instanceId)) : why);
        }
    }
    m_strays.clear();
    const QString me = installationId();
    for (const CloudInstance& i : instances) {
        const InstanceOwner mark = instanceOwner(i);
        if (gone(i) || held.contains(i.id) || mark.lease.isEmpty()) {
            continue;
        }
        if (mark.owner == me) {
            m_strays.insert(i.id, i);
        } else {
            qCInfo(lcLease).noquote() << "instance" << i.id << "was launched by another Tessera "
                                      << "installation; leaving it alone";
        }
    }
    Q_EMIT straysChanged();
    closePeers(); // addresses of instances that ended while Tessera was not running
    Q_EMIT reconciled(true, QString());
    Q_EMIT offersChanged();
}

Result<void> CloudProvider::releaseStray(const QString& instanceId) {
    if (!m_strays.contains(instanceId)) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("instance %1 is not one Tessera lost track of")
                        .arg(instanceId)
                        .toStdString());
    }
    m_api->terminate(this, instanceId, [=, this](CloudResult<void> r) {
        if (!r) {
            qCWarning(lcLease).noquote() << r.error().message;
            return;
        }
        waitTerminated(instanceId, [=, this](const QString&) {
            noteStrayReleased(instanceOwner(m_strays.value(instanceId)).lease, instanceId);
            m_strays.remove(instanceId);
            Q_EMIT straysChanged();
            closePeers();
        });
    });
    return {};
}

void CloudProvider::noteStrayReleased(const QString& leaseId, const QString& instanceId) {
    Lease l = lease(leaseId);
    if (l.id.isEmpty() && store()) {
        l = store()->find(leaseId).value_or(Lease{});
    }
    if (l.id.isEmpty() || l.live() || !l.reason.contains(strayRunsNote(instanceId))) {
        return;
    }
    l.reason.replace(strayRunsNote(instanceId), strayReleasedNote(instanceId));
    update(l);
}

void CloudProvider::closePeers() {
    if (m_api->hasFirewallRulesets()) {
        m_firewall->sync(this);
    }
}

void CloudProvider::checkHealth() {
    bool any = false;
    for (const Lease& l : leases()) {
        any = any || (l.state == LeaseState::Ready && l.live());
    }
    if (m_firewall->stale() && m_api->hasApiKey()) {
        closePeers(); // the last update failed: try again
    }
    if (!any || !m_api->hasApiKey()) {
        return;
    }
    // One listing for every lease (the API allows one request a second, shared by everything
    // that uses the key): an instance it no longer lists is gone.
    m_api->instances(this, [this](CloudResult<QList<CloudInstance>> list) {
        if (!list) {
            qCInfo(lcLease).noquote() << "health check skipped:" << list.error().message;
            return;
        }
        QHash<QString, CloudInstance> byId;
        for (const CloudInstance& i : *list) {
            byId.insert(i.id, i);
        }
        for (const Lease& l : leases()) {
            const CloudLeaseDetail d = CloudLeaseDetail::fromJson(l.detail);
            if (l.state == LeaseState::Ready && l.live() && !d.instanceId.isEmpty() &&
                !m_terminating.contains(d.instanceId)) {
                checkLeaseHealth(l, d,
                                 byId.constFind(d.instanceId) != byId.cend()
                                     ? std::optional(byId.value(d.instanceId))
                                     : std::nullopt);
            }
        }
    });
}

void CloudProvider::checkLeaseHealth(const Lease& l, const CloudLeaseDetail& d,
                                     const std::optional<CloudInstance>& i) {
    const bool vanished = !i || gone(*i);
    const bool sick =
        i && (i->status == CloudStatus::Unhealthy || i->status == CloudStatus::Terminating);
    if (!vanished && !sick) {
        return;
    }
    for (const QString& node : l.nodes) {
        m_watch->unwatch(node);
        m_registry->removeNode(node);
    }
    if (vanished) {
        end(l.id, LeaseState::Failed,
            QStringLiteral("instance %1 is gone (terminated outside Tessera, or reclaimed by %2); "
                           "its node left the cluster")
                .arg(d.instanceId, m_api->displayName()));
    } else {
        terminateLease(l.id, d.instanceId, LeaseState::Failed,
                       QStringLiteral("instance %1 turned %2; its node left the cluster")
                           .arg(d.instanceId, i->statusText));
    }
}

void CloudProvider::onLost(const QString& node, qint64 unreachableMs, const QString& lastError) {
    for (const Lease& l : leases()) {
        if (l.state != LeaseState::Ready || !l.live() || !l.nodes.contains(node)) {
            continue;
        }
        m_registry->removeNode(node);
        terminateLease(
            l.id, CloudLeaseDetail::fromJson(l.detail).instanceId, LeaseState::Failed,
            QStringLiteral("%1 was unreachable for %2 s (last error: %3), so it left the cluster")
                .arg(node)
                .arg(double(unreachableMs) / 1000.0, 0, 'f', 1)
                .arg(lastError.isEmpty() ? QStringLiteral("none") : lastError));
    }
}

} // namespace tessera
