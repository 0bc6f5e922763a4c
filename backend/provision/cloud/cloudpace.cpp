// One API key's request schedule (see cloudpace.h).
#include "backend/provision/cloud/cloudpace.h"

#include <QHash>

#include <algorithm>
#include <chrono>

namespace tessera {

namespace {

qint64 nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

CloudPace::CloudPace(std::function<qint64()> clock)
    : m_clock(clock ? std::move(clock) : std::function<qint64()>(nowMs)) {}

std::shared_ptr<CloudPace> CloudPace::forKey(const QByteArray& keyHash) {
    static QMutex mutex;
    static QHash<QByteArray, std::shared_ptr<CloudPace>> paces;
    QMutexLocker lock(&mutex);
    std::shared_ptr<CloudPace>& p = paces[keyHash];
    if (!p) {
        p = std::make_shared<CloudPace>();
    }
    return p;
}

qint64 CloudPace::reserve(const CloudPacing& pacing, bool launch) {
    QMutexLocker lock(&m_mutex);
    const qint64 now = m_clock();
    const qint64 gap = pacing.requestIntervalMs;
    // Slots further back than one interval no longer constrain anything.
    m_slots.erase(m_slots.begin(), m_slots.lower_bound(now - gap));
    qint64 at = std::max(now, m_holdUntilMs);
    if (launch) {
        at = std::max(at, m_nextLaunchMs);
    }
    // The first time from `at` on that keeps `gap` from every reserved slot.
    for (auto it = m_slots.lower_bound(at - gap + 1); it != m_slots.end() && *it < at + gap;
         it = m_slots.lower_bound(at - gap + 1)) {
        at = *it + gap;
    }
    m_slots.insert(at);
    if (launch) {
        m_nextLaunchMs = at + pacing.launchIntervalMs;
    }
    return at - now;
}

void CloudPace::holdOff(qint64 ms) {
    QMutexLocker lock(&m_mutex);
    m_holdUntilMs = std::max(m_holdUntilMs, m_clock() + ms);
}

} // namespace tessera
