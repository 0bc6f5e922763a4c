// SQLite history of jobs, metric points, log lines and nodes (see metricstore.h).
#include "backend/history/metricstore.h"

#include "backend/history/followerlock.h"

#include "backend/history/sqlitedb.h"

#include "backend/core/logging.h"
#include "backend/core/paths.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <limits>

namespace tessera {

namespace {

const char* const kSchema[] = {
    "CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, name TEXT, spec TEXT, state TEXT, "
    "reason TEXT, submitted_ms INTEGER, started_ms INTEGER, finished_ms INTEGER, "
    "last_step INTEGER DEFAULT 0, last_loss REAL, test_accuracy REAL)",
    "CREATE TABLE IF NOT EXISTS points (job_id TEXT NOT NULL, seq INTEGER NOT NULL, step INTEGER, "
    "rank INTEGER, time_ms INTEGER, vals TEXT, PRIMARY KEY (job_id, seq))",
    "CREATE TABLE IF NOT EXISTS logs (job_id TEXT NOT NULL, seq INTEGER NOT NULL, time_ms INTEGER, "
    "stream TEXT, text TEXT, rank INTEGER, PRIMARY KEY (job_id, seq))",
    "CREATE TABLE IF NOT EXISTS telemetry (job_id TEXT NOT NULL, node TEXT NOT NULL, "
    "time_ms INTEGER NOT NULL, seq INTEGER, sample BLOB, PRIMARY KEY (job_id, node, time_ms))",
    "CREATE TABLE IF NOT EXISTS nodes (pos INTEGER PRIMARY KEY, name TEXT, address TEXT, "
    "host TEXT, state TEXT, slots INTEGER, cores INTEGER, memory_bytes INTEGER, provider TEXT, "
    "last_error TEXT)",
    "CREATE TABLE IF NOT EXISTS attempts (job_id TEXT NOT NULL, attempt INTEGER NOT NULL, "
    "worker_job_id TEXT, failed_ms INTEGER, relaunched_ms INTEGER, cause TEXT, "
    "resume_step INTEGER, last_step INTEGER, seq_base INTEGER, spec TEXT, "
    "PRIMARY KEY (job_id, attempt))",
    "CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER, "
    "user TEXT, action TEXT, target TEXT, detail TEXT, outcome TEXT)",
};

double nullToNan(const QVariant& v) {
    return v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.toDouble();
}

JobRecord jobFromQuery(const QSqlQuery& q) {
    JobRecord r;
    r.id = q.value(0).toString();
    r.name = q.value(1).toString();
    r.specJson = q.value(2).toString();
    r.state = jobStateFromName(q.value(3).toString());
    r.reason = q.value(4).toString();
    r.submittedMs = q.value(5).toLongLong();
    r.startedMs = q.value(6).toLongLong();
    r.finishedMs = q.value(7).toLongLong();
    r.lastStep = q.value(8).toLongLong();
    r.lastLoss = nullToNan(q.value(9));
    r.testAccuracy = nullToNan(q.value(10));
    r.launcher = q.value(11).toString();
    r.unfollowedMs = q.value(12).toLongLong();
    r.owner = q.value(13).toString();
    return r;
}

constexpr const char* kJobColumns = "id, name, spec, state, reason, submitted_ms, started_ms, "
                                    "finished_ms, last_step, last_loss, test_accuracy, launcher, "
                                    "unfollowed_ms, owner";

} // namespace

MetricStore::MetricStore()
    : m_connection(QStringLiteral("tessera-store-") + QUuid::createUuid().toString()) {}

MetricStore::~MetricStore() {
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

QString MetricStore::defaultPath() {
    return QDir(dataDir()).filePath(QStringLiteral("tessera.sqlite"));
}

bool MetricStore::isOpen() const {
    return QSqlDatabase::contains(m_connection) &&
           QSqlDatabase::database(m_connection, false).isOpen();
}

Result<void> MetricStore::open(const QString& path) {
    QStringList schema;
    for (const char* sql : kSchema) {
        schema << QString::fromLatin1(sql);
    }
    Result<void> opened = openSqlite(m_connection, path, QStringLiteral("history"), schema);
    if (opened) {
        m_path = path;
        addMissingColumns();
        // Jobs whose follower died since this folder was last opened (followerlock.h).
        FollowerLock::sweep(QFileInfo(path).absolutePath(), *this);
    }
    return opened;
}

void MetricStore::addMissingColumns() {
    // Histories written before the rank of a log line was kept: add the column (NULL = none).
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    bool hasRank = false;
    if (q.exec(QStringLiteral("PRAGMA table_info(logs)"))) {
        while (q.next()) {
            hasRank |= q.value(1).toString() == QLatin1String("rank");
        }
    }
    if (!hasRank) {
        exec(QStringLiteral("ALTER TABLE logs ADD COLUMN rank INTEGER"));
    }
    // Histories written before jobs were followed again after a restart: launcher NULL.
    if (Result<void> added = addColumnIfMissing(m_connection, QStringLiteral("jobs"),
                                                QStringLiteral("launcher"), QStringLiteral("TEXT"));
        !added) {
        qCWarning(lcStore).noquote() << QString::fromStdString(added.error().message);
    }
    // Histories written before a dead follower was noticed: unfollowed_ms NULL (followed);
    // before tessera-server's users: owner NULL (the server's own user).
    for (const auto& [column, type] : {std::pair{"unfollowed_ms", "INTEGER"}, {"owner", "TEXT"}}) {
        if (Result<void> added = addColumnIfMissing(m_connection, QStringLiteral("jobs"),
                                                    QLatin1String(column), QLatin1String(type));
            !added) {
            qCWarning(lcStore).noquote() << QString::fromStdString(added.error().message);
        }
    }
}

bool MetricStore::exec(const QString& sql) const {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(sql)) {
        qCWarning(lcStore) << "SQL failed:" << q.lastError().text();
        return false;
    }
    return true;
}

bool MetricStore::recordJob(const JobRecord& job) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "INSERT INTO jobs (id, name, spec, state, reason, submitted_ms, started_ms, finished_ms, "
        "launcher) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
        "name=excluded.name, spec=excluded.spec, state=excluded.state, reason=excluded.reason, "
        "submitted_ms=excluded.submitted_ms, started_ms=excluded.started_ms, "
        "finished_ms=excluded.finished_ms, launcher=excluded.launcher"));
    q.addBindValue(job.id);
    q.addBindValue(job.name);
    q.addBindValue(job.specJson);
    q.addBindValue(jobStateName(job.state));
    q.addBindValue(job.reason);
    q.addBindValue(job.submittedMs);
    q.addBindValue(job.startedMs);
    q.addBindValue(job.finishedMs);
    q.addBindValue(job.launcher.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : job.launcher);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot record job" << job.id << ":" << q.lastError().text();
        return false;
    }
    return true;
}

bool MetricStore::updateJobState(const QString& jobId, JobState state, const QString& reason,
                                 qint64 timeMs) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    // A state from the workers means someone follows the job again.
    QString sql = QStringLiteral("UPDATE jobs SET state = ?, reason = ?, unfollowed_ms = NULL");
    if (state == JobState::Running) {
        sql += QStringLiteral(", started_ms = ?");
    } else if (isTerminal(state)) {
        sql += QStringLiteral(", finished_ms = ?");
    }
    q.prepare(sql + QStringLiteral(" WHERE id = ?"));
    q.addBindValue(jobStateName(state));
    q.addBindValue(reason);
    if (state == JobState::Running || isTerminal(state)) {
        q.addBindValue(timeMs);
    }
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot update job" << jobId << ":" << q.lastError().text();
        return false;
    }
    return q.numRowsAffected() > 0;
}

bool MetricStore::markUnfollowed(const QString& jobId, const QString& reason, qint64 timeMs) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE jobs SET reason = ?, unfollowed_ms = ? WHERE id = ?"));
    q.addBindValue(reason);
    q.addBindValue(timeMs);
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot mark job" << jobId << "unfollowed:" << q.lastError().text();
        return false;
    }
    return q.numRowsAffected() > 0;
}

bool MetricStore::markFollowed(const QString& jobId, const QString& reason) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE jobs SET reason = ?, unfollowed_ms = NULL WHERE id = ?"));
    q.addBindValue(reason);
    q.addBindValue(jobId);
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot mark job" << jobId << "followed:" << q.lastError().text();
        return false;
    }
    return q.numRowsAffected() > 0;
}

bool MetricStore::addPoint(const MetricPoint& point) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QJsonObject values;
    for (auto it = point.values.cbegin(); it != point.values.cend(); ++it) {
        values.insert(it.key(), it.value());
    }
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("INSERT OR IGNORE INTO points (job_id, seq, step, rank, time_ms, vals) "
                       "VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(point.jobId);
    q.addBindValue(static_cast<qint64>(point.seq));
    q.addBindValue(point.step);
    q.addBindValue(point.rank);
    q.addBindValue(point.timeMs);
    q.addBindValue(QString::fromUtf8(QJsonDocument(values).toJson(QJsonDocument::Compact)));
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot store a point of" << point.jobId << ":"
                           << q.lastError().text();
        return false;
    }
    if (q.numRowsAffected() == 0) {
        return false; // (job_id, seq) already stored: a replay
    }
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE jobs SET last_step = MAX(COALESCE(last_step, 0), ?), "
                             "last_loss = COALESCE(?, last_loss), "
                             "test_accuracy = COALESCE(?, test_accuracy) WHERE id = ?"));
    u.addBindValue(point.step);
    u.addBindValue(point.values.contains(QStringLiteral("loss"))
                       ? QVariant(point.values.value(QStringLiteral("loss")))
                       : QVariant());
    u.addBindValue(point.values.contains(QStringLiteral("test_accuracy"))
                       ? QVariant(point.values.value(QStringLiteral("test_accuracy")))
                       : QVariant());
    u.addBindValue(point.jobId);
    u.exec();
    return true;
}

bool MetricStore::addLog(const QString& jobId, const LogRecord& line) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO logs (job_id, seq, time_ms, stream, text, "
                             "rank) VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(jobId);
    q.addBindValue(static_cast<qint64>(line.seq));
    q.addBindValue(line.timeMs);
    q.addBindValue(line.stream);
    q.addBindValue(line.text);
    q.addBindValue(line.rank >= 0 ? QVariant(line.rank) : QVariant(QMetaType(QMetaType::Int)));
    if (!q.exec()) {
        qCWarning(lcStore) << "cannot store a log line of" << jobId << ":" << q.lastError().text();
        return false;
    }
    return q.numRowsAffected() > 0;
}

int MetricStore::addPoints(const QList<MetricPoint>& points) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const bool txn = db.transaction();
    int added = 0;
    for (const MetricPoint& p : points) {
        added += addPoint(p) ? 1 : 0;
    }
    if (txn && !db.commit()) {
        qCWarning(lcStore) << "cannot commit" << points.size()
                           << "points:" << db.lastError().text();
    }
    return added;
}

int MetricStore::addLogs(const QList<QPair<QString, LogRecord>>& lines) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const bool txn = db.transaction();
    int added = 0;
    for (const auto& [jobId, line] : lines) {
        added += addLog(jobId, line) ? 1 : 0;
    }
    if (txn && !db.commit()) {
        qCWarning(lcStore) << "cannot commit" << lines.size()
                           << "log lines:" << db.lastError().text();
    }
    return added;
}

QList<MetricPoint> MetricStore::points(const QString& jobId) const {
    QList<MetricPoint> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT seq, step, rank, time_ms, vals FROM points WHERE job_id = ? "
                             "ORDER BY seq"));
    q.addBindValue(jobId);
    if (!q.exec()) {
        return out;
    }
    while (q.next()) {
        MetricPoint p;
        p.jobId = jobId;
        p.seq = q.value(0).toULongLong();
        p.step = q.value(1).toLongLong();
        p.rank = q.value(2).toInt();
        p.timeMs = q.value(3).toLongLong();
        const QJsonObject values = QJsonDocument::fromJson(q.value(4).toByteArray()).object();
        for (auto it = values.begin(); it != values.end(); ++it) {
            // JSON has no NaN or infinity: QJsonDocument writes them as null. A null can only
            // come from such a value, so it reads back as NaN rather than as 0 (a NaN loss
            // must not turn into a perfect one).
            p.values.insert(it.key(), it.value().isNull() ? std::numeric_limits<double>::quiet_NaN()
                                                          : it.value().toDouble());
        }
        out.append(p);
    }
    return out;
}

QList<LogRecord> MetricStore::logLines(const QString& jobId) const {
    return logLinesAfter(jobId, 0, -2, -1);
}

QList<LogRecord> MetricStore::logLinesAfter(const QString& jobId, quint64 afterSeq, int rank,
                                            int limit) const {
    QList<LogRecord> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    const QString which = rank >= 0    ? QStringLiteral(" AND rank = ?")
                          : rank == -1 ? QStringLiteral(" AND rank IS NULL")
                                       : QString();
    q.prepare(QStringLiteral("SELECT seq, time_ms, stream, text, rank FROM logs WHERE job_id = ? "
                             "AND seq > ?%1 ORDER BY seq LIMIT ?")
                  .arg(which));
    q.addBindValue(jobId);
    q.addBindValue(static_cast<qint64>(afterSeq));
    if (rank >= 0) {
        q.addBindValue(rank);
    }
    q.addBindValue(limit);
    if (!q.exec()) {
        return out;
    }
    while (q.next()) {
        out.append(LogRecord{q.value(0).toULongLong(), q.value(1).toLongLong(),
                             q.value(2).toString(), q.value(3).toString(),
                             q.value(4).isNull() ? -1 : q.value(4).toInt()});
    }
    return out;
}

QList<JobRecord> MetricStore::jobs() const {
    QList<JobRecord> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT %1 FROM jobs ORDER BY submitted_ms DESC, id DESC")
                    .arg(QLatin1String(kJobColumns)))) {
        return out;
    }
    while (q.next()) {
        out.append(jobFromQuery(q));
    }
    return out;
}

quint64 MetricStore::lastStoredSeq(const QString& jobId) const {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(
        QStringLiteral("SELECT MAX(s) FROM (SELECT MAX(seq) AS s FROM points WHERE job_id = ? "
                       "UNION ALL SELECT MAX(seq) FROM logs WHERE job_id = ?)"));
    q.addBindValue(jobId);
    q.addBindValue(jobId);
    if (q.exec() && q.next() && !q.value(0).isNull()) {
        return q.value(0).toULongLong();
    }
    return 0;
}

JobRecord MetricStore::job(const QString& jobId) const {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT %1 FROM jobs WHERE id = ?").arg(QLatin1String(kJobColumns)));
    q.addBindValue(jobId);
    if (q.exec() && q.next()) {
        return jobFromQuery(q);
    }
    return JobRecord{};
}

bool MetricStore::recordNodes(const QList<WorkerNode>& nodes) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    db.transaction();
    exec(QStringLiteral("DELETE FROM nodes"));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO nodes (pos, name, address, host, state, slots, cores, "
                             "memory_bytes, provider, last_error) VALUES (?,?,?,?,?,?,?,?,?,?)"));
    int pos = 0;
    for (const WorkerNode& n : nodes) {
        q.addBindValue(pos++);
        q.addBindValue(n.name);
        q.addBindValue(n.address);
        q.addBindValue(n.host);
        q.addBindValue(nodeStateName(n.state));
        q.addBindValue(n.slots);
        q.addBindValue(n.cores);
        q.addBindValue(static_cast<qint64>(n.memoryBytes));
        q.addBindValue(n.provider);
        q.addBindValue(n.lastError);
        if (!q.exec()) {
            db.rollback();
            return false;
        }
    }
    return db.commit();
}

QList<WorkerNode> MetricStore::nodes() const {
    QList<WorkerNode> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT name, address, host, state, slots, cores, memory_bytes, "
                               "provider, last_error FROM nodes ORDER BY pos"))) {
        return out;
    }
    while (q.next()) {
        WorkerNode n;
        n.name = q.value(0).toString();
        n.address = q.value(1).toString();
        n.host = q.value(2).toString();
        const QString state = q.value(3).toString();
        n.state = state == QLatin1String("ready")         ? NodeState::Ready
                  : state == QLatin1String("unreachable") ? NodeState::Unreachable
                  : state == QLatin1String("stopped")     ? NodeState::Stopped
                                                          : NodeState::Connecting;
        n.slots = q.value(4).toInt();
        n.cores = q.value(5).toInt();
        n.memoryBytes = q.value(6).toULongLong();
        n.provider = q.value(7).toString();
        n.lastError = q.value(8).toString();
        out.append(n);
    }
    return out;
}

} // namespace tessera
