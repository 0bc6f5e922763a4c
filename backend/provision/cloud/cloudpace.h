// The pace a cloud's API allows, kept per API key for the whole process: every request with
// the same key (rents, polls, health checks, listings, in any CloudHttp) takes its turn from one
// schedule, so that Tessera stays under the documented limits instead of learning them from
// HTTP 429s.
#pragma once

#include <QByteArray>
#include <QMutex>
#include <QString>

#include <functional>
#include <memory>
#include <set>

namespace tessera {

/// Minimum spacing of requests, ms (0 = no spacing). Lambda Cloud documents 1 request per
/// second for its API and 1 launch per 12 s (bursts of 5 a minute) for
/// /instance-operations/launch (Lambda Cloud API documentation, "Rate limiting"); its defaults
/// keep a margin above both, so that a request sent on time never reaches the server early.
struct CloudPacing {
    int requestIntervalMs = 0; ///< between any two requests
    int launchIntervalMs = 0;  ///< between two launches (they count as requests too)
    QString launchPath;        ///< the path of the launch call, relative to the base URL
};

/// One API key's schedule. Reservations are first come, first served; thread-safe.
class CloudPace {
public:
    /// A schedule on `clock` (ms of a steady clock; the default is std::chrono::steady_clock's),
    /// for tests; requests use forKey's.
    explicit CloudPace(std::function<qint64()> clock = {});

    /// The schedule of the key whose SHA-256 is `keyHash` (shared by every caller in the
    /// process with that key); never null.
    static std::shared_ptr<CloudPace> forKey(const QByteArray& keyHash);

    /// Reserves a slot for one request (`launch`: a launch) under `pacing`: the ms to wait
    /// before sending it (0: now). The slot is taken at once: the earliest time at least
    /// requestIntervalMs away from every other reserved slot (a launch waiting for its own
    /// interval does not hold up the requests before it).
    qint64 reserve(const CloudPacing& pacing, bool launch);
    /// The server refused with 429 and asked for `ms`: no request of this key goes out before
    /// then (the server's bucket is empty for every caller, not only the refused one).
    void holdOff(qint64 ms);

private:
    std::function<qint64()> m_clock;
    QMutex m_mutex;
    std::set<qint64> m_slots;  ///< reserved send times, steady clock ms (recent and future)
    qint64 m_holdUntilMs = 0;  ///< nothing goes out before this (a 429's Retry-After)
    qint64 m_nextLaunchMs = 0; ///< the first free launch slot
};

} // namespace tessera
