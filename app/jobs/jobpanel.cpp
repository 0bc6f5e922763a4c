// Job panel: spec chooser, summary, launch/cancel and job state.
#include "app/jobs/jobpanel.h"

#include "app/jobs/resumecontroller.h"
#include "app/jobs/speccatalog.h"
#include "app/jobs/specsummary.h"
#include "backend/client/jobswatch.h"
#include "backend/client/serverconnection.h"
#include "worker/common/spec_io.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera {

JobPanel::JobPanel(client::JobsWatch* watch, QWidget* parent)
    : QWidget(parent), m_watch(watch), m_combo(new QComboBox(this)),
      m_summary(new QPlainTextEdit(this)), m_state(new QLabel(this)), m_progress(new QLabel(this)),
      m_message(new QLabel(this)), m_launchButton(new QPushButton(tr("&Launch"), this)),
      m_cancelButton(new QPushButton(tr("&Cancel"), this)),
      m_resumeButton(new QPushButton(tr("Res&ume"), this)),
      m_resume(new ResumeController(watch, this)),
      m_launchAction(new QAction(tr("&Launch job"), this)),
      m_cancelAction(new QAction(tr("&Cancel job"), this)),
      m_openAction(new QAction(tr("&Open spec…"), this)) {
    m_combo->setObjectName(QStringLiteral("specCombo"));
    m_summary->setObjectName(QStringLiteral("specSummary"));
    m_summary->setReadOnly(true);
    m_summary->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_state->setObjectName(QStringLiteral("jobState"));
    m_progress->setObjectName(QStringLiteral("jobProgress"));
    // Long lines wrap instead of widening the dock (and squeezing the chart).
    m_progress->setWordWrap(true);
    m_state->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("jobMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_launchButton->setObjectName(QStringLiteral("launchButton"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_resumeButton->setObjectName(QStringLiteral("resumeButton"));

    m_launchAction->setObjectName(QStringLiteral("launchAction"));
    m_launchAction->setShortcut(QKeySequence(tr("Ctrl+L")));
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(tr("Ctrl+Shift+X")));
    m_openAction->setObjectName(QStringLiteral("openSpecAction"));
    m_openAction->setShortcut(QKeySequence(tr("Ctrl+O")));
    connect(m_launchAction, &QAction::triggered, this, &JobPanel::launch);
    connect(m_cancelAction, &QAction::triggered, this, &JobPanel::cancel);
    connect(m_openAction, &QAction::triggered, this, &JobPanel::openSpecDialog);
    connect(m_launchButton, &QPushButton::clicked, this, &JobPanel::launch);
    connect(m_cancelButton, &QPushButton::clicked, this, &JobPanel::cancel);
    connect(m_resumeButton, &QPushButton::clicked, m_resume->action(), &QAction::trigger);
    // The button follows the action: enabled, and its tooltip says what it resumes or why not.
    const auto syncResume = [this] {
        m_resumeButton->setEnabled(m_resume->action()->isEnabled());
        m_resumeButton->setToolTip(m_resume->action()->toolTip());
    };
    connect(m_resume->action(), &QAction::changed, this, syncResume);
    syncResume();
    connect(m_resume, &ResumeController::specReady, this,
            [this](const QString& path, const QString& from) {
                showMessage(tr("Resuming %1 from its checkpoint.").arg(from), false);
                if (addSpecFile(path)) {
                    launch();
                }
            });
    connect(m_resume, &ResumeController::failed, this,
            [this](const QString&, const QString& reason) { showMessage(reason, true); });

    auto* form = new QFormLayout;
    form->addRow(tr("Spec:"), m_combo);
    form->addRow(tr("Job:"), m_state);
    form->addRow(tr("Progress:"), m_progress);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_launchButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resumeButton);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_message);

    for (const QString& path : SpecCatalog::specFiles(SpecCatalog::examplesDir())) {
        m_combo->addItem(QFileInfo(path).completeBaseName(), path);
    }
    connect(m_combo, &QComboBox::currentIndexChanged, this, &JobPanel::loadSelected);
    connect(m_watch, &client::JobsWatch::jobStateChanged, this, &JobPanel::onJobStateChanged);
    connect(m_watch, &client::JobsWatch::metricReceived, this, &JobPanel::onMetric);
    connect(m_watch->connection(), &client::ServerConnection::ticketBecame, this,
            [this](const QString& ticket, const QString& jobId) {
                if (ticket == m_ticket) {
                    m_ticket.clear();
                    m_watch->follow(jobId);
                    adopt(jobId);
                }
            });

    m_state->setText(tr("none launched"));
    if (m_combo->count() == 0) {
        showMessage(tr("No example specs found in '%1'. Open a spec file (Ctrl+O) or set "
                       "TESSERA_EXAMPLES_DIR.")
                        .arg(SpecCatalog::examplesDir()),
                    true);
    }
    loadSelected();
}

QAction* JobPanel::resumeAction() const {
    return m_resume->action();
}

void JobPanel::setStore(MetricStore* store) {
    m_resume->setStore(store);
}

void JobPanel::offerResume(const QString& jobId) {
    m_resume->setCandidate(jobId);
}

bool JobPanel::addSpecFile(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile()) {
        showMessage(tr("Spec file '%1' does not exist; check the path.").arg(path), true);
        return false;
    }
    const QString abs = info.absoluteFilePath();
    int index = m_combo->findData(abs);
    if (index < 0) {
        m_combo->addItem(info.completeBaseName(), abs);
        index = m_combo->count() - 1;
    }
    if (m_combo->currentIndex() == index) {
        loadSelected();
    } else {
        m_combo->setCurrentIndex(index);
    }
    return true;
}

bool JobPanel::selectSpec(const QString& fragment) {
    for (int i = 0; i < m_combo->count(); ++i) {
        if (QFileInfo(m_combo->itemData(i).toString())
                .fileName()
                .contains(fragment, Qt::CaseInsensitive)) {
            m_combo->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QString JobPanel::currentSpecPath() const {
    return m_combo->currentData().toString();
}

QString JobPanel::messageText() const {
    return m_message->text();
}

QString JobPanel::progressText() const {
    return m_progress->text();
}

void JobPanel::launch() {
    if (!m_spec) {
        const QString error = tr("No valid spec selected: pick one from the list or open a file.");
        showMessage(error, true);
        Q_EMIT launchFailed(error);
        return;
    }
    if (m_submitting) { // one launch at a time
        showMessage(tr("A launch waits for the server's answer; launch again once it came."),
                    false);
        return;
    }
    m_submitting = true;
    updateActions();
    const QString name = m_combo->currentText();
    m_state->setText(tr("submitting %1…").arg(name));
    m_watch->connection()->submit(jobSpecToJson(*m_spec),
                                  [this, name](Result<tessera::backend::v1::SubmitJobReply> reply) {
                                      onSubmitted(name, reply);
                                  });
}

void JobPanel::onSubmitted(const QString& name,
                           const Result<tessera::backend::v1::SubmitJobReply>& reply) {
    m_submitting = false;
    updateActions();
    if (!reply) {
        m_state->setText(m_jobId.isEmpty()
                             ? tr("none launched")
                             : QStringLiteral("%1 — %2").arg(m_jobId, jobStateText(m_jobState)));
        adopt(std::unexpected(reply.error()));
        return;
    }
    const QString id = QString::fromStdString(reply->job_id());
    if (reply->queued()) {
        // The job list may have said what became of the ticket before this answer came.
        if (const QString job = m_watch->connection()->becameOf(id); !job.isEmpty()) {
            m_watch->follow(job);
            adopt(job);
            return;
        }
        if (m_watch->state(id) == JobState::Failed) {
            adopt(fail(ErrorCode::Unavailable, m_watch->reason(id).toStdString()));
            return;
        }
        m_ticket = id;
        m_state->setText(tr("waiting for machines (%1)").arg(m_ticket));
        showMessage(
            tr("%1 waits for the machines auto-provision rents for it; see the log.").arg(name),
            false);
        return;
    }
    m_watch->follow(id);
    adopt(id);
}

void JobPanel::adopt(const Result<QString>& id) {
    if (!id) {
        const QString error =
            tr("Launch failed: %1").arg(QString::fromStdString(id.error().message));
        showMessage(error, true);
        Q_EMIT launchFailed(error);
        return;
    }
    m_jobId = *id;
    m_jobState = JobState::Queued;
    m_progress->clear();
    m_testAccuracy = -1.0;
    m_trainProgress.clear();
    m_state->setText(QStringLiteral("%1 — %2").arg(m_jobId, jobStateText(m_jobState)));
    showMessage(tr("Submitted %1 as job %2.").arg(m_combo->currentText(), m_jobId), false);
    m_resume->setCandidate(m_jobId);
    updateActions();
    Q_EMIT jobLaunched(m_jobId);
    // The job list may have named it, and its feed said its first states, before the server's
    // answer to the launch came: take them up.
    if (const JobState now = m_watch->state(m_jobId); now != JobState::Queued) {
        onJobStateChanged(m_jobId, now, m_watch->reason(m_jobId));
    }
}

void JobPanel::cancel() {
    if (m_jobId.isEmpty() || isTerminal(m_jobState)) {
        return;
    }
    const QString id = m_jobId;
    showMessage(tr("Cancelling job %1…").arg(id), false);
    m_watch->connection()->cancel(id, [this, id](Result<void> done) {
        if (!done) {
            showMessage(
                tr("Cannot cancel %1: %2").arg(id, QString::fromStdString(done.error().message)),
                true);
        }
    });
}

void JobPanel::openSpecDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open job spec"), SpecCatalog::examplesDir(), tr("Job specs (*.json)"));
    if (!path.isEmpty()) {
        addSpecFile(path);
    }
}

void JobPanel::loadSelected() {
    m_spec.reset();
    const QString path = currentSpecPath();
    if (path.isEmpty()) {
        m_summary->clear();
        updateActions();
        return;
    }
    Result<v1::JobSpec> spec = loadJobSpec(path.toStdString());
    if (!spec) {
        m_summary->setPlainText(QString::fromStdString(spec.error().message));
        showMessage(
            tr("Cannot use this spec: %1").arg(QString::fromStdString(spec.error().message)), true);
    } else {
        m_spec = std::move(*spec);
        m_summary->setPlainText(SpecSummary::text(*m_spec));
        m_message->clear();
    }
    updateActions();
}

void JobPanel::onJobStateChanged(const QString& jobId, JobState state, const QString& reason) {
    if (!m_ticket.isEmpty() && jobId == m_ticket && state == JobState::Failed) {
        m_ticket.clear(); // the server could not rent the machines, or gave up waiting
        adopt(fail(ErrorCode::Unavailable, reason.toStdString()));
        return;
    }
    if (jobId != m_jobId) {
        return;
    }
    m_jobState = state;
    QString text = QStringLiteral("%1 — %2").arg(m_jobId, jobStateText(state));
    m_state->setText(text);
    if (state == JobState::Failed) {
        showMessage(tr("Job %1 failed: %2").arg(m_jobId, reason), true);
    } else if (isTerminal(state)) {
        showMessage(tr("Job %1 %2.").arg(m_jobId, jobStateText(state)), false);
    }
    updateActions();
    Q_EMIT currentJobStateChanged(state);
}

void JobPanel::onMetric(const MetricPoint& point) {
    if (point.jobId != m_jobId) {
        return;
    }
    const auto& v = point.values;
    if (v.contains(QStringLiteral("loss"))) {
        // What the point has: a program's own lines may carry no epoch or throughput.
        m_trainProgress = tr("step %1").arg(point.step);
        if (v.contains(QStringLiteral("epoch"))) {
            m_trainProgress +=
                tr(" · epoch %1").arg(QLocale().toString(v.value(QStringLiteral("epoch")), 'f', 2));
        }
        m_trainProgress +=
            tr(" · loss %1").arg(QLocale().toString(v.value(QStringLiteral("loss")), 'f', 4));
        if (v.contains(QStringLiteral("samples_per_s"))) {
            m_trainProgress +=
                tr(" · %1 samples/s")
                    .arg(QLocale().toString(v.value(QStringLiteral("samples_per_s")), 'f', 0));
        } else if (v.contains(QStringLiteral("tokens_per_s"))) {
            m_trainProgress +=
                tr(" · %1 tokens/s")
                    .arg(QLocale().toString(v.value(QStringLiteral("tokens_per_s")), 'f', 0));
        }
    }
    if (v.contains(QStringLiteral("test_accuracy"))) {
        m_testAccuracy = v.value(QStringLiteral("test_accuracy"));
    }
    QString text = m_trainProgress;
    if (m_testAccuracy >= 0.0) {
        text += tr(" · test accuracy %1").arg(QLocale().toString(m_testAccuracy, 'f', 3));
    }
    m_progress->setText(text);
}

void JobPanel::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    Q_EMIT message(text);
}

void JobPanel::updateActions() {
    const bool active = !m_jobId.isEmpty() && !isTerminal(m_jobState);
    m_launchAction->setEnabled(m_spec.has_value() && !m_submitting);
    m_launchButton->setEnabled(m_spec.has_value() && !m_submitting);
    m_cancelAction->setEnabled(active);
    m_cancelButton->setEnabled(active);
}

} // namespace tessera
