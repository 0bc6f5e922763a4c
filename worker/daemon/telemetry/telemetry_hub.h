// The daemon's one telemetry sampler: a thread that samples at the fastest interval any watcher
// asks for and keeps a ring of recent samples, which WatchTelemetry streams and replays.
#pragma once

#include "tessera/v1/worker.pb.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace tessera::daemon {

/// Samples a source on its own thread (so that a slow /proc or NVML read never holds a gRPC
/// thread), numbers the samples 1, 2, 3, … and keeps the last `ringSize`. Thread-safe.
///
/// One thread for all watchers rather than a timer per watcher: every watcher sees the same
/// samples with the same seq, so a reconnecting client resumes by seq, and N watchers cost one
/// reading of /proc and NVML per period, not N. The period is the shortest interval of the
/// current watchers, never longer than kDefaultInterval: the thread keeps sampling with nobody
/// watching, so that a client that reconnects finds the samples it missed in the ring.
class TelemetryHub {
public:
    using Source = std::function<v1::TelemetrySample()>;
    /// Called (without arguments) on the sampler thread after each new sample and once at stop();
    /// must not block.
    using Listener = std::function<void()>;

    static constexpr std::chrono::milliseconds kDefaultInterval{1000};
    /// Bounds of a watcher's interval; why these, see WatchTelemetryRequest.interval_ms.
    static constexpr std::chrono::milliseconds kMinInterval{100};
    static constexpr std::chrono::milliseconds kMaxInterval{60000};
    /// 600 samples: 10 minutes at the default 1 s, one minute at 100 ms.
    static constexpr size_t kDefaultRingSize = 600;

    /// What a watcher gets for a wanted seq.
    struct Next {
        std::optional<v1::TelemetrySample> sample; ///< none when nothing at or after the seq yet
        int64_t monotonicMs = 0; ///< when it was taken, ms of a clock that never jumps
        bool gap = false;        ///< the wanted seq was older than the oldest kept
        bool stopped = false;    ///< stop() was called: no more samples will come
    };

    /// `source` gives a sample without seq and time (HostSampler::sample); it is called on the
    /// sampler thread only. `ringSize` >= 1.
    explicit TelemetryHub(Source source, size_t ringSize = kDefaultRingSize);
    /// Calls stop().
    ~TelemetryHub();
    TelemetryHub(const TelemetryHub&) = delete;
    TelemetryHub& operator=(const TelemetryHub&) = delete;

    /// A request's interval_ms as a period: 0 → kDefaultInterval, then clamped to
    /// kMinInterval..kMaxInterval.
    static std::chrono::milliseconds clampInterval(uint32_t intervalMs);

    /// Starts the sampler thread; its first sample comes one period later.
    void start();
    /// Stops and joins the sampler thread, then tells every listener (their watchers end).
    /// Idempotent. Samples already kept stay readable.
    void stop();

    /// Takes one sample now, stamps seq and time, keeps it and tells the listeners; returns its
    /// seq. The sampler thread calls this; tests call it instead of start() (never both).
    uint64_t sampleNow();

    /// The sample for a watcher that wants `fromSeq` next: 0 = the newest kept; older than the
    /// oldest kept = the oldest kept, with `gap`; the seq the next sample will get = none yet;
    /// beyond that (a seq of an earlier run of the daemon) = the newest kept, with `gap`.
    Next next(uint64_t fromSeq) const;

    /// Adds a watcher that wants a sample every `interval` (already clamped); the sampler speeds
    /// up at once when it is the shortest. Returns its id for unsubscribe().
    int subscribe(std::chrono::milliseconds interval, Listener listener);
    /// Removes a watcher; once this returns, its listener is not running and is not called again.
    void unsubscribe(int id);

    /// The current sampling period: the shortest watcher interval, at most kDefaultInterval.
    std::chrono::milliseconds period() const;

private:
    using Clock = std::chrono::steady_clock;
    struct Kept {
        v1::TelemetrySample sample;
        Clock::time_point at;
    };
    void run();
    void notifyListeners();
    std::chrono::milliseconds periodLocked() const;

    const Source m_source;
    const size_t m_ringSize;

    mutable std::mutex m_mutex; // everything below but the listeners
    std::condition_variable m_wake;
    std::deque<Kept> m_ring;
    uint64_t m_lastSeq = 0;
    Clock::time_point m_lastSampleAt = Clock::now();
    std::map<int, std::chrono::milliseconds> m_intervals;
    bool m_periodChanged = false;
    bool m_stopping = false;
    bool m_stopped = false;
    std::thread m_thread;

    std::mutex m_listenersMutex;
    std::map<int, Listener> m_listeners;
    int m_nextId = 1;
};

} // namespace tessera::daemon
