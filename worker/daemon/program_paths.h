// Where programs are: this binary's folder (siblings tessera-train, tessera-rsh) and PATH lookup.
#pragma once

#include <string>

namespace tessera::daemon {

/// Folder of the running executable (/proc/self/exe); env TESSERA_BIN_DIR overrides it.
std::string binDir();

/// Absolute path of `name` found in PATH (or `name` itself when it contains a '/' and is
/// executable); empty when not found.
std::string findProgram(const std::string& name);

/// The last path component of `path` ("/usr/bin/orted" → "orted").
std::string baseName(const std::string& path);

} // namespace tessera::daemon
