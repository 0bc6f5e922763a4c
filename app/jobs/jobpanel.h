// Job panel: pick a spec file, read its summary, launch it on the cluster, cancel it, and see
// the job's state. Errors go to an inline message area, never to a blocking dialog.
#pragma once

#include "backend/core/jobtypes.h"
#include "tessera/backend/v1/backend.pb.h"
#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"

#include <QString>
#include <QWidget>

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace tessera {

class MetricStore;
class ResumeController;
namespace client {
class JobsWatch;
}

/// Spec chooser (combo of SpecCatalog::examplesDir()'s files plus any added with addSpecFile),
/// read-only summary, Launch / Cancel, and the state of the job launched last. Launch sends the
/// spec to the server (SubmitJob, on a pool thread: the window never waits on the network) and
/// Launch stays off until it answers; the job then becomes current, or, when the server's
/// auto-provision must rent machines first, its ticket shows "waiting for machines" until the
/// server says which job it became. Cancel asks the server (which refuses another user's job
/// unless this one is an admin: the refusal shows inline). States and progress come from the
/// watch's feeds.
class JobPanel : public QWidget {
    Q_OBJECT
public:
    /// `watch` (and its connection) must outlive the panel.
    explicit JobPanel(client::JobsWatch* watch, QWidget* parent = nullptr);

    /// "Launch job" (Ctrl+L), "Cancel job" (Ctrl+Shift+X), "Open spec…" (Ctrl+O).
    QAction* launchAction() const { return m_launchAction; }
    /// "Resume from checkpoint" (Ctrl+Alt+R): runs the current job again from its newest
    /// checkpoint once it was stopped or failed (see ResumeController).
    QAction* resumeAction() const;
    ResumeController* resumer() const { return m_resume; }
    /// The history that past runs are resumed from (may be null).
    void setStore(MetricStore* store);
    /// Offers Resume for `jobId` (a run opened from the history) instead of the current job.
    void offerResume(const QString& jobId);
    QAction* cancelAction() const { return m_cancelAction; }
    QAction* openAction() const { return m_openAction; }

    /// Adds `path` to the combo box (once) and selects it. Returns false, with the reason in the
    /// message area, when the file does not exist.
    bool addSpecFile(const QString& path);
    /// Selects the first spec whose file name contains `fragment` (case-insensitive); false if
    /// none.
    bool selectSpec(const QString& fragment);
    /// Path of the selected spec file; empty if none.
    QString currentSpecPath() const;
    /// The selected spec, parsed; nullopt when none is selected or it failed to parse.
    const std::optional<v1::JobSpec>& currentSpec() const { return m_spec; }

    /// Id of the job launched last from this panel; empty before the first launch (and until the
    /// server answered it).
    QString currentJobId() const { return m_jobId; }
    /// Whether a launch waits for the server's answer.
    bool isSubmitting() const { return m_submitting; }
    /// Its last known state (Queued before the first launch).
    JobState currentJobState() const { return m_jobState; }
    /// Text of the message area (last error or notice).
    QString messageText() const;
    /// Shows `text` in the message area (red when `error`) and sends it to the log pane.
    void showMessage(const QString& text, bool error);
    /// Progress line of the current job: step, epoch, loss, samples/s, last test accuracy.
    QString progressText() const;

public Q_SLOTS:
    /// Submits the selected spec. Once the server took it emits jobLaunched(id); on error shows
    /// it inline and emits launchFailed(error).
    void launch();
    /// Cancels the current job (no-op when it is not active).
    void cancel();
    /// Asks for a spec file with a file dialog (interactive use only).
    void openSpecDialog();

Q_SIGNALS:
    void jobLaunched(const QString& jobId);
    /// The current job's state changed (queued → running → a final state).
    void currentJobStateChanged(tessera::JobState state);
    void launchFailed(const QString& error);
    /// A line for the log pane.
    void message(const QString& text);

private:
    /// Makes `id` the current job (or shows why there is none).
    void adopt(const Result<QString>& id);
    /// The server's answer to a launch of `name`.
    void onSubmitted(const QString& name,
                     const Result<tessera::backend::v1::SubmitJobReply>& reply);
    void loadSelected();
    void onJobStateChanged(const QString& jobId, tessera::JobState state, const QString& reason);
    void onMetric(const tessera::MetricPoint& point);
    void updateActions();

    client::JobsWatch* m_watch;
    QString m_ticket;          ///< the server's ticket of the launch waiting for machines
    bool m_submitting = false; ///< a SubmitJob is in flight
    QComboBox* m_combo;
    QPlainTextEdit* m_summary;
    QLabel* m_state;
    QLabel* m_progress;
    QLabel* m_message;
    QPushButton* m_launchButton;
    QPushButton* m_cancelButton;
    QPushButton* m_resumeButton;
    ResumeController* m_resume;
    QAction* m_launchAction;
    QAction* m_cancelAction;
    QAction* m_openAction;
    std::optional<v1::JobSpec> m_spec;
    QString m_jobId;
    JobState m_jobState = JobState::Queued;
    QString m_trainProgress;      ///< step, epoch, loss and samples/s of the last loss point
    double m_testAccuracy = -1.0; ///< last test accuracy of the current job; < 0 = none yet
};

} // namespace tessera
