// Slowing down token guessing (issue 20): after a few failed authentications from one peer, its
// calls are refused for a while without their token being looked at.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tessera::daemon {

/// Failed-authentication bookkeeping per peer. A peer is what the server can tell callers apart
/// by: the certificate's common name under mutual TLS, the IP address under --insecure. Callers
/// on loopback are not throttled (TokenAuth::admit): gRPC's local credentials give no address.
///
/// The first kFreeFailures failures of a peer within kForgetAfter cost nothing (a mistyped token,
/// a restarted backend with an old one). Each further failure locks the peer out for
/// kFirstLockout, doubling per failure up to kMaxLockout: while locked out every call of the
/// peer is refused unchecked, the right token included, so a guesser learns nothing and gets at
/// most one guess per lockout (≤ 1 per kMaxLockout in the long run). A success does not clear a
/// peer (a guesser behind the same address as a good caller must not be pardoned by its
/// calls); kForgetAfter without a failure does. At most kMaxPeers peers are remembered: when full,
/// those quiet for kForgetAfter go first, then the one whose last failure is oldest, so many
/// addresses cannot grow it (whoever has kMaxPeers addresses has that many peers' guesses).
/// Thread-safe; never blocks beyond its mutex (gRPC's threads call it).
class AuthThrottle {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr int kFreeFailures = 5;
    static constexpr std::chrono::milliseconds kFirstLockout{1000};
    static constexpr std::chrono::milliseconds kMaxLockout{60000};
    static constexpr std::chrono::minutes kForgetAfter{10};
    static constexpr std::size_t kMaxPeers = 4096;

    /// How long `peer` stays locked out from `now` (zero: its call may be checked).
    std::chrono::milliseconds lockedFor(const std::string& peer, Clock::time_point now);
    /// Counts a failed authentication of `peer` at `now`; returns the lockout it starts (zero
    /// while within kFreeFailures).
    std::chrono::milliseconds failed(const std::string& peer, Clock::time_point now);
    /// Peers remembered now (for tests).
    std::size_t size() const;

private:
    struct Entry {
        int failures = 0;
        Clock::time_point lastFailure;
        Clock::time_point lockedUntil;
    };
    void makeRoom(Clock::time_point now);

    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_peers;
};

} // namespace tessera::daemon
