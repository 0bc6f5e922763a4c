// tessera-ctl's progress output: one `\r`-updated bar line on a terminal, one line per update
// otherwise; epoch-end test accuracy lines and the final summary.
#pragma once

#include "backend/core/jobtypes.h"

#include <QString>
#include <QStringList>

#include <cstdio>
#include <limits>

namespace tessera::ctl {

/// Prints metric points of one job to a FILE (stdout). Not thread-safe; use from one thread.
class ProgressPrinter {
public:
    /// `epochs` is the spec's training.epochs (0 = unknown; then no bar is drawn).
    /// `tty` selects `\r` updates (true) or one line per update (false).
    ProgressPrinter(FILE* out, int epochs, bool tty);

    /// Handles one point: a training point (with "loss") of the lowest rank that reports a loss
    /// updates the bar (other ranks' are skipped); a point with
    /// test_accuracy and/or test_loss prints an epoch line; other ranks' performance points
    /// (no loss) are ignored; a point with done=1 is remembered for summary().
    void add(const MetricPoint& point);
    /// Ends a pending `\r` line (before printing anything else).
    void breakLine();
    /// Prints the final lines: last test accuracy (or test loss when the model reports no
    /// accuracy, e.g. a GPT), steps and training time. Returns the last
    /// test accuracy (NaN if none was reported).
    double summary(const QString& jobId, const QString& stateName);

    /// Ends a pending line and prints, on stderr, that the job is relaunched
    /// (JobController::jobRecovering): "tessera-ctl: attempt 1 ended (CAUSE); relaunching it as
    /// attempt 2 on alpha, gamma from its checkpoint of step 20".
    void recovery(int attempt, const QString& cause, qint64 resumeStep, const QStringList& workers);

    /// The bar line for a training point, e.g.
    /// "step 120  epoch 0.13/2 [##--------]  loss 0.6123  12345 samples/s".
    static QString barLine(const MetricPoint& point, int epochs);

private:
    FILE* m_out;
    int m_epochs;
    bool m_tty;
    bool m_pendingCr = false;
    double m_lastAccuracy;
    double m_lastTestLoss = std::numeric_limits<double>::quiet_NaN();
    double m_trainSeconds = -1;
    qint64 m_lastStep = 0;
    int m_barRank = std::numeric_limits<int>::max(); ///< the rank whose loss the bar shows
};

} // namespace tessera::ctl
