// One backend per data folder: the app window and `tessera-ctl serve` claim the folder before they
// follow its jobs, rent into its leases or write its history, so that no job is ever followed (and
// relaunched) by two backends at once.
#pragma once

#include "worker/common/error.h"

#include <QString>

#include <optional>

namespace tessera {

/// Who holds a data folder now.
struct FolderOwner {
    qint64 pid = 0;
    QString role;     ///< DataFolderLock::kApp, kServe or kServer
    QString endpoint; ///< its control socket as a gRPC target ("unix:/…/backend.sock")
    /// "the Tessera window (pid 123)" / "tessera-ctl serve (pid 123)"; a server reached over
    /// TCP (pid 0, endpoint HOST:PORT): "the tessera-server at HOST:PORT".
    QString describe() const;
};

/// An advisory lock (flock(2)) on `<data folder>/backend.lock`, whose content names the owner
/// (pid, role, control socket). The kernel drops the lock when its process ends however it ends,
/// so a crashed owner never leaves the folder locked; the descriptor is close-on-exec, so workers
/// and other children never inherit it. Not thread-safe; one object per claim.
class DataFolderLock {
public:
    static constexpr const char* kApp = "app";       ///< the Tessera window
    static constexpr const char* kServe = "serve";   ///< `tessera-ctl serve`
    static constexpr const char* kServer = "server"; ///< tessera-server (issue 48)

    /// `dataFolder` is created if missing when claimed.
    explicit DataFolderLock(const QString& dataFolder);
    ~DataFolderLock(); ///< releases the claim and the serve mark
    DataFolderLock(const DataFolderLock&) = delete;
    DataFolderLock& operator=(const DataFolderLock&) = delete;

    /// Claims the folder for `role` at once (no waiting). Errors: AlreadyExists naming the owner
    /// ("… is owned by tessera-ctl serve (pid 123)"); Io when the lock file cannot be opened or
    /// written (naming it and the system's reason).
    Result<void> tryClaim(const QString& role);
    /// Whether this object holds the claim.
    bool isClaimed() const { return m_fd >= 0; }
    /// Records that the owner has no control socket (it could not listen): clients then say so
    /// instead of dialling it. Nothing if not claimed.
    void clearEndpoint();
    /// Gives the claim up (nothing if not claimed); a serve mark stays.
    void release();

    /// The process holding the folder, or nullopt when nobody does (also when it is this object).
    std::optional<FolderOwner> otherOwner() const;

    /// Marks a `tessera-ctl serve` as present for the folder, serving it or waiting for it (a
    /// second flock, on `<data folder>/backend.serve`, held until destruction): one serve per
    /// folder, and the app can tell that its jobs will be followed once it closes. Errors:
    /// AlreadyExists naming the serve there; Io as tryClaim.
    Result<void> holdServeMark();
    /// The pid of the `tessera-ctl serve` present for the folder (holding its mark), if any.
    std::optional<qint64> servePresent() const;

    /// `<data folder>/backend.lock`.
    QString lockPath() const;
    /// The control socket's file: `<data folder>/backend.sock`.
    QString socketPath() const;

private:
    /// Writes the owner's description (pid, `role`, `endpoint`) into the claimed lock file.
    bool writeOwner(const QString& role, const QString& endpoint);

    QString m_folder;
    QString m_role;
    int m_fd = -1;
    int m_serveFd = -1;
};

} // namespace tessera
