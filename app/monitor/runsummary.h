// What the Runs table and the monitor's heading say about one run of the history: its name,
// parallel layout, state, final loss and accuracy, start and duration.
#pragma once

#include "backend/core/jobtypes.h"

#include <QCoreApplication>
#include <QString>

#include <limits>

namespace tessera {

namespace v1 {
class JobSpec;
}

/// One run as shown to a person. Numbers are NaN / 0 when unknown.
struct RunSummary {
    QString id;          ///< "job-20250102-101500-ab12"
    QString name;        ///< the spec's name; may be empty
    QString layout;      ///< layoutText() of the spec, "" when the spec is unreadable
    QString shortLayout; ///< shortLayoutText() of the spec, "" when the spec is unreadable
    JobState state = JobState::Queued;
    double finalLoss = std::numeric_limits<double>::quiet_NaN();     ///< last train loss
    double finalAccuracy = std::numeric_limits<double>::quiet_NaN(); ///< last test accuracy
    qint64 startMs = 0;  ///< Unix ms it started running (or was submitted, if it never ran)
    qint64 finishMs = 0; ///< Unix ms of its terminal state; 0 while not finished

    /// The name, or the id when the run has none.
    QString title() const { return name.isEmpty() ? id : name; }
    /// Milliseconds it ran: finishMs − startMs, or nowMs − startMs while not finished; −1 when
    /// it never started.
    qint64 durationMs(qint64 nowMs) const;
};

/// Texts of RunSummary fields, translated in the context "tessera::RunSummary".
class RunText {
    Q_DECLARE_TR_FUNCTIONS(tessera::RunSummary)
public:
    /// The summary of a history record (its stored spec gives the layout).
    static RunSummary summarize(const JobRecord& job);
    /// The summary of a job from its spec (a live job the controller knows).
    static RunSummary summarize(const QString& id, const v1::JobSpec& spec, JobState state);
    /// "DP2 × PP2 × TP1": data-parallel replicas, pipeline stages, tensor-parallel width. A spec
    /// with an empty layout is data parallel over every placed rank ("DP4 × PP1 × TP1").
    static QString layoutText(const v1::JobSpec& spec);
    /// The same without the factors that are 1, for a narrow column: "DP2 × PP2", "TP2"; "DP1"
    /// for one rank.
    static QString shortLayoutText(const v1::JobSpec& spec);
    /// The state in the user's language ("running", "succeeded", …).
    static QString stateText(JobState state);
    /// "45 s", "12:05" (m:ss), "1:02:03" (h:mm:ss); "–" for a negative duration.
    static QString durationText(qint64 ms);
    /// A number in the user's locale with 4 significant digits; "–" for NaN.
    static QString numberText(double value);
    /// Unix ms as the user's short local date and time; "–" for 0.
    static QString dateTimeText(qint64 ms);
    /// One line naming the run: "job-… · name · DP2 × PP1 × TP1 · running".
    static QString headingText(const RunSummary& run);
    /// A legend label for an overlaid run, at most `maxChars` characters: "MM-dd hh:mm name…".
    static QString legendLabel(const RunSummary& run, int maxChars = 32);
};

} // namespace tessera
