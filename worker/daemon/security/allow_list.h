// The programs Exec may run: names (e.g. "orted") and absolute paths mapped to absolute paths.
// Anything else is refused; argv[0] must match an entry exactly (no path tricks like "../bin/sh").
#pragma once

#include "worker/common/error.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::daemon {

/// Allow-list of Exec: each entry is reachable by its name and by its absolute path.
class AllowList {
public:
    /// The defaults: Open MPI's `orted` (TESSERA_ORTED at build time, else PATH) and
    /// `tessera-train` in `binDir`, and `tessera-train-cuda` there when it exists.
    static AllowList defaults(const std::string& binDir);

    /// Adds `program`: an absolute path, or a name looked up in PATH.
    /// Errors: NotFound when it is not an executable file.
    Result<void> add(const std::string& program);

    /// Absolute path for `argv0`. Errors: PermissionDenied naming `argv0` and the allow-list.
    Result<std::string> resolve(const std::string& argv0) const;

    /// Every accepted spelling, sorted (for WorkerInfo.exec_allow and error messages).
    std::vector<std::string> names() const;

private:
    void insert(const std::string& path);
    std::map<std::string, std::string> m_entries; // accepted argv[0] → absolute path
};

} // namespace tessera::daemon
