// SQLite lease store (see leasestore.h).
#include "backend/provision/leasestore.h"

#include "backend/history/sqlitedb.h"

#include <QAtomicInt>
#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace tessera {

namespace {

QAtomicInt g_connections;

const char* const kSchema =
    "CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, provider TEXT NOT NULL, "
    "offer_id TEXT, state TEXT NOT NULL, reason TEXT, nodes TEXT, price_per_hour REAL, "
    "created_ms INTEGER, ready_ms INTEGER, ended_ms INTEGER, detail TEXT, owner TEXT, "
    "user TEXT)";

QVariant msOrNull(const QDateTime& t) {
    return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(QMetaType(QMetaType::LongLong));
}

QDateTime fromMs(const QVariant& v) {
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

Result<void> ioError(const QString& what) {
    return fail(ErrorCode::Io, what.toStdString());
}

} // namespace

LeaseStore::LeaseStore()
    : m_connection(QStringLiteral("tessera-leases-%1").arg(g_connections.fetchAndAddRelaxed(1))) {}

LeaseStore::~LeaseStore() {
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool LeaseStore::isOpen() const {
    return QSqlDatabase::contains(m_connection) &&
           QSqlDatabase::database(m_connection, false).isOpen();
}

Result<void> LeaseStore::open(const QString& path) {
    if (Result<void> opened =
            openSqlite(m_connection, path, QStringLiteral("lease"), {QString::fromLatin1(kSchema)});
        !opened) {
        return opened;
    }
    // Databases of Tessera before owners were stored (2026-12) get the column; their leases
    // have no owner: rented by hand as far as anyone can tell, so never released unasked. Before
    // tessera-server's users: no user (rented in-process).
    for (const char* column : {"owner", "user"}) {
        if (Result<void> added = addColumnIfMissing(m_connection, QStringLiteral("leases"),
                                                    QLatin1String(column), QStringLiteral("TEXT"));
            !added) {
            return added;
        }
    }
    return {};
}

Result<void> LeaseStore::save(const Lease& l) {
    if (!isOpen()) {
        return ioError(
            QStringLiteral("lease %1 not saved: the lease database is not open").arg(l.id));
    }
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO leases (id, provider, offer_id, state, reason, nodes, "
        "price_per_hour, created_ms, ready_ms, ended_ms, detail, owner, user) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(l.id);
    q.addBindValue(l.provider);
    q.addBindValue(l.offerId);
    q.addBindValue(leaseStateName(l.state));
    q.addBindValue(l.reason);
    q.addBindValue(l.nodes.join(QLatin1Char(',')));
    q.addBindValue(l.pricePerHour);
    q.addBindValue(msOrNull(l.created));
    q.addBindValue(msOrNull(l.ready));
    q.addBindValue(msOrNull(l.ended));
    q.addBindValue(l.detail);
    q.addBindValue(l.owner);
    q.addBindValue(l.user);
    if (!q.exec()) {
        return ioError(QStringLiteral("lease %1 not saved: %2").arg(l.id, q.lastError().text()));
    }
    return {};
}

QList<Lease> LeaseStore::select(const QString& where, const QString& id) const {
    QList<Lease> out;
    if (!isOpen()) {
        return out;
    }
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT id, provider, offer_id, state, reason, nodes, price_per_hour, "
                             "created_ms, ready_ms, ended_ms, detail, owner, user FROM leases ") +
              where + QStringLiteral(" ORDER BY created_ms, id"));
    if (!id.isNull()) {
        q.addBindValue(id);
    }
    if (!q.exec()) {
        return out;
    }
    while (q.next()) {
        Lease l;
        l.id = q.value(0).toString();
        l.provider = q.value(1).toString();
        l.offerId = q.value(2).toString();
        l.state = leaseStateFromName(q.value(3).toString());
        l.reason = q.value(4).toString();
        l.nodes = q.value(5).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        l.pricePerHour = q.value(6).toDouble();
        l.created = fromMs(q.value(7));
        l.ready = fromMs(q.value(8));
        l.ended = fromMs(q.value(9));
        l.detail = q.value(10).toString();
        l.owner = q.value(11).toString();
        l.user = q.value(12).toString();
        out.append(l);
    }
    return out;
}

QList<Lease> LeaseStore::all() const {
    return select(QString());
}

QList<Lease> LeaseStore::live() const {
    return select(QStringLiteral("WHERE state NOT IN ('failed', 'released')"));
}

std::optional<Lease> LeaseStore::find(const QString& id) const {
    const QList<Lease> found = select(QStringLiteral("WHERE id = ?"), id);
    if (found.isEmpty()) {
        return std::nullopt;
    }
    return found.first();
}

} // namespace tessera
