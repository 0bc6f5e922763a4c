// Whether a running job still makes progress (issue 22): a rank stopped (SIGSTOP, a debugger), a
// collective that never completes, a deadlocked data loader all look the same from outside — no
// new step. The timeout comes from the job's own step times, so a 50 ms step and a 20 min step
// are both judged fairly; a floor keeps short steps from tripping on a slow checkpoint write.
#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include <optional>

namespace tessera {

/// Step progress of one job, fed with the metric records' steps and their arrival times.
/// Not thread-safe; one per job.
class HangWatch {
public:
    /// Derived timeouts are at least this long, s: an evaluation pass or a checkpoint write
    /// between steps prints no step for minutes, and killing a healthy job costs more than
    /// finding a hang a few minutes later (set recovery.hangTimeoutS for a tighter bound).
    static constexpr double kFloorS = 300;
    static constexpr double kStepFactor = 10; ///< derived timeout = this × the median step time
    static constexpr int kWindow = 32;        ///< step times the median is taken over (newest)

    /// `overrideS` > 0: recovery.hangTimeoutS of the spec, used as is from the first look on.
    /// 0: derived, armed once two distinct steps have been seen (a first step may take long:
    /// loading data, compiling kernels) — until then the job is never called hung.
    explicit HangWatch(double overrideS = 0) : m_overrideS(overrideS) {}

    /// The job runs from `nowMs` (ms since the epoch): progress is measured from here.
    void started(qint64 nowMs);
    /// A metric record for `step` arrived at `nowMs`. Steps not above the highest seen so far
    /// (other ranks' records of the same step, a replay) are no progress.
    void step(qint64 step, qint64 nowMs);

    /// The timeout in force, seconds; nullopt while a derived one is not armed yet.
    std::optional<double> timeoutS() const;
    /// Seconds since the last progress (the newest step, or started()) at `nowMs`.
    double quietS(qint64 nowMs) const;
    /// The reason when the job is hung at `nowMs`, e.g. "no new step for 301 s after step 41 (hang
    /// timeout 300 s: 10 × the median step time 0.02 s, at least 300 s)"; nullopt otherwise.
    std::optional<QString> hung(qint64 nowMs) const;

private:
    double medianStepS() const;

    double m_overrideS;
    qint64 m_lastProgressMs = -1; ///< -1: not started
    qint64 m_lastStep = -1;
    qint64 m_lastStepMs = -1;
    QList<double> m_stepS; ///< seconds per step between successive new highest steps, newest last
};

} // namespace tessera
