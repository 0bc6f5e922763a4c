// SSH provider: offers from the configured hosts, leases driven by SshRent (see sshprovider.h).
#include "sshprovider.h"

#include "clusterregistry.h"
#include "leasestore.h"
#include "sshrent.h"

namespace tessera {

SshProvider::SshProvider(ClusterRegistry* registry, LeaseStore* store, QObject* parent)
    : Provider(store, parent), m_registry(registry) {}

SshProvider::~SshProvider() = default;

void SshProvider::setHosts(const QList<SshHost>& hosts) {
    m_hosts = hosts;
    Q_EMIT offersChanged();
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
        Offer o;
        o.provider = id();
        o.id = h.offerId();
        o.name = h.nodeName();
        o.deviceKind = QStringLiteral("cpu");
        o.slotsPerNode = h.slots > 0 ? h.slots : 1;
        o.pricePerHour = h.pricePerHour;
        o.where = h.host;
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
    l.nodes = {host->nodeName()};
    SshWorkerDetail d;
    d.host = *host;
    l.detail = d.toJson();
    if (store()) {
        if (Result<void> saved = store()->save(l); !saved) {
            return std::unexpected(saved.error()); // nothing started: nothing to forget
        }
    }
    update(l);
    auto* r = new SshRent(*host, l.id, m_registry, this);
    r->setRegisterTimeout(m_registerTimeoutMs);
    const QString leaseId = l.id;
    connect(r, &SshRent::step, this,
            [this, leaseId](LeaseState s, const QString& detail) { setStep(leaseId, s, detail); });
    connect(r, &SshRent::ready, this, [this, leaseId](const QString& node, const QString& detail) {
        onReady(leaseId, node, detail);
    });
    connect(r, &SshRent::failed, this,
            [this, leaseId](const QString& reason) { onFailed(leaseId, reason); });
    trackRent(l.id, r);
    Q_EMIT offersChanged();
    r->start();
    return l.id;
}

void SshProvider::onReady(const QString& leaseId, const QString& node, const QString& detail) {
    finishRent(leaseId);
    setReady(leaseId, {node}, detail);
}

void SshProvider::onFailed(const QString& leaseId, const QString& reason) {
    finishRent(leaseId);
    end(leaseId, LeaseState::Failed, reason);
}

Result<void> SshProvider::release(const QString& leaseId) {
    const Result<Lease> live = liveLease(leaseId, QStringLiteral("SSH"));
    if (!live) {
        return std::unexpected(live.error());
    }
    if (auto* r = qobject_cast<SshRent*>(rentOf(leaseId))) {
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
            WorkerNode node;
            node.name = l.nodes.value(0, d.host.nodeName());
            node.address = d.address;
            node.token = d.token;
            node.provider = id();
            m_registry->addNode(node); // probes it: Unreachable if the machine went away
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
