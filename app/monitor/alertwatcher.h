// Watches a running job's metric points and raises alerts a person should see at once: a
// non-finite or diverging loss, a job that stopped making steps, and a straggler rank.
#pragma once

#include "app/monitor/emasmoother.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace tessera {

struct MetricPoint;

/// One alert. Plain value type.
struct MonitorAlert {
    enum Kind { NonFiniteLoss, DivergingLoss, Stalled, Straggler };
    Kind kind = NonFiniteLoss;
    QString jobId;
    QDateTime time; ///< UTC, when it was raised
    QString text;   ///< what happened and where, e.g. "rank 3 (stage 1) computes 2.1× ..."
};

/// Thresholds of the alerts.
struct AlertThresholds {
    /// Diverging: the loss EMA (weight 0.9) rises to this multiple of its lowest value so far...
    double divergeFactor = 2.0;
    /// ...after at least this many loss points (the first steps of a run are noisy).
    int divergeMinPoints = 20;
    /// Stalled: no new step for max(stallSeconds, stallIntervals × the median seconds between
    /// the job's metric lines so far), while the job is running.
    int stallSeconds = 60;
    double stallIntervals = 10;
    /// Straggler: a rank whose compute time per step is this multiple of the median of the other
    /// ranks of its pipeline stage (they do the same work: data-parallel replicas and tensor
    /// shards)...
    double stragglerFactor = 1.5;
    /// ...and at least this many milliseconds above it (ignores noise on tiny steps)...
    double stragglerMinMs = 2.0;
    /// ...in this many of its perf lines in a row (one slow window is noise: measured 1.8× on
    /// a 4-rank ViT with ranks oversubscribing 2 cores, gone in the next window).
    int stragglerWindows = 3;
};

/// Feed it the followed job's metric points (addPoint) and its running state; it raises each
/// kind of alert once per job (a straggler once per rank). Never blocks: the stall check runs on
/// a 1 s timer.
class AlertWatcher : public QObject {
    Q_OBJECT
public:
    explicit AlertWatcher(QObject* parent = nullptr);

    void setThresholds(const AlertThresholds& t) { m_limits = t; }
    /// Follows `jobId` from now on (forgets the previous job's state); `running` starts the stall
    /// clock.
    void followJob(const QString& jobId);
    /// The followed job runs (true) or has ended (false: no more stall alerts).
    void setRunning(bool running);
    /// Every point of every job may come here; others than the followed job's are ignored.
    /// Perf lines (with "step_ms", one per rank) feed the straggler check, loss lines the loss
    /// checks; every point with a step restarts the stall clock.
    void addPoint(const tessera::MetricPoint& point);
    /// Runs the stall check now at `now` (the timer calls it with the current time).
    void checkStall(const QDateTime& now);

    QList<MonitorAlert> alerts() const { return m_alerts; }

Q_SIGNALS:
    void alertRaised(tessera::MonitorAlert alert);

private:
    struct RankTimes {
        int stage = 0;
        double computeMs = 0;
    };
    void raise(MonitorAlert::Kind kind, const QString& text);
    void checkLoss(const tessera::MetricPoint& point, double loss);
    void checkStraggler(int rank);

    AlertThresholds m_limits;
    QString m_jobId;
    bool m_running = false;
    QList<MonitorAlert> m_alerts;
    EmaSmoother m_ema{0.9};
    double m_minEma = 0;
    qint64 m_minStep = 0;
    int m_lossPoints = 0;
    bool m_diverged = false, m_nonFinite = false, m_stalled = false;
    QDateTime m_lastStepAt;
    qint64 m_lastStep = 0;
    QList<double> m_intervals; ///< seconds between the job's successive steps seen
    QHash<int, RankTimes> m_ranks;
    QHash<int, int> m_slowWindows; ///< rank → its perf lines in a row above the threshold
    QList<int> m_stragglers;       ///< ranks already reported
    QTimer m_timer;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::MonitorAlert)
