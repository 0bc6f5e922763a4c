// Main window: builds the panels and connects them to each other and to the backend.
#include "app/mainwindow.h"

#include "app/cluster/clusterpanel.h"
#include "app/connection/linkbanner.h"
#include "app/connection/sessionlink.h"
#include "app/designer/designerpanel.h"
#include "app/designer/plandocument.h"
#include "app/jobs/jobpanel.h"
#include "app/monitor/devicefeed.h"
#include "app/monitor/logpane.h"
#include "app/monitor/logrankfilter.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/pipelinepredictor.h"
#include "app/monitor/pipelineview.h"
#include "app/monitor/runlist.h"
#include "app/monitor/runsummary.h"
#include "app/monitor/utilizationchart.h"
#include "app/rent/costlabel.h"
#include "app/rent/rentdialog.h"
#include "app/settings/autoscalesettings.h"
#include "app/statushint.h"
#include "app/windowguard.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/client/clusterview.h"
#include "backend/client/jobswatch.h"
#include "backend/client/serverconnection.h"
#include "backend/client/telemetryfeed.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/service/backendsession.h"
#include "backend/telemetry/telemetrymonitor.h"
#include "worker/common/spec_io.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace tessera {

namespace {

/// Pipeline stage (rank) → "layers a–b" of a launched spec's pipeline, "layers a–b, c–d" for a
/// stage holding several model chunks (interleaved: chunk j on stage j mod stages); one stage
/// holding every layer when the layout has no stages: empty map, the tooltip then names none.
QMap<int, QString> stageLayers(const v1::JobSpec& spec) {
    QMap<int, QString> out;
    const int ranks = pipelineRanks(spec.layout());
    for (int i = 0; i < spec.layout().stages_size(); ++i) {
        const auto& st = spec.layout().stages(i);
        const int rank = i % ranks;
        if (!out.contains(rank)) {
            out.insert(rank,
                       MainWindow::tr("layers %1–%2").arg(st.first_layer()).arg(st.last_layer()));
        } else {
            out[rank] += QStringLiteral(", %1–%2").arg(st.first_layer()).arg(st.last_layer());
        }
    }
    return out;
}

} // namespace

MetricsChart* MainWindow::chart() const {
    return m_monitor->metricsChart();
}

namespace {

/// `connection`, or a client of `session` served by the window itself (SessionLink).
client::ServerConnection* connectionFor(BackendSession* session,
                                        client::ServerConnection* connection, QObject* window) {
    return connection ? connection : (new SessionLink(session, window))->connection();
}

/// The device samples of `connection`'s server's nodes, followed from now on.
client::TelemetryFeed* telemetryOf(client::ServerConnection* connection, QObject* window) {
    auto* feed = new client::TelemetryFeed(connection->client(), window);
    feed->start();
    return feed;
}

/// The cluster of `connection`'s server, kept current.
client::ClusterView* clusterOf(client::ServerConnection* connection, QObject* window) {
    auto* view = new client::ClusterView(window);
    view->follow(connection);
    return view;
}

} // namespace

MainWindow::MainWindow(BackendSession* session, client::ServerConnection* connection,
                       QWidget* parent)
    : QMainWindow(parent), m_session(session),
      m_connection(connectionFor(session, connection, this)),
      m_clusterView(clusterOf(m_connection, this)),
      m_watch(new client::JobsWatch(m_connection, this)),
      m_cluster(new ClusterPanel(m_clusterView, session->localWorkers(), this)),
      m_jobs(new JobPanel(m_watch, this)), m_monitor(new MonitorPanel(this)),
      m_runs(new RunList(session->store(), this)), m_log(new LogPane(this)),
      m_devices(new DeviceFeed(telemetryOf(m_connection, this), m_watch,
                               m_monitor->utilizationChart(), this)) {
    setWindowTitle(tr("Tessera"));
    setObjectName(QStringLiteral("mainWindow"));
    m_monitor->setObjectName(QStringLiteral("monitorPanel"));
    m_monitor->metricsChart()->setObjectName(QStringLiteral("metricsChart"));
    m_log->setObjectName(QStringLiteral("logPane"));
    // Centre: the training chart and the layout designer as tabs (Ctrl+Tab switches).
    m_designer = new designer::DesignerPanel(m_clusterView, this);
    m_predictor = new PipelinePredictor(this);
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("centralTabs"));
    // The charts scroll rather than hold the window above a laptop screen's height.
    auto* training = new QScrollArea(tabs);
    training->setObjectName(QStringLiteral("trainingPage"));
    training->setFrameShape(QFrame::NoFrame);
    training->setWidgetResizable(true);
    training->setWidget(m_monitor);
    tabs->addTab(training, tr("&Training"));
    tabs->addTab(m_designer, tr("&Designer"));
    // Above the tabs, the bar that says when the server cannot be reached.
    auto* centre = new QWidget(this);
    auto* column = new QVBoxLayout(centre);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_banner = new LinkBanner(m_connection, centre);
    column->addWidget(m_banner);
    column->addWidget(tabs, 1);
    setCentralWidget(centre);
    // The designer needs the width: the Cluster and Job docks step aside while it is shown and
    // come back as they were (View menu, Ctrl+1/Ctrl+2, shows them any time).
    connect(tabs, &QTabWidget::currentChanged, this, [this, tabs] {
        const bool designing = tabs->currentWidget() == m_designer;
        if (designing) {
            m_stateBeforeDesigner = saveState(kDockStateVersion); // kept if it closes now
        }
        for (const char* name : {"clusterDock", "jobDock", "runsDock"}) {
            auto* dock = findChild<QDockWidget*>(QLatin1String(name));
            if (designing) {
                dock->setProperty("visibleBeforeDesigner", !dock->isHidden());
                dock->hide();
            } else if (dock->property("visibleBeforeDesigner").toBool()) {
                dock->show();
            }
        }
    });
    createDocks();
    createMenusAndToolbar();
    connectBackend();
    connectWorkGuards();
    restoreLayout();
    if (!session->storeError().isEmpty()) {
        m_log->appendMessage(tr("History is off: %1").arg(session->storeError()));
    }
    if (!session->provisionError().isEmpty()) {
        m_log->appendMessage(tr("Renting: %1").arg(session->provisionError()));
    }
    // The status bar's hint: what to do next, action tips on hover.
    StatusHint::fillStatusTips(this);
    new StatusHint(statusBar(), {tabs, m_designer, m_cluster->model(), m_cluster->rentAction(),
                                 m_rentMachines, m_jobs});
    // What the leases cost and the budget's alert, as the server's snapshots say.
    statusBar()->addPermanentWidget(new CostLabel(m_clusterView, this));
}

MainWindow::~MainWindow() {
    for (QObject* child : findChildren<QObject*>()) {
        disconnect(child, nullptr, this, nullptr);
    }
}

QWidget* MainWindow::logWithFilter() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* row = new QHBoxLayout;
    auto* filter = new LogRankFilter(m_log, box);
    auto* label = new QLabel(tr("&Output of:"), box);
    label->setBuddy(filter);
    row->addWidget(label);
    row->addWidget(filter);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addWidget(m_log, 1);
    return box;
}

void MainWindow::createDocks() {
    auto dock = [this](QWidget* widget, const QString& title, const char* name,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    QDockWidget* cluster = dock(m_cluster, tr("Cluster"), "clusterDock", Qt::LeftDockWidgetArea);
    QDockWidget* job = dock(m_jobs, tr("Job"), "jobDock", Qt::RightDockWidgetArea);
    QDockWidget* log = dock(logWithFilter(), tr("Log"), "logDock", Qt::BottomDockWidgetArea);
    dock(m_runs, tr("Runs"), "runsDock", Qt::RightDockWidgetArea);
    resizeDocks({cluster, job}, {460, 300}, Qt::Horizontal);
    resizeDocks({log}, {180}, Qt::Vertical);
}

RentDialog* MainWindow::rentDialog() {
    if (!m_rentDialog) {
        m_rentDialog = new RentDialog(m_session->providers(), BackendSession::sshHostsPath(), this);
        connect(m_rentDialog, &RentDialog::message, m_log, &LogPane::appendMessage);
    }
    return m_rentDialog;
}

AutoscaleSettingsDialog* MainWindow::autoscaleDialog() {
    if (!m_autoscaleDialog) {
        m_autoscaleDialog = new AutoscaleSettingsDialog(m_clusterView, m_connection, this);
        connect(m_autoscaleDialog, &AutoscaleSettingsDialog::message, m_log,
                &LogPane::appendMessage);
    }
    return m_autoscaleDialog;
}

void MainWindow::createMenusAndToolbar() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_jobs->openAction());
    file->addSeparator();
    // The layout files of the Designer, from any tab.
    m_newLayout = new QAction(tr("&New layout"), this);
    m_newLayout->setObjectName(QStringLiteral("newLayoutAction"));
    m_newLayout->setShortcut(QKeySequence(tr("Ctrl+N")));
    m_newLayout->setToolTip(tr("Start the Designer over with the default model and machines"));
    connect(m_newLayout, &QAction::triggered, this, [this] {
        if (m_designer->newLayout()) {
            if (auto* tabs = findChild<QTabWidget*>(QStringLiteral("centralTabs"))) {
                tabs->setCurrentWidget(m_designer);
            }
        }
    });
    file->addAction(m_newLayout);
    for (const char* name : {"designerOpen", "designerSave", "designerSaveAs"}) {
        for (QAction* a : m_designer->designerActions()) {
            if (a->objectName() == QLatin1String(name)) {
                file->addAction(a);
            }
        }
    }
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(tr("Ctrl+Q")));

    QMenu* cluster = menuBar()->addMenu(tr("&Cluster"));
    m_rentMachines = new QAction(tr("Rent &machines…"), this);
    m_rentMachines->setObjectName(QStringLiteral("rentMachinesAction"));
    m_rentMachines->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    m_rentMachines->setToolTip(tr("Offers of every provider (SSH hosts, local workers): rent, "
                                  "watch the leases, release"));
    connect(m_rentMachines, &QAction::triggered, this, [this] {
        RentDialog* d = rentDialog();
        d->show();
        d->raise();
        d->activateWindow();
    });
    cluster->addAction(m_rentMachines);
    m_autoscale = new QAction(tr("&Auto-provision…"), this);
    m_autoscale->setObjectName(QStringLiteral("autoscaleAction"));
    m_autoscale->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
    m_autoscale->setToolTip(tr("Rent what a launched job is missing within a budget, and release "
                               "idle machines"));
    connect(m_autoscale, &QAction::triggered, this, [this] {
        AutoscaleSettingsDialog* d = autoscaleDialog();
        d->show();
        d->raise();
    });
    cluster->addAction(m_autoscale);
    cluster->addAction(m_cluster->rentAction());
    cluster->addAction(m_cluster->releaseAction());

    QMenu* job = menuBar()->addMenu(tr("&Job"));
    job->addAction(m_jobs->launchAction());
    job->addAction(m_jobs->cancelAction());
    job->addAction(m_jobs->resumeAction());

    menuBar()->addMenu(tr("De&signer"))->addActions(m_designer->designerActions());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Show/hide the panels: Ctrl+1 cluster, Ctrl+2 job, Ctrl+3 log, Ctrl+4 runs.
    const char* docks[] = {"clusterDock", "jobDock", "logDock", "runsDock"};
    for (int i = 0; i < 4; ++i) {
        auto* d = findChild<QDockWidget*>(QLatin1String(docks[i]));
        QAction* toggle = d->toggleViewAction();
        toggle->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        view->addAction(toggle);
    }

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addAction(m_rentMachines);
    bar->addAction(m_cluster->rentAction());
    bar->addAction(m_cluster->releaseAction());
    bar->addSeparator();
    bar->addAction(m_jobs->openAction());
    bar->addAction(m_jobs->launchAction());
    bar->addAction(m_jobs->cancelAction());
    bar->addAction(m_jobs->resumeAction());
}

void MainWindow::connectRuns() {
    // A job that starts or ends changes the list (state, last loss).
    connect(m_watch, &client::JobsWatch::jobStateChanged, m_runs, [this] { m_runs->refresh(); });
    // An overlay: the run's loss (its lowest rank's) and test accuracy, named by the run.
    connect(m_runs, &RunList::overlayLoaded, m_monitor,
            [this](const QString& id, const QString& label, const QList<MetricPoint>& points) {
                m_monitor->metricsChart()->addOverlayPoints(
                    id, label, points, RunText::headingText(m_runs->summary(id)));
            });
    connect(m_runs, &RunList::overlayRemoved, m_monitor->metricsChart(),
            &MetricsChart::removeOverlay);
    // Opening a past run shows its whole history as if it were arriving now.
    connect(m_runs, &RunList::opened, m_monitor,
            [this](const QString& id, const QList<MetricPoint>& points) {
                v1::JobSpec spec;
                if (auto s = parseJobSpec(m_session->store()->job(id).specJson.toStdString(),
                                          id.toStdString())) {
                    spec = *s;
                }
                followJob(id, spec,
                          m_watch->followed().contains(id) && !isTerminal(m_watch->state(id)));
                // The charts name the reopened run (the Job panel may show another one).
                m_monitor->describeRun(RunText::summarize(m_session->store()->job(id)));
                m_monitor->addHistory(id, points); // then the live points held meanwhile
                m_monitor->metricsChart()->replotNow();
                m_monitor->pipelineView()->replotNow();
                m_log->appendMessage(
                    tr("[%1] opened from the history: %2 point(s)").arg(id).arg(points.size()));
                m_jobs->offerResume(id); // Resume acts on the run shown
            });
    connect(m_runs, &RunList::telemetryOpened, m_devices,
            [this](const QString&, const QList<TelemetryRecord>& records) {
                m_devices->addRecorded(records);
                m_monitor->utilizationChart()->replotNow();
            });
    connect(m_runs, &RunList::attemptsOpened, m_monitor,
            [this](const QString& id, const QList<AttemptRecord>& attempts) {
                if (m_monitor->metricsChart()->jobId() != id) {
                    return;
                }
                for (const AttemptRecord& a : attempts) {
                    m_monitor->metricsChart()->addRecoveryMarker(a.resumeStep, a.attempt, a.cause);
                }
                m_monitor->metricsChart()->replotNow();
            });
    connect(m_runs, &RunList::cancelRequested, this, &MainWindow::cancelJob);
    connect(m_runs, &RunList::loadFailed, m_log, [this](const QString& id, const QString& error) {
        m_monitor->addHistory(id, {}); // the live points held for it, if any
        m_log->appendMessage(tr("[%1] cannot load the run: %2").arg(id, error));
    });
}

void MainWindow::followJob(const QString& id, const v1::JobSpec& spec, bool live) {
    const QMap<int, QString> layers = stageLayers(spec);
    m_monitor->showJob(id, layers);
    m_monitor->describeRun(RunText::summarize(id, spec, m_watch->state(id)));
    m_runs->setShownRun(id);
    m_placed.clear();
    m_devices->follow(id, spec, layers, live);
    m_predictor->predict(id, spec);
    placeDevices(id);
}

void MainWindow::placeDevices(const QString& id) {
    if (id != m_monitor->jobId() || m_placed == id) {
        return;
    }
    auto spec = parseJobSpec(m_watch->specJson(id).toStdString(), id.toStdString());
    if (!spec || placementNodes(*spec).isEmpty()) {
        return; // not placed yet (or a ticket): the next summary may say where
    }
    m_placed = id;
    m_devices->follow(id, *spec, stageLayers(*spec), !isTerminal(m_watch->state(id)));
}

void MainWindow::onJobFound(const QString& id) {
    m_log->appendMessage(
        tr("[%1] running on the server: following it from its first event").arg(id));
    if (!m_monitor->jobId().isEmpty() && !isTerminal(m_watch->state(m_monitor->jobId()))) {
        return; // the charts follow another live job
    }
    v1::JobSpec spec;
    if (auto s = parseJobSpec(m_watch->specJson(id).toStdString(), id.toStdString())) {
        spec = *s;
    }
    followJob(id, spec, true); // its feed replays its history into the charts, then goes live
}

void MainWindow::cancelJob(const QString& id) {
    m_log->appendMessage(tr("[%1] asking the server to cancel it").arg(id));
    m_connection->cancel(id, [this, id](Result<void> done) {
        if (!done) {
            m_log->appendMessage(
                tr("[%1] not cancelled: %2").arg(id, QString::fromStdString(done.error().message)));
        }
    });
}

void MainWindow::connectBackend() {
    connect(m_watch, &client::JobsWatch::metricReceived, m_monitor, &MonitorPanel::addPoint);
    connect(m_predictor, &PipelinePredictor::predicted, m_monitor,
            [this](const QString& jobId, const std::vector<GanttBox>& boxes, int stages,
                   bool seconds, const QString& title, const QString& emptyText) {
                if (jobId == m_monitor->pipelineView()->jobId()) { // not an older job's
                    m_monitor->pipelineView()->setPrediction(boxes, stages, seconds, title,
                                                             emptyText);
                }
            });
    connect(m_jobs, &JobPanel::jobLaunched, m_monitor, [this](const QString& id) {
        if (m_monitor->jobId() == id) {
            return; // shown already, as found in the job list
        }
        // The server's copy when the list has it (a ticket's job: the combo may show another
        // spec by now), else the spec launched.
        auto spec = parseJobSpec(m_watch->specJson(id).toStdString(), id.toStdString());
        if (!spec && m_jobs->currentSpec()) {
            spec = *m_jobs->currentSpec();
        }
        followJob(id, spec ? *spec : v1::JobSpec(), true);
    });
    connect(m_connection, &client::ServerConnection::jobChanged, this, &MainWindow::placeDevices);
    connect(m_watch, &client::JobsWatch::jobStateChanged, m_monitor,
            [this](const QString& id, JobState state) {
                m_monitor->setJobState(id, state); // ignores other jobs than the shown one
            });
    connect(m_monitor, &MonitorPanel::alertRaised, m_log, [this](const MonitorAlert& a) {
        m_log->appendMessage(tr("[%1] alert: %2").arg(a.jobId, a.text));
    });
    connectRuns();
    connect(m_watch, &client::JobsWatch::logLine, m_log, &LogPane::appendJobLine);
    connect(m_watch, &client::JobsWatch::jobStateChanged, m_log,
            [this](const QString& id, JobState state, const QString& reason) {
                m_log->appendJobState(id, jobStateText(state), reason);
            });
    connect(m_watch, &client::JobsWatch::jobFound, this, &MainWindow::onJobFound);
    // A managed job relaunched: its curve continues from the resume step, marked.
    connect(m_watch, &client::JobsWatch::jobRecovering, this,
            [this](const QString& id, int attempt, const QString& cause, qint64 resumeStep,
                   const QStringList& workers) {
                m_log->appendMessage(
                    tr("[%1] attempt %2 ended (%3); relaunched as attempt %4 on "
                       "%5, resuming after step %6")
                        .arg(id, QString::number(attempt - 1), cause, QString::number(attempt),
                             workers.join(QStringLiteral(", ")), QString::number(resumeStep)));
                if (m_monitor->metricsChart()->jobId() == id) {
                    m_monitor->metricsChart()->markRecovery(resumeStep, attempt, cause);
                }
            });
    connect(m_watch, &client::JobsWatch::watchInterrupted, m_log,
            [this](const QString& id, const QString& why) {
                m_log->appendMessage(
                    tr("[%1] the server's stream of this job broke (%2); opening it again")
                        .arg(id, why));
            });
    connect(m_watch, &client::JobsWatch::watchResumed, m_log,
            [this](const QString& id, quint64 fromSeq) {
                m_log->appendMessage(tr("[%1] following again from event %2").arg(id).arg(fromSeq));
            });
    connect(m_watch, &client::JobsWatch::watchEnded, m_log,
            [this](const QString& id, const QString& why) {
                m_log->appendMessage(tr("[%1] no longer followed: %2").arg(id, why));
            });
    connect(m_cluster, &ClusterPanel::message, m_log, &LogPane::appendMessage);
    connect(m_jobs, &JobPanel::message, m_log, &LogPane::appendMessage);
    m_jobs->setStore(m_session->store());
    connect(m_session->autoscaler(), &Autoscaler::decided, m_log,
            [this](const AutoscaleDecision& d) {
                m_log->appendMessage(tr("auto-provision: %1").arg(d.text));
            });
    connect(m_designer, &designer::DesignerPanel::message, m_log, &LogPane::appendMessage);
    // Launch from the designer goes through the job panel, the same path as its Launch button.
    connect(m_designer, &designer::DesignerPanel::launchRequested, this,
            [this](const QString& path) {
                if (m_jobs->addSpecFile(path)) {
                    m_jobs->launch();
                }
                if (auto* tabs = findChild<QTabWidget*>(QStringLiteral("centralTabs"))) {
                    tabs->setCurrentIndex(0); // Training
                }
            });
}

} // namespace tessera
