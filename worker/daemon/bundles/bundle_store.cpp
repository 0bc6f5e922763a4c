// Bundle cache: receive into a temporary file, unpack with GNU tar into a temporary folder,
// rename() it into place.
#include "worker/daemon/bundles/bundle_store.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace tessera::daemon {

namespace fs = std::filesystem;

namespace {

/// Runs `argv` and waits; returns its stderr (at most 4 KiB) when it fails, empty on success.
std::string runQuietly(const std::vector<std::string>& argv) {
    int err[2];
    if (::pipe2(err, O_CLOEXEC) != 0) {
        return std::string("pipe: ") + std::strerror(errno);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv) {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(err[1]);
    std::string text;
    std::array<char, 1024> buf{};
    ssize_t n = 0;
    while ((n = ::read(err[0], buf.data(), buf.size())) > 0 || (n < 0 && errno == EINTR)) {
        if (n > 0 && text.size() < 4096) {
            text.append(buf.data(), static_cast<size_t>(n));
        }
    }
    ::close(err[0]);
    if (rc != 0) {
        return "cannot start " + argv[0] + ": " + std::strerror(rc);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return {};
    }
    return text.empty() ? argv[0] + " failed" : text;
}

} // namespace

BundleStore::BundleStore(std::string workDir) : BundleStore(std::move(workDir), Limit{}) {}

BundleStore::BundleStore(std::string workDir, Limit limit)
    : m_root(std::move(workDir) + "/bundles"), m_limit(limit) {}

bool BundleStore::isValidSha256(const std::string& sha) {
    return sha.size() == 64 && std::all_of(sha.begin(), sha.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::string BundleStore::dir(const std::string& sha) const {
    return m_root + "/" + sha;
}

bool BundleStore::has(const std::string& sha) const {
    std::error_code ec;
    return isValidSha256(sha) && fs::is_directory(dir(sha), ec);
}

Result<std::string> BundleStore::receiveFile(const std::string& sha) const {
    std::error_code ec;
    fs::create_directories(m_root, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot create '" + m_root + "': " + ec.message());
    }
    std::string path = m_root + "/." + sha + ".tar.XXXXXX";
    const int fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
        return fail(ErrorCode::Io,
                    "cannot create a file in '" + m_root + "': " + std::strerror(errno));
    }
    ::close(fd);
    return path;
}

Result<void> BundleStore::install(const std::string& sha, const std::string& tarPath) const {
    std::string tmp = m_root + "/." + sha + ".unpack.XXXXXX";
    if (!::mkdtemp(tmp.data())) {
        std::remove(tarPath.c_str());
        return fail(ErrorCode::Io,
                    "cannot create a folder in '" + m_root + "': " + std::strerror(errno));
    }
    const std::string err = runQuietly({"/bin/tar", "-x", "-f", tarPath, "-C", tmp,
                                        "--no-same-owner", "--delay-directory-restore"});
    std::remove(tarPath.c_str());
    std::error_code ec;
    if (!err.empty()) {
        fs::remove_all(tmp, ec);
        return fail(ErrorCode::Io, "cannot unpack bundle " + sha.substr(0, 12) + ": " + err);
    }
    ::utimensat(AT_FDCWD, tmp.c_str(), nullptr, 0); // installed = used now
    if (::rename(tmp.c_str(), dir(sha).c_str()) != 0) {
        const int e = errno;
        fs::remove_all(tmp, ec);
        if (e != EEXIST && e != ENOTEMPTY) { // else another upload of it won the race: fine
            return fail(ErrorCode::Io, "cannot move bundle " + sha.substr(0, 12) + " into '" +
                                           dir(sha) + "': " + std::strerror(e));
        }
    }
    return {};
}

void BundleStore::touch(const std::string& sha) const {
    if (isValidSha256(sha)) {
        ::utimensat(AT_FDCWD, dir(sha).c_str(), nullptr, 0);
    }
}

int BundleStore::sweepPartial() const {
    std::error_code ec;
    int removed = 0;
    for (const auto& entry : fs::directory_iterator(m_root, ec)) {
        const std::string name = entry.path().filename().string();
        const bool partial =
            name.size() > 66 && name[0] == '.' && isValidSha256(name.substr(1, 64)) &&
            (name.compare(65, 5, ".tar.") == 0 || name.compare(65, 8, ".unpack.") == 0);
        if (partial && fs::remove_all(entry.path(), ec) > 0) {
            ++removed;
        }
    }
    if (removed > 0) {
        spdlog::info("bundle cache: removed {} leftover(s) of uploads cut short", removed);
    }
    return removed;
}

namespace {
uint64_t treeBytes(const fs::path& dir) {
    uint64_t bytes = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        if (it->is_regular_file(ec)) {
            bytes += it->file_size(ec);
        }
    }
    return bytes;
}
} // namespace

std::vector<std::string> BundleStore::evict(const std::string& keep) const {
    struct Entry {
        std::string sha;
        fs::file_time_type used;
        uint64_t bytes;
    };
    std::vector<Entry> bundles;
    uint64_t total = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(m_root, ec)) {
        const std::string sha = entry.path().filename().string();
        if (isValidSha256(sha) && entry.is_directory(ec)) {
            bundles.push_back({sha, fs::last_write_time(entry.path(), ec), treeBytes(entry)});
            total += bundles.back().bytes;
        }
    }
    std::vector<std::string> removed;
    if (m_limit.maxBytes == 0 || total <= m_limit.maxBytes) {
        return removed;
    }
    std::sort(bundles.begin(), bundles.end(),
              [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const auto recent = fs::file_time_type::clock::now() - m_limit.keepRecent;
    for (const Entry& b : bundles) {
        if (total <= m_limit.maxBytes) {
            break;
        }
        if (b.sha == keep || b.used > recent) {
            continue;
        }
        // Renamed first, so that no one finds a half-removed bundle.
        const std::string doomed = m_root + "/." + b.sha + ".unpack.evicted";
        if (::rename(dir(b.sha).c_str(), doomed.c_str()) != 0 || !fs::remove_all(doomed, ec)) {
            spdlog::warn("bundle cache: cannot remove bundle {}: {}", b.sha.substr(0, 12),
                         ec ? ec.message() : std::strerror(errno));
            continue;
        }
        total -= b.bytes;
        removed.push_back(b.sha);
        spdlog::info("bundle cache: evicted bundle {} ({} bytes, least recently used)",
                     b.sha.substr(0, 12), b.bytes);
    }
    if (total > m_limit.maxBytes) {
        spdlog::warn("bundle cache: {} bytes, over its {} bytes, but every other bundle was used "
                     "within the last {} s",
                     total, m_limit.maxBytes, m_limit.keepRecent.count());
    }
    return removed;
}

} // namespace tessera::daemon
