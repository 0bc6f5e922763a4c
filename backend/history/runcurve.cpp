// One continuous curve for a relaunched run (see runcurve.h).
#include "backend/history/runcurve.h"

namespace tessera {

QList<MetricPoint> continuousRun(const QList<MetricPoint>& points,
                                 const QList<AttemptRecord>& attempts) {
    QList<MetricPoint> out;
    out.reserve(points.size());
    qsizetype next = 0; // the first relaunch not applied yet
    auto dropTail = [&](const AttemptRecord& a) {
        out.removeIf([&](const MetricPoint& p) { return p.step > a.resumeStep; });
    };
    for (const MetricPoint& p : points) {
        while (next < attempts.size() && p.seq > attempts[next].seqBase) {
            dropTail(attempts[next++]);
        }
        out.append(p);
    }
    while (next < attempts.size()) { // relaunched, no point of it yet
        dropTail(attempts[next++]);
    }
    return out;
}

} // namespace tessera
