// The status bar's hint (see statushint.h).
#include "app/statushint.h"

#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "backend/core/jobtypes.h"

#include <QAction>
#include <QKeySequence>
#include <QStatusBar>
#include <QTabWidget>

namespace tessera {

namespace {

/// `action`'s shortcut as the menus show it ("Ctrl+L"), for a hint.
QString keys(const QAction* action) {
    return action->shortcut().toString(QKeySequence::NativeText);
}

} // namespace

StatusHint::StatusHint(QStatusBar* statusBar, const Sources& sources)
    : QLabel(statusBar), m_sources(sources) {
    setObjectName(QStringLiteral("statusHint"));
    setTextInteractionFlags(Qt::NoTextInteraction);
    statusBar->addWidget(this, 1);
    if (m_sources.tabs) {
        connect(m_sources.tabs, &QTabWidget::currentChanged, this, &StatusHint::refresh);
    }
    ClusterTableModel* nodes = m_sources.nodes;
    connect(nodes, &QAbstractItemModel::dataChanged, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::rowsInserted, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::rowsRemoved, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::modelReset, this, &StatusHint::refresh);
    // The Job panel enables Launch and Cancel as its job starts and ends.
    JobPanel* jobs = m_sources.jobs;
    connect(jobs->launchAction(), &QAction::changed, this, &StatusHint::refresh);
    connect(jobs->cancelAction(), &QAction::changed, this, &StatusHint::refresh);
    connect(jobs, &JobPanel::jobLaunched, this, &StatusHint::refresh);
    connect(jobs, &JobPanel::currentJobStateChanged, this, &StatusHint::refresh);
    refresh();
}

void StatusHint::fillStatusTips(QObject* root) {
    for (QAction* a : root->findChildren<QAction*>()) {
        QString plain = a->text();
        plain.remove(QLatin1Char('&'));
        if (a->statusTip().isEmpty() && !a->toolTip().isEmpty() && a->toolTip() != plain) {
            a->setStatusTip(a->toolTip());
        }
    }
}

QString StatusHint::hint() const {
    const JobPanel* jobs = m_sources.jobs;
    if (m_sources.tabs && m_sources.designer &&
        m_sources.tabs->currentWidget() == m_sources.designer) {
        return tr("Designer: drag layers onto a device to make them its pipeline stage; Ctrl+Z "
                  "undoes, the Designer menu saves and launches the layout.");
    }
    const QString jobId = jobs->currentJobId();
    if (!jobId.isEmpty() && !isTerminal(jobs->currentJobState())) {
        return tr("Job %1 is %2: loss and accuracy arrive in the charts, its output in the Log; "
                  "Cancel (%3) stops it.")
            .arg(jobId, jobStateText(jobs->currentJobState()), keys(jobs->cancelAction()));
    }
    const int ready = m_sources.nodes->readyCount();
    if (ready == 0) {
        return tr("Rent local workers (%1) or machines (%2), pick a spec, then Launch (%3).")
            .arg(keys(m_sources.rentLocal), keys(m_sources.rentMachines),
                 keys(jobs->launchAction()));
    }
    if (!jobId.isEmpty()) {
        return tr("Job %1 %2. Launch again (%3), or double-click a run in Runs to look at it.")
            .arg(jobId, jobStateText(jobs->currentJobState()), keys(jobs->launchAction()));
    }
    return tr("%n worker(s) ready: pick a spec, then Launch (%1).", nullptr, ready)
        .arg(keys(jobs->launchAction()));
}

void StatusHint::refresh() {
    setText(hint());
}

} // namespace tessera
