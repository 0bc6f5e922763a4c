// "Resume from checkpoint" of the Job panel: which run it would resume (the panel's job, or a run
// opened from the history), why it cannot, and the resume itself (shards gathered off the GUI
// thread, the resumed spec written as a file the panel launches).
#pragma once

#include "app/jobs/checkpointresume.h"
#include "backend/core/jobtypes.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

class QAction;

namespace tessera {

class MetricStore;
namespace client {
class JobsWatch;
}

/// Tracks the checkpoints jobs announce in their logs (live through the server's feeds, past
/// ones from the history) and resumes a Cancelled or Failed run from its newest one: the same spec
/// with checkpoint.resume_from set, named "… (resumed from <job id>)".
class ResumeController : public QObject {
    Q_OBJECT
public:
    /// `watch` must outlive this object.
    explicit ResumeController(client::JobsWatch* watch, QObject* parent = nullptr);

    /// The history to read past runs' specs, states and logs from (may be null; must outlive
    /// this object).
    void setStore(MetricStore* store) { m_store = store; }
    /// Where shards of local workers are gathered for a resume (default dataDir()/resume).
    void setGatherDir(const QString& dir) { m_gatherDir = dir; }

    /// "Resume from checkpoint" (Ctrl+Alt+R): enabled when candidate() can resume; its tooltip
    /// and status tip say what it resumes, or why it cannot.
    QAction* action() const { return m_action; }

    /// The run Resume acts on (the panel's current job, a run opened from the history).
    void setCandidate(const QString& jobId);
    QString candidate() const { return m_candidate; }
    /// Why candidate() cannot be resumed now, for people; empty when it can.
    QString blocker() const;
    /// The newest checkpoint job `jobId` announced; nullopt if none (yet).
    std::optional<CheckpointRef> checkpointOf(const QString& jobId);

public Q_SLOTS:
    /// Resumes candidate() (no-op while blocker() is not empty or a resume is being prepared):
    /// gathers its shards when needed (off the GUI thread), writes the resumed spec to
    /// dataDir()/resume/ and emits specReady, or failed with the reason.
    void resume();

Q_SIGNALS:
    /// The resumed run's spec is in `specPath`, ready to launch.
    void specReady(const QString& specPath, const QString& fromJobId);
    /// Resuming `fromJobId` failed before anything was launched: `reason` for people.
    void failed(const QString& fromJobId, const QString& reason);

private:
    /// Whether `jobId` came through the watch (its log and states were seen live).
    bool seenLive(const QString& jobId) const;
    /// State and launched spec of `jobId` from the watch (seen live) or the history.
    bool lookUp(const QString& jobId, JobState* state, v1::JobSpec* spec) const;
    void update();
    void finish(const QString& jobId, const ResumeSource& source, const v1::JobSpec& launched,
                const QString& error);

    client::JobsWatch* m_watch;
    QSet<QString> m_live; ///< jobs whose lines or states came through the watch
    MetricStore* m_store = nullptr;
    QAction* m_action;
    QString m_candidate;
    QString m_gatherDir;
    QHash<QString, CheckpointRef> m_checkpoints;
    QSet<QString> m_readFromHistory; ///< jobs whose stored record was asked for already
    /// Past runs read from the history: state and spec, nullopt when the history lacks them.
    QHash<QString, std::optional<std::pair<JobState, v1::JobSpec>>> m_history;
    bool m_busy = false; ///< a resume is being prepared
};

} // namespace tessera
