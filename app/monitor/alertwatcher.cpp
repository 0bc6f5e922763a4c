// Alerts from a job's metric points: non-finite or diverging loss, stall, straggler
// (see alertwatcher.h).
#include "app/monitor/alertwatcher.h"

#include "backend/core/jobtypes.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

double median(QList<double> v) {
    if (v.isEmpty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

AlertWatcher::AlertWatcher(QObject* parent) : QObject(parent) {
    qRegisterMetaType<tessera::MonitorAlert>();
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this,
            [this] { checkStall(QDateTime::currentDateTimeUtc()); });
}

void AlertWatcher::followJob(const QString& jobId) {
    m_jobId = jobId;
    m_alerts.clear();
    m_ema.reset();
    m_minEma = 0;
    m_minStep = 0;
    m_lossPoints = 0;
    m_diverged = m_nonFinite = m_stalled = false;
    m_lastStepAt = QDateTime::currentDateTimeUtc();
    m_lastStep = 0;
    m_intervals.clear();
    m_ranks.clear();
    m_slowWindows.clear();
    m_stragglers.clear();
}

void AlertWatcher::setRunning(bool running) {
    m_running = running;
    if (running) {
        m_lastStepAt = QDateTime::currentDateTimeUtc();
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

void AlertWatcher::raise(MonitorAlert::Kind kind, const QString& text) {
    const MonitorAlert a{kind, m_jobId, QDateTime::currentDateTimeUtc(), text};
    m_alerts.append(a);
    Q_EMIT alertRaised(a);
}

void AlertWatcher::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId) {
        return;
    }
    if (point.step > m_lastStep) {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        if (m_lastStep > 0) {
            m_intervals.append(double(m_lastStepAt.msecsTo(now)) / 1000.0);
            if (m_intervals.size() > 64) {
                m_intervals.removeFirst();
            }
        }
        m_lastStep = point.step;
        m_lastStepAt = now;
        m_stalled = false; // a job that resumes may stall again later
    }
    if (const auto loss = point.values.constFind(QStringLiteral("loss"));
        loss != point.values.constEnd()) {
        checkLoss(point, loss.value());
    }
    const auto compute = point.values.constFind(QStringLiteral("compute_ms"));
    if (compute != point.values.constEnd() && std::isfinite(compute.value())) {
        m_ranks[point.rank] = {int(point.values.value(QStringLiteral("stage"))), compute.value()};
        checkStraggler(point.rank);
    }
}

void AlertWatcher::checkLoss(const MetricPoint& point, double loss) {
    if (!std::isfinite(loss)) {
        if (!m_nonFinite) {
            m_nonFinite = true;
            raise(MonitorAlert::NonFiniteLoss,
                  tr("the loss is %1 at step %2: training diverged; lower the learning rate or "
                     "clip gradients (training.gradClip)")
                      .arg(std::isnan(loss) ? QStringLiteral("NaN") : QStringLiteral("infinite"))
                      .arg(point.step));
        }
        return;
    }
    const double ema = m_ema.add(loss);
    ++m_lossPoints;
    if (m_lossPoints == 1 || ema < m_minEma) {
        m_minEma = ema;
        m_minStep = point.step;
    }
    if (!m_diverged && m_lossPoints >= m_limits.divergeMinPoints && m_minEma > 0 &&
        ema > m_limits.divergeFactor * m_minEma) {
        m_diverged = true;
        raise(MonitorAlert::DivergingLoss,
              tr("the loss is diverging: smoothed %1 at step %2, %3× its lowest %4 at step %5")
                  .arg(QLocale().toString(ema, 'g', 4))
                  .arg(point.step)
                  .arg(QLocale().toString(ema / m_minEma, 'f', 1))
                  .arg(QLocale().toString(m_minEma, 'g', 4))
                  .arg(m_minStep));
    }
}

void AlertWatcher::checkStraggler(int rank) {
    const RankTimes me = m_ranks.value(rank);
    // The other ranks of its stage: with two ranks a median that included the slow one would
    // move halfway to it.
    QList<double> peers;
    for (auto other = m_ranks.cbegin(); other != m_ranks.cend(); ++other) {
        if (other.key() != rank && other->stage == me.stage) {
            peers.append(other->computeMs);
        }
    }
    const double med = median(peers);
    const bool slow = !peers.isEmpty() && med > 0 &&
                      me.computeMs > m_limits.stragglerFactor * med &&
                      me.computeMs - med > m_limits.stragglerMinMs;
    const int windows = slow ? m_slowWindows.value(rank) + 1 : 0;
    m_slowWindows.insert(rank, windows);
    if (windows < m_limits.stragglerWindows || m_stragglers.contains(rank)) {
        return;
    }
    m_stragglers.append(rank);
    raise(MonitorAlert::Straggler,
          tr("straggler: rank %1 (stage %2) computes %3 ms per step, %4× the median %5 ms of the "
             "other %6 rank(s) of its stage, %7 reports in a row; they wait for it")
              .arg(rank)
              .arg(me.stage)
              .arg(QLocale().toString(me.computeMs, 'f', 1))
              .arg(QLocale().toString(me.computeMs / med, 'f', 1))
              .arg(QLocale().toString(med, 'f', 1))
              .arg(peers.size())
              .arg(windows));
}

void AlertWatcher::checkStall(const QDateTime& now) {
    if (!m_running || m_stalled || m_jobId.isEmpty()) {
        return;
    }
    const double limit =
        std::max(double(m_limits.stallSeconds), m_limits.stallIntervals * median(m_intervals));
    const double idle = double(m_lastStepAt.msecsTo(now)) / 1000.0;
    if (idle < limit) {
        return;
    }
    m_stalled = true;
    raise(MonitorAlert::Stalled,
          m_lastStep > 0
              ? tr("no step for %1 s (the last, step %2, came at %3 UTC; the limit is %4 s): "
                   "look at the log and the workers")
                    .arg(qRound(idle))
                    .arg(m_lastStep)
                    .arg(m_lastStepAt.toString(QStringLiteral("hh:mm:ss")))
                    .arg(qRound(limit))
              : tr("no step for %1 s since the job started (the limit is %2 s): look at the "
                   "log and the workers")
                    .arg(qRound(idle))
                    .arg(qRound(limit)));
}

} // namespace tessera
