// Asks before work is lost: an unsaved layout (before quit, Open, New, another model) and
// running jobs (before quit and Release workers), and carries out the answer (save first; stop
// the jobs, then close or release once they ended).
#pragma once

#include "app/question.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QTimer;
class QWidget;

namespace tessera {

class BackendSession;
class ClusterPanel;
namespace designer {
class DesignerPanel;
}

/// The window's questions. Lives in the GUI thread; every object given must outlive it.
class WindowGuard : public QObject {
    Q_OBJECT
public:
    /// `window` is the parent of the question boxes and is closed again once jobs stopped for a
    /// close; `designer` may be null (no planner).
    WindowGuard(BackendSession* session, designer::DesignerPanel* designer, ClusterPanel* cluster,
                QWidget* window);

    /// Replaces how questions are asked (default: askWithMessageBox over the window). Tests
    /// answer with a function; the answer must be one of the question's choices.
    void setAsker(Asker asker) { m_asker = std::move(asker); }
    /// The questions asked so far (for tests and diagnostics), oldest first.
    const QList<Question>& asked() const { return m_asked; }

    /// Before the designer's plan is replaced or dropped ("quit", "open a.tessera-plan.json"):
    /// true at once without unsaved changes; else asks Save / Discard / Cancel and returns true
    /// for Discard and for a Save that wrote the file.
    bool confirmDiscard(const QString& what);
    /// For the window's closeEvent: true = close now. Asks about unsaved changes, then about
    /// running jobs (Stop / Keep running where none runs on a local worker / Cancel). After
    /// Stop it returns false, cancels the jobs and closes the window once they ended (at most
    /// stopTimeoutMs() later); a second close meanwhile closes at once.
    bool mayClose();
    /// For Release workers: true = release now. With jobs on local workers it asks Stop /
    /// Cancel; after Stop it returns false, cancels them and releases once they ended.
    bool mayRelease();

    /// Active jobs (queued, starting, running) and those with a rank on a local worker.
    QStringList activeJobs() const;
    QStringList jobsOnLocalWorkers() const;
    /// True while jobs are being stopped before a close or a release.
    bool isStopping() const { return !m_waitingFor.isEmpty(); }
    /// How long a close or release waits for cancelled jobs to end (default 20000 ms).
    void setStopTimeout(int ms) { m_stopTimeoutMs = ms; }
    int stopTimeoutMs() const { return m_stopTimeoutMs; }

Q_SIGNALS:
    /// A line for the log pane ("stopping 1 job before quitting…").
    void message(const QString& text);

private:
    Choice ask(const Question& question);
    /// Cancels `jobs` and calls `then` once every one ended, or after the stop timeout.
    void stopThen(const QStringList& jobs, std::function<void()> then);
    void checkStopped();

    BackendSession* m_session;
    designer::DesignerPanel* m_designer;
    ClusterPanel* m_cluster;
    QWidget* m_window;
    Asker m_asker;
    QList<Question> m_asked;
    QStringList m_waitingFor;     ///< jobs cancelled before a close / release
    std::function<void()> m_then; ///< what follows once they ended
    QTimer* m_stopTimer;
    int m_stopTimeoutMs = 20000;
    bool m_closeApproved = false; ///< the next close goes through without asking
};

} // namespace tessera
