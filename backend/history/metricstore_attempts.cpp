// MetricStore's attempts table: the relaunches of managed jobs (see metricstore.h).
#include "backend/history/metricstore.h"

#include "backend/core/logging.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace tessera {

bool MetricStore::recordAttempt(const AttemptRecord& a) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO attempts (job_id, attempt, worker_job_id, failed_ms, "
        "relaunched_ms, cause, resume_step, last_step, seq_base, spec) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant& v :
         {QVariant(a.jobId), QVariant(a.attempt), QVariant(a.workerJobId), QVariant(a.failedMs),
          QVariant(a.relaunchedMs), QVariant(a.cause), QVariant(a.resumeStep), QVariant(a.lastStep),
          QVariant(static_cast<qint64>(a.seqBase)), QVariant(a.specJson)}) {
        q.addBindValue(v);
    }
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot store attempt" << a.attempt << "of" << a.jobId << ":"
                           << q.lastError().text();
        return false;
    }
    return true;
}

QList<AttemptRecord> MetricStore::attempts(const QString& jobId) const {
    QList<AttemptRecord> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "SELECT attempt, worker_job_id, failed_ms, relaunched_ms, cause, resume_step, last_step, "
        "seq_base, spec FROM attempts WHERE job_id = ? ORDER BY attempt"));
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot read the attempts of" << jobId << ":" << q.lastError().text();
        return out;
    }
    while (q.next()) {
        AttemptRecord a;
        a.jobId = jobId;
        a.attempt = q.value(0).toInt();
        a.workerJobId = q.value(1).toString();
        a.failedMs = q.value(2).toLongLong();
        a.relaunchedMs = q.value(3).toLongLong();
        a.cause = q.value(4).toString();
        a.resumeStep = q.value(5).toLongLong();
        a.lastStep = q.value(6).toLongLong();
        a.seqBase = static_cast<quint64>(q.value(7).toLongLong());
        a.specJson = q.value(8).toString();
        out.append(a);
    }
    return out;
}

} // namespace tessera
