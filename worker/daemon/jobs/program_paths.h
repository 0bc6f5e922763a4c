// Where programs are: this binary's folder (siblings tessera-train, tessera-rsh) and PATH lookup.
#pragma once

#include <string>

namespace tessera::daemon {

/// Folder of the running executable (/proc/self/exe); env TESSERA_BIN_DIR overrides it.
std::string binDir();

/// Absolute path of `name` found in PATH (or `name` itself when it contains a '/' and is
/// executable); empty when not found.
std::string findProgram(const std::string& name);

/// The Open MPI that the self-contained worker bundle (packaging/make-worker-bundle.sh) carries
/// beside this binary: when `binDir`/openmpi/bin/orterun is executable, sets OPAL_PREFIX,
/// OPAL_SYSCONFDIR, PMIX_PREFIX, PMIX_LIBDIR and PMIX_DATADIR in this process's environment (which
/// every program the worker starts inherits: mpirun, orted, the ranks) and returns the path of that
/// mpirun. Returns "" and changes nothing otherwise (a build tree, a Debian install: the system's
/// Open MPI is used). Not thread-safe (setenv): call before any thread starts.
std::string useBundledOpenMpi(const std::string& binDir);

/// Puts `binDir` first in this process's PATH (every program the worker starts inherits it).
/// mpirun and each node's orted look the rank programs up by name in PATH (Open MPI resolves
/// an application on the node that starts it): an absolute path of mpirun's node would not exist
/// on a node whose worker lies in another folder (another home or bundle folder). Call before
/// any thread starts (setenv).
void putFirstInPath(const std::string& binDir);

/// `binDir`/openmpi/bin/orted when the worker bundle carries Open MPI, else "".
std::string bundledOrted(const std::string& binDir);

/// The last path component of `path` ("/usr/bin/orted" → "orted").
std::string baseName(const std::string& path);

} // namespace tessera::daemon
