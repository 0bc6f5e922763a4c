// Bounded logging for warnings a caller can repeat at will (issue 45): refused calls, a
// program's refused records, events that cannot reach a full disk. Without it, 10 s of wrong-token
// calls from 200 connections wrote 147,514 lines (15.8 MB) of worker log: a way to fill a node's
// disk from outside.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::daemon {

/// Rate limit per kind of line. A kind is what repeats ("refused GetInfo from 127.0.0.1: wrong
/// bearer token"). Within a window of kWindow from a kind's first line, its first kBurst lines
/// are logged as they come and the rest only counted; when the window ends, one line sums them
/// up: "refused GetInfo from 127.0.0.1: wrong bearer token × 14,211 more in the last 10 s". So a
/// kind writes at most kBurst + 1 lines per window, whatever its callers do.
///
/// At most kMaxKinds kinds are tracked; lines of further kinds share one overflow kind
/// ("more kinds of warnings"), so many addresses cannot grow the table or the log either.
/// Thread-safe. Summaries of ended windows are written by flush(): call it from a timer, or let
/// startFlusher() run one.
class RepeatLimiter {
public:
    using Clock = std::chrono::steady_clock;
    /// Receives each line to write, with its severity as spdlog's level number.
    using Sink = std::function<void(int level, const std::string& line)>;

    static constexpr int kBurst = 3;
    static constexpr std::chrono::seconds kWindow{10};
    static constexpr std::size_t kMaxKinds = 256;

    /// Lines go to `sink`; by default to spdlog's default logger.
    explicit RepeatLimiter(Sink sink = {});
    ~RepeatLimiter();
    RepeatLimiter(const RepeatLimiter&) = delete;
    RepeatLimiter& operator=(const RepeatLimiter&) = delete;

    /// Logs `line` (of kind `kind`; `line` empty = the kind itself) at `level` unless its kind
    /// has already written kBurst lines in its current window; then it is counted for the
    /// summary. Returns true when the line was written.
    bool log(int level, const std::string& kind, const std::string& line = {},
             Clock::time_point now = Clock::now());
    /// Writes the summary of every kind whose window ended by `now` and forgets the kinds that
    /// had nothing to sum up.
    void flush(Clock::time_point now = Clock::now());
    /// Kinds tracked now (for tests).
    std::size_t kinds() const;

    /// Starts a thread that flushes every second until the limiter is destroyed. Idempotent.
    void startFlusher();

    /// The daemon's limiter (flushed by its own thread, started on first use).
    static RepeatLimiter& shared();

private:
    struct Kind {
        Clock::time_point windowStart;
        int level = 0;
        int written = 0;
        std::uint64_t suppressed = 0;
    };
    void summarise(const std::string& kind, const Kind& k);

    Sink m_sink;
    mutable std::mutex m_mutex;
    std::map<std::string, Kind> m_kinds;
    std::mutex m_stopMutex;
    std::condition_variable m_stopCv;
    bool m_stop = false;
    std::thread m_flusher;
};

/// "14,211": `n` with thousands separators, as the summary lines write counts.
std::string withThousands(std::uint64_t n);

} // namespace tessera::daemon
