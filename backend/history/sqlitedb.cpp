// SQLite connection set-up shared by the metric and lease stores (see sqlitedb.h).
#include "backend/history/sqlitedb.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace tessera {

Result<void> openSqlite(const QString& connection, const QString& path, const QString& what,
                        const QStringList& schema) {
    auto failWith = [&](const QString& why) {
        return fail(ErrorCode::Io, QStringLiteral("cannot open the %1 database %2: %3; check that "
                                                  "the folder is writable or set TESSERA_DATA_DIR")
                                       .arg(what, path, why)
                                       .toStdString());
    };
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        return failWith(QStringLiteral("the Qt SQLite driver is missing (install the Debian "
                                       "package libqt6sql6-sqlite)"));
    }
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir)) {
        return failWith(QStringLiteral("cannot create the folder %1").arg(dir));
    }
    QSqlDatabase db = QSqlDatabase::contains(connection)
                          ? QSqlDatabase::database(connection, false)
                          : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
    db.close();
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        return failWith(db.lastError().text());
    }
    QSqlQuery q(db);
    q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    for (const QString& sql : schema) {
        if (!q.exec(sql)) {
            const QString why = q.lastError().text();
            db.close();
            return failWith(why);
        }
    }
    return {};
}

Result<void> addColumnIfMissing(const QString& connection, const QString& table,
                                const QString& column, const QString& type) {
    QSqlDatabase db = QSqlDatabase::database(connection, false);
    QSqlQuery q(db);
    // Names come from Tessera's own code, never from input: PRAGMA takes no bound parameters.
    if (!q.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table))) {
        return fail(ErrorCode::Io, QStringLiteral("cannot read the columns of table %1: %2")
                                       .arg(table, q.lastError().text())
                                       .toStdString());
    }
    while (q.next()) {
        if (q.value(1).toString() == column) {
            return {};
        }
    }
    if (!q.exec(QStringLiteral("ALTER TABLE %1 ADD COLUMN %2 %3").arg(table, column, type))) {
        return fail(ErrorCode::Io, QStringLiteral("cannot add column %1 to table %2 of %3: %4; "
                                                  "check that the file is writable")
                                       .arg(column, table, db.databaseName(), q.lastError().text())
                                       .toStdString());
    }
    return {};
}

} // namespace tessera
