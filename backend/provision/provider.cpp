// Lease bookkeeping shared by every provider (see provider.h).
#include "provider.h"

#include "leasestore.h"

#include <QLoggingCategory>
#include <QRandomGenerator>

namespace tessera {

Q_LOGGING_CATEGORY(lcLease, "tessera.provision")

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

void Provider::update(Lease lease) {
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

QString Provider::newLeaseId() {
    return QStringLiteral("lease-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss")))
        .arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QLatin1Char('0'));
}

} // namespace tessera
