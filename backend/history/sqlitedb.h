// Opening Tessera's SQLite history database (QtSql) on a named connection, with its tables.
#pragma once

#include "worker/common/error.h"

#include <QString>
#include <QStringList>

namespace tessera {

/// Opens (or reopens) connection `connection` on the SQLite file `path`: creates the folder,
/// sets WAL journaling and a 5 s busy timeout, then runs every `schema` statement
/// (CREATE TABLE IF NOT EXISTS ...). Errors: Io with "cannot open the <what> database <path>:
/// <why>; check that the folder is writable or set TESSERA_DATA_DIR" (also for a missing Qt
/// SQLite driver, naming its Debian package).
Result<void> openSqlite(const QString& connection, const QString& path, const QString& what,
                        const QStringList& schema);

/// Adds `column` of SQL `type` to `table` on the open connection `connection` when the table
/// lacks it (a database written by an older Tessera); existing rows get NULL. Errors: Io naming
/// the table, the column and SQLite's reason.
Result<void> addColumnIfMissing(const QString& connection, const QString& table,
                                const QString& column, const QString& type);

} // namespace tessera
