// Failed-authentication lockouts per peer (see auth_throttle.h).
#include "worker/daemon/security/auth_throttle.h"

#include <algorithm>

namespace tessera::daemon {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

milliseconds AuthThrottle::lockedFor(const std::string& peer, Clock::time_point now) {
    std::lock_guard lock(m_mutex);
    const auto it = m_peers.find(peer);
    if (it == m_peers.end() || it->second.lockedUntil <= now) {
        return milliseconds(0);
    }
    // Rounded up: "locked for 0 ms" would read as not locked.
    return duration_cast<milliseconds>(it->second.lockedUntil - now) + milliseconds(1);
}

milliseconds AuthThrottle::failed(const std::string& peer, Clock::time_point now) {
    std::lock_guard lock(m_mutex);
    auto it = m_peers.find(peer);
    if (it == m_peers.end()) {
        if (m_peers.size() >= kMaxPeers) {
            makeRoom(now);
        }
        it = m_peers.emplace(peer, Entry{}).first;
    }
    Entry& e = it->second;
    if (e.failures > 0 && now - e.lastFailure > kForgetAfter) {
        e = Entry{};
    }
    ++e.failures;
    e.lastFailure = now;
    const int over = e.failures - kFreeFailures;
    if (over <= 0) {
        return milliseconds(0);
    }
    // 1 s × 2^(over-1), capped (the shift is bounded so it cannot overflow).
    const milliseconds lockout = std::min<milliseconds>(
        kFirstLockout * (std::int64_t{1} << std::min(over - 1, 16)), kMaxLockout);
    e.lockedUntil = now + lockout;
    return lockout;
}

std::size_t AuthThrottle::size() const {
    std::lock_guard lock(m_mutex);
    return m_peers.size();
}

void AuthThrottle::makeRoom(Clock::time_point now) {
    std::erase_if(m_peers, [&](const auto& kv) {
        return kv.second.lockedUntil <= now && now - kv.second.lastFailure > kForgetAfter;
    });
    if (m_peers.size() < kMaxPeers) {
        return;
    }
    const auto oldest =
        std::min_element(m_peers.begin(), m_peers.end(), [](const auto& a, const auto& b) {
            return a.second.lastFailure < b.second.lastFailure;
        });
    m_peers.erase(oldest);
}

} // namespace tessera::daemon
