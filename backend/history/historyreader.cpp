// Paging through a job's stored events on another thread (see historyreader.h).
#include "backend/history/historyreader.h"

#include "backend/core/logging.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <algorithm>
#include <limits>

namespace tessera {

HistoryReader::HistoryReader()
    : m_connection(QStringLiteral("tessera-reader-") + QUuid::createUuid().toString()) {}

HistoryReader::~HistoryReader() {
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

Result<void> HistoryReader::open(const QString& path) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        return fail(ErrorCode::Io, "cannot read the history " + path.toStdString() + ": " +
                                       db.lastError().text().toStdString());
    }
    return {};
}

QList<StoredEvent> HistoryReader::events(const QString& jobId, quint64 afterSeq, quint64 upToSeq,
                                         int limit) const {
    QList<StoredEvent> out;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    // One ordered pass over both tables: the union is sorted by seq and cut at `limit`.
    q.prepare(QStringLiteral(
        "SELECT seq, 1, step, rank, time_ms, vals, NULL FROM points WHERE job_id = ? AND "
        "seq > ? AND seq <= ? UNION ALL SELECT seq, 0, NULL, rank, time_ms, stream, text "
        "FROM logs WHERE job_id = ? AND seq > ? AND seq <= ? ORDER BY 1 LIMIT ?"));
    const qint64 upTo =
        qint64(std::min<quint64>(upToSeq, quint64(std::numeric_limits<qint64>::max())));
    for (int table = 0; table < 2; ++table) {
        q.addBindValue(jobId);
        q.addBindValue(qint64(afterSeq));
        q.addBindValue(upTo);
    }
    q.addBindValue(std::max(limit, 1));
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot read the events of" << jobId << ":" << q.lastError().text();
        return out;
    }
    while (q.next()) {
        StoredEvent e;
        e.seq = q.value(0).toULongLong();
        e.isPoint = q.value(1).toInt() == 1;
        if (e.isPoint) {
            e.point.jobId = jobId;
            e.point.seq = e.seq;
            e.point.step = q.value(2).toLongLong();
            e.point.rank = q.value(3).toInt();
            e.point.timeMs = q.value(4).toLongLong();
            const QJsonObject values = QJsonDocument::fromJson(q.value(5).toByteArray()).object();
            for (auto it = values.begin(); it != values.end(); ++it) {
                // A null can only be a NaN or infinity the JSON could not hold (MetricStore).
                e.point.values.insert(it.key(), it.value().isNull()
                                                    ? std::numeric_limits<double>::quiet_NaN()
                                                    : it.value().toDouble());
            }
        } else {
            e.log.seq = e.seq;
            e.log.rank = q.value(3).isNull() ? -1 : q.value(3).toInt();
            e.log.timeMs = q.value(4).toLongLong();
            e.log.stream = q.value(5).toString();
            e.log.text = q.value(6).toString();
        }
        out.append(std::move(e));
    }
    return out;
}

} // namespace tessera
