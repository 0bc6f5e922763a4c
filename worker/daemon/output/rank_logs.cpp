// RankLogs: per-rank CRI-format files with size-based rotation.
#include "worker/daemon/output/rank_logs.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace tessera::daemon {

RankLogs::RankLogs(std::string dir, Limits limits) : m_dir(std::move(dir)), m_limits(limits) {}

RankLogs::~RankLogs() {
    close();
}

std::string RankLogs::fileName(int rank) {
    return rank < 0 ? "launcher.log" : "rank-" + std::to_string(rank) + ".log";
}

std::string RankLogs::rfc3339Nano(std::chrono::system_clock::time_point time) {
    using namespace std::chrono;
    const auto ns = duration_cast<nanoseconds>(time.time_since_epoch()).count();
    std::time_t secs = static_cast<std::time_t>(ns / 1'000'000'000);
    long frac = static_cast<long>(ns % 1'000'000'000);
    if (frac < 0) {
        frac += 1'000'000'000;
        --secs;
    }
    std::tm tm{};
    ::gmtime_r(&secs, &tm);
    char buf[48];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%09ldZ", frac);
    return buf;
}

void RankLogs::write(int rank, bool isStderr, std::string_view line, bool partial,
                     std::chrono::system_clock::time_point time) {
    std::lock_guard lock(m_mutex);
    if (m_disabled) {
        return;
    }
    const std::string head =
        rfc3339Nano(time) + (isStderr ? " stderr " : " stdout ") + (partial ? "P " : "F ");
    const std::int64_t bytes = std::int64_t(head.size() + line.size() + 1);
    File* file = open(rank);
    if (!file) {
        return;
    }
    if (file->size > 0 && file->size + bytes > m_limits.maxFileBytes && !rotate(*file)) {
        return;
    }
    iovec parts[3] = {{const_cast<char*>(head.data()), head.size()},
                      {const_cast<char*>(line.data()), line.size()},
                      {const_cast<char*>("\n"), 1}};
    const ssize_t written = ::writev(file->fd, parts, 3);
    if (written != bytes) {
        disable("cannot write " + m_dir + "/" + fileName(rank) + ": " +
                (written < 0 ? std::strerror(errno) : std::string("short write (disk full?)")));
        return;
    }
    file->size += bytes;
}

RankLogs::File* RankLogs::open(int rank) {
    for (auto it = m_open.begin(); it != m_open.end(); ++it) {
        if (it->rank == rank) {
            m_open.splice(m_open.begin(), m_open, it);
            return &m_open.front();
        }
    }
    if (!m_dirMade) {
        if (::mkdir(m_dir.c_str(), 0700) != 0 && errno != EEXIST) {
            disable("cannot create " + m_dir + ": " + std::strerror(errno));
            return nullptr;
        }
        m_dirMade = true;
    }
    const std::string path = m_dir + "/" + fileName(rank);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        disable("cannot open " + path + ": " + std::strerror(errno));
        if (fd >= 0) {
            ::close(fd);
        }
        return nullptr;
    }
    if (m_open.size() >= kOpenFiles) {
        ::close(m_open.back().fd);
        m_open.pop_back();
    }
    m_open.push_front(File{rank, fd, st.st_size});
    return &m_open.front();
}

bool RankLogs::rotate(File& file) {
    ::close(file.fd);
    file.fd = -1;
    const std::string base = m_dir + "/" + fileName(file.rank);
    if (m_limits.keep <= 0) {
        (void)::unlink(base.c_str());
    } else {
        (void)::unlink((base + "." + std::to_string(m_limits.keep)).c_str());
        for (int k = m_limits.keep - 1; k >= 1; --k) {
            (void)::rename((base + "." + std::to_string(k)).c_str(),
                           (base + "." + std::to_string(k + 1)).c_str());
        }
        (void)::rename(base.c_str(), (base + ".1").c_str());
    }
    file.fd = ::open(base.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_TRUNC | O_CLOEXEC, 0600);
    file.size = 0;
    if (file.fd < 0) {
        const int rank = file.rank;
        m_open.remove_if([rank](const File& f) { return f.rank == rank; });
        disable("cannot open " + base + ": " + std::strerror(errno));
        return false;
    }
    return true;
}

void RankLogs::disable(const std::string& why) {
    spdlog::warn("rank logs: {}; this job's output is no longer kept in {} (its events are)", why,
                 m_dir);
    m_disabled = true;
    for (File& f : m_open) {
        if (f.fd >= 0) {
            ::close(f.fd);
        }
    }
    m_open.clear();
}

void RankLogs::close() {
    std::lock_guard lock(m_mutex);
    for (File& f : m_open) {
        if (f.fd >= 0) {
            ::close(f.fd);
        }
    }
    m_open.clear();
}

} // namespace tessera::daemon
