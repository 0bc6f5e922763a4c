// Telemetry sampler thread and sample ring: waits for the next due time (or a new, faster
// watcher), samples without holding the lock, then tells the watchers.
#include "worker/daemon/telemetry/telemetry_hub.h"

#include <algorithm>

namespace tessera::daemon {

TelemetryHub::TelemetryHub(Source source, size_t ringSize)
    : m_source(std::move(source)), m_ringSize(std::max<size_t>(ringSize, 1)) {}

TelemetryHub::~TelemetryHub() {
    stop();
}

std::chrono::milliseconds TelemetryHub::clampInterval(uint32_t intervalMs) {
    if (intervalMs == 0) {
        return kDefaultInterval;
    }
    return std::clamp(std::chrono::milliseconds(intervalMs), kMinInterval, kMaxInterval);
}

void TelemetryHub::start() {
    std::lock_guard lock(m_mutex);
    if (!m_thread.joinable() && !m_stopping) {
        m_lastSampleAt = Clock::now();
        m_thread = std::thread([this] { run(); });
    }
}

void TelemetryHub::stop() {
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped) {
            return;
        }
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
    }
    notifyListeners();
}

void TelemetryHub::run() {
    std::unique_lock lock(m_mutex);
    Clock::time_point due = m_lastSampleAt + periodLocked();
    while (!m_stopping) {
        if (m_wake.wait_until(lock, due, [this] { return m_stopping || m_periodChanged; })) {
            if (m_periodChanged) {
                // A watcher came or went: the next sample is one new period after the last.
                m_periodChanged = false;
                due = m_lastSampleAt + periodLocked();
            }
            continue;
        }
        lock.unlock();
        sampleNow();
        lock.lock();
        // One period after this sample, not on a fixed grid: samples are never closer than a
        // period, so the fastest watcher gets every one even when a sample came late.
        due = m_lastSampleAt + periodLocked();
    }
}

uint64_t TelemetryHub::sampleNow() {
    v1::TelemetrySample s = m_source();
    uint64_t seq = 0;
    {
        std::lock_guard lock(m_mutex);
        seq = ++m_lastSeq;
        s.set_seq(seq);
        s.set_time_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
        m_lastSampleAt = Clock::now();
        m_ring.push_back({std::move(s), m_lastSampleAt});
        while (m_ring.size() > m_ringSize) {
            m_ring.pop_front();
        }
    }
    notifyListeners();
    return seq;
}

TelemetryHub::Next TelemetryHub::next(uint64_t fromSeq) const {
    std::lock_guard lock(m_mutex);
    Next n;
    n.stopped = m_stopped;
    if (m_ring.empty()) {
        return n;
    }
    const uint64_t oldest = m_ring.front().sample.seq();
    const Kept* k = nullptr;
    if (fromSeq == 0) {
        k = &m_ring.back();
    } else if (fromSeq > m_lastSeq + 1) {
        // A seq this process never reached: the client saw an earlier run of this worker
        // (seqs restart at 1). Waiting for it would stall the stream for as long.
        k = &m_ring.back();
        n.gap = true;
    } else if (fromSeq < oldest) {
        k = &m_ring.front();
        n.gap = true;
    } else if (fromSeq <= m_ring.back().sample.seq()) {
        k = &m_ring[fromSeq - oldest]; // seqs in the ring are consecutive
    }
    if (k) {
        n.sample = k->sample;
        n.monotonicMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(k->at.time_since_epoch()).count();
    }
    return n;
}

int TelemetryHub::subscribe(std::chrono::milliseconds interval, Listener listener) {
    int id = 0;
    {
        std::lock_guard lock(m_listenersMutex);
        id = m_nextId++;
        m_listeners.emplace(id, std::move(listener));
    }
    {
        std::lock_guard lock(m_mutex);
        m_intervals.emplace(id, interval);
        m_periodChanged = true;
    }
    m_wake.notify_all();
    return id;
}

void TelemetryHub::unsubscribe(int id) {
    {
        std::lock_guard lock(m_listenersMutex);
        m_listeners.erase(id);
    }
    {
        std::lock_guard lock(m_mutex);
        m_intervals.erase(id);
        m_periodChanged = true;
    }
    m_wake.notify_all();
}

std::chrono::milliseconds TelemetryHub::period() const {
    std::lock_guard lock(m_mutex);
    return periodLocked();
}

std::chrono::milliseconds TelemetryHub::periodLocked() const {
    std::chrono::milliseconds p = kDefaultInterval;
    for (const auto& [id, interval] : m_intervals) {
        p = std::min(p, interval);
    }
    return p;
}

void TelemetryHub::notifyListeners() {
    std::lock_guard lock(m_listenersMutex);
    for (auto& [id, listener] : m_listeners) {
        listener();
    }
}

} // namespace tessera::daemon
