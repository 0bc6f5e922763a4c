// Exec allow-list: exact-match resolution of argv[0] to an absolute program path.
#include "worker/daemon/security/allow_list.h"

#include "worker/daemon/jobs/program_paths.h"

#include <unistd.h>

namespace tessera::daemon {

AllowList AllowList::defaults(const std::string& binDir) {
    AllowList list;
    std::string orted = bundledOrted(binDir); // the worker bundle's own, else the system's
#ifdef TESSERA_ORTED
    if (orted.empty()) {
        orted = findProgram(TESSERA_ORTED);
    }
#endif
    if (orted.empty()) {
        orted = findProgram("orted");
    }
    if (!orted.empty()) {
        list.insert(orted);
        list.m_entries["orted"] = orted;
    }
    list.insert(binDir + "/tessera-train");
    // The GPU rank program, in builds with the GPU backend (a CPU-only build has none).
    if (const std::string cuda = binDir + "/tessera-train-cuda";
        ::access(cuda.c_str(), X_OK) == 0) {
        list.insert(cuda);
    }
    return list;
}

void AllowList::insert(const std::string& path) {
    m_entries[path] = path;
    m_entries[baseName(path)] = path;
}

Result<void> AllowList::add(const std::string& program) {
    if (program.find('/') != std::string::npos && program[0] != '/') {
        return fail(ErrorCode::InvalidArgument,
                    "--allow " + program + ": give an absolute path or a program name in PATH");
    }
    const std::string path = findProgram(program);
    if (path.empty()) {
        return fail(ErrorCode::NotFound, "--allow " + program +
                                             ": no such executable (give an absolute path or a "
                                             "program name in PATH)");
    }
    insert(path);
    return {};
}

Result<std::string> AllowList::resolve(const std::string& argv0) const {
    if (const auto it = m_entries.find(argv0); it != m_entries.end()) {
        return it->second;
    }
    std::string allowed;
    for (const auto& n : names()) {
        allowed += (allowed.empty() ? "" : ", ") + n;
    }
    return fail(ErrorCode::PermissionDenied,
                "program '" + argv0 + "' is not on this worker's Exec allow-list (" + allowed +
                    "); start the worker with --allow PROGRAM to add it");
}

std::vector<std::string> AllowList::names() const {
    std::vector<std::string> out;
    for (const auto& [name, path] : m_entries) {
        out.push_back(name);
    }
    return out;
}

} // namespace tessera::daemon
