// Lease bookkeeping shared by every provider (see provider.h).
#include "backend/provision/provider.h"

#include "backend/core/logging.h"
#include "backend/core/statetext.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/rentbudget.h"
#include "backend/tls/clusterca.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QRandomGenerator>

namespace tessera {

QString providerText(const QString& providerId) {
    // "ssh" and "slurm" name the tools; code and tests match them in the offer table.
    if (providerId == QLatin1String("local")) {
        return QCoreApplication::translate(kStateTextContext, "local", "provider of local workers");
    }
    return providerId;
}

QString deviceKindText(const QString& kind) {
    return kind == QLatin1String("cpu") ? QStringLiteral("CPU") : kind;
}

std::shared_ptr<const tls::Identity> restoredTlsIdentity(const QString& nodeName) {
    auto ca = ClusterCa::shared();
    if (!ca) {
        qCWarning(lcProvider).noquote()
            << "worker" << nodeName << "serves TLS but the cluster CA cannot be opened:"
            << QString::fromStdString(ca.error().message);
        return nullptr;
    }
    return (*ca)->backendIdentity();
}

Provider::Provider(LeaseStore* store, QObject* parent) : QObject(parent), m_store(store) {
    qRegisterMetaType<tessera::Lease>();
}

QList<Lease> Provider::leases() const {
    QList<Lease> out;
    for (const QString& id : m_order) {
        out.append(m_leases.value(id));
    }
    return out;
}

Lease Provider::lease(const QString& id) const {
    return m_leases.value(id);
}

Result<QString> Provider::rentAs(const QString& offerId, const QString& owner,
                                 const QString& user) {
    m_rentOwner = owner;
    m_rentUser = user;
    Result<QString> id = rent(offerId);
    m_rentOwner.clear();
    m_rentUser.clear();
    return id;
}

void Provider::update(Lease lease) {
    if (!m_leases.contains(lease.id) && lease.owner.isEmpty()) {
        lease.owner = m_rentOwner; // a lease rent() creates inside rentAs()
    }
    if (!m_leases.contains(lease.id) && lease.user.isEmpty()) {
        lease.user = m_rentUser;
    }
    if (m_store) {
        if (Result<void> saved = m_store->save(lease); !saved) {
            qCWarning(lcLease).noquote() << QString::fromStdString(saved.error().message);
        }
    }
    if (!m_leases.contains(lease.id)) {
        m_order.append(lease.id);
    }
    qCInfo(lcLease).noquote() << lease.id << leaseStateName(lease.state) << lease.reason;
    m_leases.insert(lease.id, lease);
    Q_EMIT leaseChanged(lease);
}

void Provider::setStep(const QString& id, LeaseState state, const QString& detail) {
    Lease l = lease(id);
    l.state = state;
    l.reason = detail;
    update(l);
}

void Provider::setReady(const QString& id, const QStringList& nodes, const QString& detail) {
    Lease l = lease(id);
    l.state = LeaseState::Ready;
    l.reason.clear();
    l.nodes = nodes;
    l.detail = detail;
    l.ready = QDateTime::currentDateTimeUtc();
    update(l);
}

void Provider::end(const QString& id, LeaseState state, const QString& reason) {
    Lease l = lease(id);
    l.state = state;
    l.reason = reason;
    l.ended = QDateTime::currentDateTimeUtc();
    update(l);
    Q_EMIT offersChanged();
}

Result<Lease> Provider::liveLease(const QString& id, const QString& what) const {
    const Lease l = lease(id);
    if (l.id.isEmpty() || !l.live()) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("no live %1 lease %2").arg(what, id).toStdString());
    }
    return l;
}

QString Provider::markCutShort(Lease l) {
    l.reason = tr("Tessera stopped while this lease was %1").arg(leaseStateText(l.state));
    update(l);
    return l.reason;
}

QString Provider::joinReasons(const QString& why, const QString& more) {
    if (why.isEmpty() || more.isEmpty()) {
        return why + more;
    }
    return why + QStringLiteral("; ") + more;
}

Result<void> Provider::checkBudget(const QString& what, double addPerHour) const {
    return m_budget ? m_budget->allows(what, addPerHour) : Result<void>{};
}

void Provider::startRent(const QString& id, LeaseRent* rent) {
    rent->setParent(this);
    m_renting.insert(id, rent);
    connect(rent, &LeaseRent::step, this,
            [this, id](LeaseState s, const QString& detail) { setStep(id, s, detail); });
    connect(rent, &LeaseRent::detailChanged, this, [this, id](const QString& detail) {
        Lease l = lease(id);
        l.detail = detail; // saved before the rent goes on, so a crash still knows what bills
        update(l);
    });
    connect(rent, &LeaseRent::ready, this,
            [this, id](const QStringList& nodes, const QString& detail) {
                finishRent(id);
                rentReady(id, nodes, detail);
            });
    connect(rent, &LeaseRent::failed, this, [this, id](const QString& reason) {
        finishRent(id);
        end(id, LeaseState::Failed, reason);
    });
    rent->start();
}

void Provider::rentReady(const QString& id, const QStringList& nodes, const QString& detail) {
    setReady(id, nodes, detail);
}

void Provider::finishRent(const QString& id) {
    if (LeaseRent* r = m_renting.take(id)) {
        r->deleteLater();
    }
}

QString Provider::newLeaseId() {
    return QStringLiteral("lease-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss")))
        .arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QLatin1Char('0'));
}

} // namespace tessera
