// The window's questions before work is lost (see windowguard.h).
#include "app/windowguard.h"

#include "app/cluster/clusterpanel.h"
#include "app/designer/designerpanel.h"
#include "app/designer/plandocument.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/paths.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"

#include <QFileInfo>
#include <QTimer>
#include <QWidget>

namespace tessera {

WindowGuard::WindowGuard(BackendSession* session, designer::DesignerPanel* designer,
                         ClusterPanel* cluster, QWidget* window)
    : QObject(window), m_session(session), m_designer(designer), m_cluster(cluster),
      m_window(window), m_stopTimer(new QTimer(this)) {
    m_asker = [window](const Question& q) {
        return askWithMessageBox(window, q);
    };
    m_stopTimer->setSingleShot(true);
    connect(m_stopTimer, &QTimer::timeout, this, [this] {
        if (m_waitingFor.isEmpty()) {
            return;
        }
        Q_EMIT message(tr("%n job(s) did not stop within %1 s: going on without them (%2).",
                          nullptr, int(m_waitingFor.size()))
                           .arg(m_stopTimeoutMs / 1000)
                           .arg(m_waitingFor.join(QStringLiteral(", "))));
        m_waitingFor.clear();
        checkStopped();
    });
    connect(session->controller(), &JobController::jobStateChanged, this,
            [this](const QString& id, JobState state) {
                if (isTerminal(state) && m_waitingFor.removeAll(id) > 0) {
                    checkStopped();
                }
            });
}

Choice WindowGuard::ask(const Question& question) {
    m_asked.append(question);
    const Choice c = m_asker(question);
    return question.choices.contains(c) ? c : Choice::Cancel;
}

QStringList WindowGuard::activeJobs() const {
    QStringList out;
    const JobController* controller = m_session->controller();
    for (const QString& id : controller->jobIds()) {
        if (!isTerminal(controller->state(id))) {
            out << id;
        }
    }
    return out;
}

QStringList WindowGuard::jobsOnLocalWorkers() const {
    const QStringList local = m_session->localWorkers()->names();
    QStringList out;
    for (const QString& id : activeJobs()) {
        const v1::JobSpec spec = m_session->controller()->spec(id); // the loop needs it alive
        for (const auto& slot : spec.placement().slots()) {
            if (local.contains(QString::fromStdString(slot.worker()))) {
                out << id;
                break;
            }
        }
    }
    return out;
}

bool WindowGuard::confirmDiscard(const QString& what) {
    if (!m_designer || !m_designer->isModified()) {
        return true;
    }
    const QString path = m_designer->document()->path();
    Question q;
    q.title = tr("Unsaved layout");
    q.text =
        path.isEmpty()
            ? tr("The new layout has changes that are not saved.")
            : tr("The layout %1 has changes that are not saved.").arg(QFileInfo(path).fileName());
    q.details = tr("Save them before you %1? Discard drops them; Cancel keeps working on the "
                   "layout.")
                    .arg(what);
    q.choices = {Choice::Save, Choice::Discard, Choice::Cancel};
    switch (ask(q)) {
    case Choice::Save:
        return m_designer->saveLayout();
    case Choice::Discard:
        return true;
    default:
        return false;
    }
}

bool WindowGuard::mayClose() {
    if (m_closeApproved || isStopping()) {
        return true; // approved, or a second close while the jobs stop: close now
    }
    if (!confirmDiscard(tr("quit"))) {
        return false;
    }
    const QStringList jobs = activeJobs();
    if (jobs.isEmpty()) {
        return true;
    }
    const bool local = !jobsOnLocalWorkers().isEmpty();
    Question q;
    q.title = tr("Quit Tessera");
    q.text = tr("%n job(s) still running: %1.", nullptr, int(jobs.size()))
                 .arg(jobs.join(QStringLiteral(", ")));
    if (local) {
        q.details = tr("Quitting stops them: local workers end with Tessera, and their jobs "
                       "with them. Stop the jobs and quit, or cancel to keep them running.");
        q.choices = {Choice::Stop, Choice::Cancel};
    } else {
        q.details = tr("Their workers are on other machines: the jobs can go on after Tessera "
                       "quits, and it follows them again at its next start (the charts fill in "
                       "what they printed meanwhile), or be stopped first.");
        if (const auto serve = DataFolderLock(dataDir()).servePresent()) {
            q.details += QLatin1Char(' ') +
                         tr("Meanwhile tessera-ctl serve (pid %1) follows them: it relaunches a "
                            "job that loses a node and releases rented machines left idle.")
                             .arg(*serve);
        } else {
            q.details += QLatin1Char(' ') +
                         tr("Meanwhile nobody follows them: no relaunch after a node loss, no "
                            "release of idle rented machines. `tessera-ctl serve` does that "
                            "(systemctl --user enable --now tessera-backend).");
        }
        q.choices = {Choice::Stop, Choice::KeepRunning, Choice::Cancel};
    }
    q.labels = {{Choice::Stop, tr("&Stop and quit")},
                {Choice::KeepRunning, tr("&Quit, keep running")}};
    switch (ask(q)) {
    case Choice::KeepRunning:
        return true;
    case Choice::Stop:
        Q_EMIT message(tr("Stopping %n job(s) before quitting…", nullptr, int(jobs.size())));
        stopThen(jobs, [this] {
            m_closeApproved = true;
            m_window->close();
        });
        return false;
    default:
        return false;
    }
}

bool WindowGuard::mayRelease() {
    if (isStopping()) {
        return false; // a release or close is on its way already
    }
    const QStringList jobs = jobsOnLocalWorkers();
    if (jobs.isEmpty()) {
        return true;
    }
    Question q;
    q.title = tr("Release workers");
    q.text = tr("%n job(s) run on the local workers: %1.", nullptr, int(jobs.size()))
                 .arg(jobs.join(QStringLiteral(", ")));
    q.details = tr("Releasing the workers stops these jobs. Stop them and release the workers, "
                   "or cancel to keep them running.");
    q.choices = {Choice::Stop, Choice::Cancel};
    q.labels = {{Choice::Stop, tr("&Stop and release")}};
    if (ask(q) != Choice::Stop) {
        return false;
    }
    Q_EMIT message(
        tr("Stopping %n job(s) before releasing the workers…", nullptr, int(jobs.size())));
    stopThen(jobs, [this] {
        const QStringList workers = m_session->localWorkers()->names();
        m_cluster->releaseNow();
        for (const QString& w : workers) { // any job that did not stop in time ends with them
            m_session->controller()->failJobsOnWorker(w, tr("its workers were released"));
        }
    });
    return false;
}

void WindowGuard::stopThen(const QStringList& jobs, std::function<void()> then) {
    m_waitingFor = jobs;
    m_then = std::move(then);
    for (const QString& id : jobs) {
        m_session->controller()->cancel(id);
    }
    m_stopTimer->start(m_stopTimeoutMs);
    // A job whose state changed meanwhile (cancel of one not launched yet ends it at once).
    QTimer::singleShot(0, this, [this] {
        m_waitingFor.removeIf(
            [this](const QString& id) { return isTerminal(m_session->controller()->state(id)); });
        checkStopped();
    });
}

void WindowGuard::checkStopped() {
    if (!m_waitingFor.isEmpty() || !m_then) {
        return;
    }
    m_stopTimer->stop();
    auto then = std::move(m_then);
    m_then = nullptr;
    then();
}

} // namespace tessera
