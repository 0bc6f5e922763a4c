// Step progress of one job (see hangwatch.h).
#include "backend/jobs/hangwatch.h"

#include <algorithm>

namespace tessera {

void HangWatch::started(qint64 nowMs) {
    if (m_lastProgressMs < 0) {
        m_lastProgressMs = nowMs;
    }
}

void HangWatch::step(qint64 step, qint64 nowMs) {
    if (step <= m_lastStep) {
        return;
    }
    if (m_lastStep >= 0 && nowMs > m_lastStepMs) {
        // Steps can be skipped (a program that reports every 10th): time per step.
        m_stepS << double(nowMs - m_lastStepMs) / 1000.0 / double(step - m_lastStep);
        if (m_stepS.size() > kWindow) {
            m_stepS.removeFirst();
        }
    }
    m_lastStep = step;
    m_lastStepMs = nowMs;
    m_lastProgressMs = nowMs;
}

double HangWatch::medianStepS() const {
    QList<double> sorted = m_stepS;
    std::sort(sorted.begin(), sorted.end());
    const qsizetype n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

std::optional<double> HangWatch::timeoutS() const {
    if (m_overrideS > 0) {
        return m_overrideS;
    }
    if (m_stepS.isEmpty()) {
        return std::nullopt;
    }
    return std::max(kFloorS, kStepFactor * medianStepS());
}

double HangWatch::quietS(qint64 nowMs) const {
    return m_lastProgressMs < 0 ? 0 : double(nowMs - m_lastProgressMs) / 1000.0;
}

std::optional<QString> HangWatch::hung(qint64 nowMs) const {
    const std::optional<double> timeout = timeoutS();
    const double quiet = quietS(nowMs);
    if (!timeout || m_lastProgressMs < 0 || quiet <= *timeout) {
        return std::nullopt;
    }
    const QString since = m_lastStep >= 0 ? QStringLiteral("after step %1").arg(m_lastStep)
                                          : QStringLiteral("since it started");
    const QString how = m_overrideS > 0
                            ? QStringLiteral("recovery.hangTimeoutS of the spec")
                            : QStringLiteral("%1 × the median step time %2 s, at least %3 s")
                                  .arg(kStepFactor)
                                  .arg(medianStepS(), 0, 'g', 3)
                                  .arg(kFloorS);
    return QStringLiteral("no new step for %1 s %2 (hang timeout %3 s: %4)")
        .arg(qRound64(quiet))
        .arg(since)
        .arg(*timeout, 0, 'g', 4)
        .arg(how);
}

} // namespace tessera
