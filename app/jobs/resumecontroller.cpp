// Resume from checkpoint (see resumecontroller.h).
#include "app/jobs/resumecontroller.h"

#include "backend/client/jobswatch.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/paths.h"
#include "backend/history/metricstore.h"
#include "worker/common/spec_io.h"
#include "worker/common/tsan_handoff.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSaveFile>
#include <QtConcurrent>

namespace tessera {

namespace {

/// A past run as the history holds it, read on a pool thread (own connection).
struct HistoryRun {
    bool found = false;
    JobState state = JobState::Failed;
    v1::JobSpec spec;
    std::optional<CheckpointRef> checkpoint;
    QString error;
};

HistoryRun readHistoryRun(const QString& path, const QString& jobId) {
    HistoryRun run;
    MetricStore store;
    if (Result<void> opened = store.open(path); !opened) {
        run.error = QString::fromStdString(opened.error().message);
        return run;
    }
    const JobRecord record = store.job(jobId);
    if (record.id.isEmpty()) {
        return run;
    }
    run.found = true;
    run.state = record.state;
    if (auto spec = parseJobSpec(record.specJson.toStdString(), jobId.toStdString())) {
        run.spec = std::move(*spec);
    }
    run.checkpoint = latestCheckpoint(store.logLines(jobId));
    return run;
}

} // namespace

ResumeController::ResumeController(client::JobsWatch* watch, QObject* parent)
    : QObject(parent), m_watch(watch), m_action(new QAction(tr("Res&ume from checkpoint"), this)),
      m_gatherDir(QDir(dataDir()).filePath(QStringLiteral("resume"))) {
    m_action->setObjectName(QStringLiteral("resumeAction"));
    m_action->setShortcut(QKeySequence(tr("Ctrl+Alt+R")));
    connect(m_action, &QAction::triggered, this, &ResumeController::resume);
    connect(m_watch, &client::JobsWatch::logLine, this,
            [this](const QString& jobId, const QString&, const QString& text, int) {
                m_live.insert(jobId);
                auto c = checkpointFromLogLine(text);
                if (!c) {
                    return;
                }
                if (auto it = m_checkpoints.constFind(jobId);
                    it == m_checkpoints.cend() || it->step <= c->step) {
                    m_checkpoints.insert(jobId, *c);
                }
                if (jobId == m_candidate) {
                    update();
                }
            });
    connect(m_watch, &client::JobsWatch::jobStateChanged, this, [this](const QString& jobId) {
        m_live.insert(jobId);
        if (jobId == m_candidate) {
            update();
        }
    });
    update();
}

void ResumeController::setCandidate(const QString& jobId) {
    m_candidate = jobId;
    const bool known = jobId.isEmpty() || (seenLive(jobId) && !m_watch->specJson(jobId).isEmpty());
    if (!known && m_store && !m_readFromHistory.contains(jobId)) {
        // A run of an earlier session: its spec, state and checkpoints are in the history.
        m_readFromHistory.insert(jobId);
        auto* watcher = new QFutureWatcher<HistoryRun>(this);
        connect(watcher, &QFutureWatcher<HistoryRun>::finished, this, [this, watcher, jobId] {
            const HistoryRun run = watcher->result();
            watcher->deleteLater();
            if (run.checkpoint) {
                m_checkpoints.insert(jobId, *run.checkpoint);
            }
            m_history.insert(jobId, run.found ? std::optional(std::pair(run.state, run.spec))
                                              : std::nullopt);
            if (jobId == m_candidate) {
                update();
            }
        });
        watcher->setFuture(QtConcurrent::run(
            tsanHandOff([path = m_store->path(), jobId] { return readHistoryRun(path, jobId); })));
    }
    update();
}

bool ResumeController::seenLive(const QString& jobId) const {
    return m_live.contains(jobId) || m_watch->followed().contains(jobId);
}

bool ResumeController::lookUp(const QString& jobId, JobState* state, v1::JobSpec* spec) const {
    if (seenLive(jobId)) {
        if (auto s = parseJobSpec(m_watch->specJson(jobId).toStdString(), jobId.toStdString())) {
            *state = m_watch->state(jobId);
            *spec = std::move(*s);
            return true;
        }
    }
    const auto it = m_history.constFind(jobId);
    if (it == m_history.cend() || !it->has_value()) {
        return false;
    }
    *state = (*it)->first;
    *spec = (*it)->second;
    return true;
}

std::optional<CheckpointRef> ResumeController::checkpointOf(const QString& jobId) {
    const auto it = m_checkpoints.constFind(jobId);
    return it == m_checkpoints.cend() ? std::nullopt : std::optional(*it);
}

QString ResumeController::blocker() const {
    if (m_candidate.isEmpty()) {
        return tr("Nothing to resume: a stopped or failed run that wrote a checkpoint can be "
                  "resumed (the Job panel's last job, or one opened from the Runs list).");
    }
    if (m_busy) {
        return tr("Preparing the resume of %1…").arg(m_candidate);
    }
    JobState state = JobState::Failed;
    v1::JobSpec spec;
    if (!lookUp(m_candidate, &state, &spec)) {
        return m_history.contains(m_candidate) || !m_store
                   ? tr("%1 is not in the history: nothing to resume.").arg(m_candidate)
                   : tr("Reading %1 from the history…").arg(m_candidate);
    }
    if (state == JobState::Succeeded) {
        return tr("%1 succeeded: there is nothing left to resume.").arg(m_candidate);
    }
    if (!isTerminal(state)) {
        return tr("%1 is %2: Resume is for a run that was stopped or failed.")
            .arg(m_candidate, jobStateText(state));
    }
    const auto ckpt = m_checkpoints.constFind(m_candidate);
    if (ckpt == m_checkpoints.cend()) {
        return tr("%1 wrote no checkpoint to resume from (set checkpoint.everySteps in its spec "
                  "to write some).")
            .arg(m_candidate);
    }
    return QString();
}

void ResumeController::update() {
    const QString why = blocker();
    m_action->setEnabled(why.isEmpty());
    QString tip = why;
    if (why.isEmpty()) {
        const CheckpointRef ckpt = m_checkpoints.value(m_candidate);
        tip = tr("Run %1 again from its checkpoint of step %2 (%3)")
                  .arg(m_candidate)
                  .arg(ckpt.step)
                  .arg(m_action->shortcut().toString(QKeySequence::NativeText));
    }
    m_action->setToolTip(tip);
    m_action->setStatusTip(tip);
}

void ResumeController::resume() {
    if (!blocker().isEmpty()) {
        return;
    }
    const QString jobId = m_candidate;
    JobState state = JobState::Failed;
    v1::JobSpec launched;
    lookUp(jobId, &state, &launched);
    const auto localWorkDir = [jobId](const QString& worker) {
        const QString dir = LocalWorkers::workerFolder(worker) + QStringLiteral("/work");
        return QFileInfo(dir + QStringLiteral("/jobs/") + jobId).isDir() ? dir : QString();
    };
    const ResumeSource source =
        resumeSource(launched, jobId, m_checkpoints.value(jobId), m_gatherDir, localWorkDir);
    if (!source.error.isEmpty()) {
        Q_EMIT failed(jobId, tr("Cannot resume %1: %2").arg(jobId, source.error));
        return;
    }
    m_busy = true;
    update();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this,
            [this, watcher, jobId, source, launched] {
                const QString error = watcher->result();
                watcher->deleteLater();
                finish(jobId, source, launched, error);
            });
    watcher->setFuture(
        QtConcurrent::run(tsanHandOff([source] { return gatherCheckpoint(source); })));
}

void ResumeController::finish(const QString& jobId, const ResumeSource& source,
                              const v1::JobSpec& launched, const QString& error) {
    m_busy = false;
    update();
    if (!error.isEmpty()) {
        Q_EMIT failed(jobId, tr("Cannot resume %1: %2").arg(jobId, error));
        return;
    }
    const v1::JobSpec spec = resumedSpec(launched, jobId, source.resumeFrom);
    const QString dir = QDir(dataDir()).filePath(QStringLiteral("resume"));
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(QStringLiteral("resume-%1.json").arg(jobId));
    QSaveFile file(path);
    const std::string json = jobSpecToJson(spec);
    if (!file.open(QIODevice::WriteOnly) || file.write(json.data(), qint64(json.size())) < 0 ||
        !file.commit()) {
        Q_EMIT failed(
            jobId,
            tr("Cannot write the resumed job's spec '%1': %2").arg(path, file.errorString()));
        return;
    }
    Q_EMIT specReady(path, jobId);
}

} // namespace tessera
