// Leases in SQLite (table `leases`, by default in the history database), so that a restarted
// app still knows every machine that bills and never rents one twice.
#pragma once

#include "backend/provision/lease.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

#include <optional>

namespace tessera {

/// SQLite store of leases. Use it from the thread that opened it (QtSql connections are per
/// thread). Every save() is committed at once: a crash right after it loses nothing.
class LeaseStore {
public:
    LeaseStore();
    ~LeaseStore();
    LeaseStore(const LeaseStore&) = delete;
    LeaseStore& operator=(const LeaseStore&) = delete;

    /// Opens (creating the table if needed) the database at `path`. Errors: Io, naming the file
    /// and what to do (writable folder, TESSERA_DATA_DIR, or the missing Qt SQLite driver).
    Result<void> open(const QString& path);
    bool isOpen() const;

    /// Inserts the lease or replaces the stored one with the same id. Errors: Io.
    Result<void> save(const Lease& lease);
    /// Every stored lease, oldest first.
    QList<Lease> all() const;
    /// Leases not Failed or Released, oldest first.
    QList<Lease> live() const;
    /// The lease `id`, if stored.
    std::optional<Lease> find(const QString& id) const;

private:
    QList<Lease> select(const QString& where, const QString& id = QString()) const;
    QString m_connection;
};

} // namespace tessera
