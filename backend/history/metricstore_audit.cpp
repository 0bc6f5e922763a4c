// MetricStore's audit table and job owners: who changed what through tessera-server (see
// metricstore.h).
#include "backend/history/metricstore.h"

#include "backend/core/logging.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace tessera {

bool MetricStore::setJobOwner(const QString& jobId, const QString& owner) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE jobs SET owner = ? WHERE id = ?"));
    q.addBindValue(owner);
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot record the owner of" << jobId << ":" << q.lastError().text();
        return false;
    }
    return true;
}

bool MetricStore::appendAudit(const AuditEntry& e) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO audit (time_ms, user, action, target, detail, outcome) "
                             "VALUES (?, ?, ?, ?, ?, ?)"));
    for (const QVariant& v : {QVariant(e.timeMs), QVariant(e.user), QVariant(e.action),
                              QVariant(e.target), QVariant(e.detail), QVariant(e.outcome)}) {
        q.addBindValue(v);
    }
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot append to the audit log:" << q.lastError().text();
        return false;
    }
    return true;
}

QList<AuditEntry> MetricStore::audit(int limit, qint64 sinceMs) const {
    QList<AuditEntry> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT time_ms, user, action, target, detail, outcome FROM audit "
                             "WHERE time_ms >= ? ORDER BY id DESC LIMIT ?"));
    q.addBindValue(sinceMs);
    q.addBindValue(std::max(limit, 0));
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot read the audit log:" << q.lastError().text();
        return out;
    }
    while (q.next()) {
        out.prepend({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                     q.value(3).toString(), q.value(4).toString(), q.value(5).toString()});
    }
    return out;
}

} // namespace tessera
