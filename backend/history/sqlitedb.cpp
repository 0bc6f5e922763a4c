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

} // namespace tessera
