// MetricStore's telemetry table: node samples recorded while a job ran (see metricstore.h).
#include "backend/history/metricstore.h"

#include "backend/core/logging.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace tessera {

int MetricStore::addTelemetry(const QList<TelemetryRecord>& records) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const bool txn = db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO telemetry (job_id, node, time_ms, seq, sample) "
                             "VALUES (?, ?, ?, ?, ?)"));
    int added = 0;
    for (const TelemetryRecord& r : records) {
        q.addBindValue(r.jobId);
        q.addBindValue(r.node);
        q.addBindValue(r.timeMs);
        q.addBindValue(static_cast<qint64>(r.seq));
        q.addBindValue(r.sample);
        if (!q.exec()) {
            qCWarning(lcStore) << "cannot store a telemetry sample of" << r.node << "for" << r.jobId
                               << ":" << q.lastError().text();
            continue;
        }
        added += q.numRowsAffected() > 0 ? 1 : 0;
    }
    if (txn && !db.commit()) {
        qCWarning(lcStore) << "cannot commit" << records.size()
                           << "telemetry samples:" << db.lastError().text();
    }
    return added;
}

QList<TelemetryRecord> MetricStore::telemetry(const QString& jobId) const {
    QList<TelemetryRecord> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT node, seq, time_ms, sample FROM telemetry WHERE job_id = ? "
                             "ORDER BY time_ms, node"));
    q.addBindValue(jobId);
    if (!q.exec()) {
        return out;
    }
    while (q.next()) {
        out.append(TelemetryRecord{jobId, q.value(0).toString(), q.value(1).toULongLong(),
                                   q.value(2).toLongLong(), q.value(3).toByteArray()});
    }
    return out;
}

} // namespace tessera
