// Each rank's output of one job kept as files on the worker, bounded and rotated.
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <string_view>

namespace tessera::daemon {

/// The output of every rank of one job, one file per rank in `dir`: `rank-R.log` for global
/// rank R and `launcher.log` for lines no rank printed (mpirun's, torchrun's own). Each line is
/// written in the CRI container log format that kubelet writes and `kubectl logs` reads
/// (kubernetes/cri-api, "CRI log format"):
///
///     2026-12-02T15:04:05.123456789Z stdout F the line's bytes
///
/// i.e. an RFC 3339 UTC time with nanoseconds, `stdout` or `stderr`, `F` (a full line; `P` for
/// a piece of a line longer than the worker's piece size, continued by the next record) and the
/// line's exact bytes, also when they are not UTF-8. A newline inside a line cannot occur (lines
/// are split at newlines) and a carriage return is kept.
///
/// Bounded: before a record would make a file longer than `maxFileBytes`, the file is rotated
/// (rank-R.log → rank-R.log.1 → … → rank-R.log.<keep>, the oldest removed), so one rank keeps
/// at most (keep + 1) × maxFileBytes bytes and the newest output is always there. A single
/// record longer than maxFileBytes is written whole into a fresh file.
///
/// Thread-safe. Errors (folder not writable, disk full) are logged once and the output is then
/// not kept in files; the job's events are unaffected.
class RankLogs {
public:
    struct Limits {
        std::int64_t maxFileBytes = 8 << 20; ///< bytes per file before it is rotated
        int keep = 2;                        ///< rotated files kept besides the current one
    };

    /// Files go into `dir` (created, mode 0700, on the first line).
    RankLogs(std::string dir, Limits limits);
    ~RankLogs();
    RankLogs(const RankLogs&) = delete;
    RankLogs& operator=(const RankLogs&) = delete;

    /// Appends one line of `rank` (−1: not a rank's) read at `time`; `partial` marks a piece of
    /// a longer line (`P`).
    void write(int rank, bool isStderr, std::string_view line, bool partial,
               std::chrono::system_clock::time_point time);
    /// Closes every open file (later writes reopen them).
    void close();

    /// "rank-R.log", or "launcher.log" for rank −1.
    static std::string fileName(int rank);
    /// `time` as RFC 3339 UTC with nanoseconds, e.g. "2026-12-02T15:04:05.123456789Z".
    static std::string rfc3339Nano(std::chrono::system_clock::time_point time);

private:
    struct File {
        int rank;
        int fd;
        std::int64_t size;
    };
    File* open(int rank);
    bool rotate(File& file);
    void disable(const std::string& why);

    /// Open files, most recently written first; at most kOpenFiles (a job of thousands of ranks
    /// must not use thousands of descriptors of the worker).
    static constexpr std::size_t kOpenFiles = 64;

    const std::string m_dir;
    const Limits m_limits;
    std::mutex m_mutex;
    std::list<File> m_open;
    bool m_dirMade = false;
    bool m_disabled = false;
};

} // namespace tessera::daemon
