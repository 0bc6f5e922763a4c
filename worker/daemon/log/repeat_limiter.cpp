// RepeatLimiter: per-kind bursts and windowed summaries (see repeat_limiter.h).
#include "worker/daemon/log/repeat_limiter.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

namespace {

constexpr const char* kOverflowKind = "more kinds of warnings (the log tracks 256 at a time)";

} // namespace

std::string withThousands(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(std::size_t(i), ",");
    }
    return digits;
}

RepeatLimiter::RepeatLimiter(Sink sink) : m_sink(std::move(sink)) {
    if (!m_sink) {
        m_sink = [](int level, const std::string& line) {
            spdlog::log(static_cast<spdlog::level::level_enum>(level), "{}", line);
        };
    }
}

RepeatLimiter::~RepeatLimiter() {
    {
        std::lock_guard lock(m_stopMutex);
        m_stop = true;
    }
    m_stopCv.notify_all();
    if (m_flusher.joinable()) {
        m_flusher.join();
    }
}

bool RepeatLimiter::log(int level, const std::string& kind, const std::string& line,
                        Clock::time_point now) {
    std::unique_lock lock(m_mutex);
    auto it = m_kinds.find(kind);
    if (it != m_kinds.end() && now - it->second.windowStart >= kWindow) {
        summarise(it->first, it->second);
        m_kinds.erase(it);
        it = m_kinds.end();
    }
    if (it == m_kinds.end()) {
        const bool full = m_kinds.size() >= kMaxKinds;
        it = m_kinds.try_emplace(full ? std::string(kOverflowKind) : kind).first;
        if (it->second.written == 0 && it->second.suppressed == 0) {
            it->second.windowStart = now;
            it->second.level = level;
        }
    }
    Kind& k = it->second;
    if (k.written >= kBurst) {
        ++k.suppressed;
        return false;
    }
    ++k.written;
    const std::string& text = line.empty() ? kind : line;
    lock.unlock();
    m_sink(level, text);
    return true;
}

void RepeatLimiter::summarise(const std::string& kind, const Kind& k) {
    if (k.suppressed == 0) {
        return;
    }
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(kWindow).count();
    m_sink(k.level, kind + " × " + withThousands(k.suppressed) + " more in the last " +
                        std::to_string(seconds) + " s");
}

void RepeatLimiter::flush(Clock::time_point now) {
    std::lock_guard lock(m_mutex);
    for (auto it = m_kinds.begin(); it != m_kinds.end();) {
        if (now - it->second.windowStart >= kWindow) {
            summarise(it->first, it->second);
            it = m_kinds.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t RepeatLimiter::kinds() const {
    std::lock_guard lock(m_mutex);
    return m_kinds.size();
}

void RepeatLimiter::startFlusher() {
    std::lock_guard lock(m_stopMutex);
    if (m_flusher.joinable() || m_stop) {
        return;
    }
    m_flusher = std::thread([this] {
        std::unique_lock lock(m_stopMutex);
        while (!m_stopCv.wait_for(lock, std::chrono::seconds(1), [this] { return m_stop; })) {
            lock.unlock();
            flush();
            lock.lock();
        }
    });
}

RepeatLimiter& RepeatLimiter::shared() {
    static RepeatLimiter limiter;
    limiter.startFlusher();
    return limiter;
}

} // namespace tessera::daemon
