// Per-daemon Open MPI session directories (see ompi_tmpdir.h).
#include "worker/daemon/jobs/ompi_tmpdir.h"

#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace tessera::daemon {

namespace {
std::string tmpdirPath() {
    return "/tmp/tsr-" + std::to_string(::getpid());
}
} // namespace

std::string ompiTmpdir() {
    static const std::string dir = [] {
        const std::string path = tmpdirPath();
        std::error_code ec;
        std::filesystem::create_directory(path, ec);
        if (ec || !std::filesystem::is_directory(path, ec)) {
            return std::string();
        }
        std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::replace, ec);
        return path;
    }();
    return dir;
}

std::vector<std::string> ompiTmpdirEnv() {
    const std::string dir = ompiTmpdir();
    if (dir.empty()) {
        return {};
    }
    return {"OMPI_MCA_orte_tmpdir_base=" + dir};
}

bool replaceMcaParam(std::vector<std::string>& argv, const std::string& name,
                     const std::string& value) {
    bool found = false;
    for (std::size_t i = 0; i + 2 < argv.size(); ++i) {
        if ((argv[i] == "-mca" || argv[i] == "--mca") && argv[i + 1] == name) {
            argv[i + 2] = value;
            found = true;
        }
    }
    return found;
}

bool replaceOrteTmpdir(std::vector<std::string>& argv, const std::string& dir) {
    return replaceMcaParam(argv, "orte_tmpdir_base", dir);
}

int removeStaleOmpiTmpdirs(const std::string& root) {
    int removed = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("tsr-", 0) != 0 || name.size() == 4 ||
            name.find_first_not_of("0123456789", 4) != std::string::npos) {
            continue;
        }
        std::error_code alive;
        if (std::filesystem::exists("/proc/" + name.substr(4), alive)) {
            continue;
        }
        std::error_code gone;
        if (std::filesystem::remove_all(entry.path(), gone) > 0 && !gone) {
            ++removed;
        }
    }
    return removed;
}

void removeOmpiTmpdir() {
    std::error_code ec;
    std::filesystem::remove_all(tmpdirPath(), ec);
}

} // namespace tessera::daemon
