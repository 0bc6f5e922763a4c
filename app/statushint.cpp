// The status bar's hint (see statushint.h).
#include "app/statushint.h"

#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/designerpanel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"

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

StatusHint::StatusHint(MainWindow* window) : QLabel(window), m_window(window) {
    setObjectName(QStringLiteral("statusHint"));
    setTextInteractionFlags(Qt::NoTextInteraction);
    window->statusBar()->addWidget(this, 1);
    for (QAction* a : window->findChildren<QAction*>()) {
        QString plain = a->text();
        plain.remove(QLatin1Char('&'));
        if (a->statusTip().isEmpty() && !a->toolTip().isEmpty() && a->toolTip() != plain) {
            a->setStatusTip(a->toolTip());
        }
    }
    if (auto* tabs = window->findChild<QTabWidget*>(QStringLiteral("centralTabs"))) {
        connect(tabs, &QTabWidget::currentChanged, this, &StatusHint::refresh);
    }
    ClusterTableModel* nodes = window->clusterPanel()->model();
    connect(nodes, &QAbstractItemModel::dataChanged, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::rowsInserted, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::rowsRemoved, this, &StatusHint::refresh);
    connect(nodes, &QAbstractItemModel::modelReset, this, &StatusHint::refresh);
    // The Job panel enables Launch and Cancel as its job starts and ends.
    JobPanel* jobs = window->jobPanel();
    connect(jobs->launchAction(), &QAction::changed, this, &StatusHint::refresh);
    connect(jobs->cancelAction(), &QAction::changed, this, &StatusHint::refresh);
    connect(jobs, &JobPanel::jobLaunched, this, &StatusHint::refresh);
    connect(jobs, &JobPanel::currentJobStateChanged, this, &StatusHint::refresh);
    refresh();
}

QString StatusHint::hint() const {
    const auto* tabs = m_window->findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    const JobPanel* jobs = m_window->jobPanel();
    if (tabs && m_window->designer() && tabs->currentWidget() == m_window->designer()) {
        return tr("Designer: drag layers onto a device to make them its pipeline stage; Ctrl+Z "
                  "undoes, the Designer menu saves and launches the layout.");
    }
    const QString jobId = jobs->currentJobId();
    if (!jobId.isEmpty() && !isTerminal(jobs->currentJobState())) {
        return tr("Job %1 is %2: loss and accuracy arrive in the charts, its output in the Log; "
                  "Cancel (%3) stops it.")
            .arg(jobId, jobStateText(jobs->currentJobState()), keys(jobs->cancelAction()));
    }
    const int ready = m_window->clusterPanel()->model()->readyCount();
    if (ready == 0) {
        return tr("Rent local workers (%1) or machines (%2), pick a spec, then Launch (%3).")
            .arg(keys(m_window->clusterPanel()->rentAction()), keys(m_window->rentMachinesAction()),
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
