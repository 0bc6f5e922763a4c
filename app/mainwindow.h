// Main window: wires the cluster panel (left), chart and layout designer (centre tabs), job panel
// (right) and log pane (bottom) to the backend and to menus / toolbar with shortcuts. No logic of
// its own.
#pragma once

#include "app/question.h"

#include <QByteArray>
#include <QMainWindow>

class QAction;

namespace tessera {

class BackendSession;
class AutoscaleSettingsDialog;
class DeviceFeed;
class ClusterPanel;
class JobPanel;
class LogPane;
class MetricsChart;
class MonitorPanel;
class PipelinePredictor;
class RunList;
class RentDialog;
class WindowGuard;
namespace designer {
class DesignerPanel;
}
namespace v1 {
class JobSpec;
}
namespace client {
class ClusterView;
class JobsWatch;
class ServerConnection;
} // namespace client
class LinkBanner;

/// The app's window over `session` (which must outlive it), whose panels move to the control
/// API one by one (issue 48): those moved read `connection` (a client of the server that serves
/// `session`; null: the window serves it on a private socket itself, SessionLink). Its title names
/// the designer's layout file ("Untitled" before one is saved) with a modified mark; closing it,
/// Release workers and replacing an unsaved layout ask first (WindowGuard). Geometry and dock
/// layout are kept in QSettings ("mainWindow/geometry", "mainWindow/state") when the window closes
/// and restored when the next one opens.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(BackendSession* session, client::ServerConnection* connection = nullptr,
                        QWidget* parent = nullptr);
    /// Cuts its panels' connections to itself first: they are destroyed by QMainWindow's
    /// destructor, after this one, and what they emit meanwhile (the designer's undo stack says
    /// it is clean as it goes) must not reach a window that is no longer a MainWindow.
    ~MainWindow() override;

    /// The window's client of the server (its link, cluster, job list).
    client::ServerConnection* connection() const { return m_connection; }
    /// The server's running jobs, followed live: what the panels draw and log.
    client::JobsWatch* jobsWatch() const { return m_watch; }
    /// The bar that says the connection is lost (hidden while it is up).
    LinkBanner* linkBanner() const { return m_banner; }
    ClusterPanel* clusterPanel() const { return m_cluster; }
    JobPanel* jobPanel() const { return m_jobs; }
    MetricsChart* chart() const;
    MonitorPanel* monitor() const { return m_monitor; }
    RunList* runList() const { return m_runs; }
    LogPane* logPane() const { return m_log; }
    DeviceFeed* deviceFeed() const { return m_devices; }
    /// The layout designer page (null when the app was built without the planner).
    designer::DesignerPanel* designer() const { return m_designer; }
    /// "Rent machines…" (Ctrl+Shift+M): shows the Rent dialog.
    QAction* rentMachinesAction() const { return m_rentMachines; }
    /// The Rent dialog, made on first use (non-modal, kept while the window lives).
    RentDialog* rentDialog();
    /// "Auto-provision…": the autoscaler's settings (switch, budgets, node cap, idle timeout).
    QAction* autoscaleAction() const { return m_autoscale; }
    /// Its dialog, made on first use.
    AutoscaleSettingsDialog* autoscaleDialog();
    /// The questions before work is lost (tests answer them through setAsker).
    WindowGuard* guard() const { return m_guard; }
    /// Shorthand for guard()->setAsker(asker).
    void setAsker(Asker asker);
    /// "New layout" (Ctrl+N): the designer's start-up plan, after asking about unsaved changes.
    QAction* newLayoutAction() const { return m_newLayout; }

protected:
    /// Asks first (unsaved layout, running jobs); an accepted close saves the window's layout.
    void closeEvent(QCloseEvent* event) override;

private:
    /// The log pane under its rank filter, for the Log dock.
    QWidget* logWithFilter();
    void createDocks();
    void createMenusAndToolbar();
    void connectBackend();
    void connectRuns();
    /// Guards, title, window-wide designer shortcuts.
    void connectWorkGuards();
    /// "<file or Untitled>[*] — Tessera", modified while the layout has unsaved changes; for a
    /// server elsewhere " — user@HOST:PORT" follows.
    void updateTitle();
    /// A size for the first start that fits the screen; then the saved geometry and docks.
    void restoreLayout();
    void saveLayout() const;
    /// Shows job `id` in the monitor (charts, stage tooltips, pipeline rows, device roles) and
    /// asks the planner for its predicted pipeline; `live`: it runs, so its nodes' telemetry is
    /// drawn as it comes.
    void followJob(const QString& id, const v1::JobSpec& spec, bool live);
    /// Once the server placed the shown job (its spec in the job list names the nodes), its
    /// nodes' devices are drawn.
    void placeDevices(const QString& id);
    /// A job running on the server that this window did not launch: shown when the charts show
    /// no live job.
    void onJobFound(const QString& id);
    /// Asks the server to cancel job `id` (any job: the server refuses another user's unless
    /// this one is an admin); the log says what it answered.
    void cancelJob(const QString& id);

    BackendSession* m_session;
    client::ServerConnection* m_connection;
    client::ClusterView* m_clusterView;
    client::JobsWatch* m_watch;
    QString m_placed; ///< the job whose placement the device chart has
    LinkBanner* m_banner = nullptr;
    ClusterPanel* m_cluster;
    JobPanel* m_jobs;
    MonitorPanel* m_monitor;
    RunList* m_runs;
    LogPane* m_log;
    DeviceFeed* m_devices; ///< the utilisation chart's telemetry
    designer::DesignerPanel* m_designer = nullptr;
    PipelinePredictor* m_predictor = nullptr; ///< null without the designer (no planner)
    QAction* m_rentMachines = nullptr;
    RentDialog* m_rentDialog = nullptr;
    QAction* m_autoscale = nullptr;
    AutoscaleSettingsDialog* m_autoscaleDialog = nullptr;
    WindowGuard* m_guard = nullptr;
    QAction* m_newLayout = nullptr;
    QByteArray m_stateBeforeDesigner; ///< dock state when the Designer tab hid the side docks
    /// Version of saveState()'s dock layout; bumped when the docks change so much that an older
    /// saved state would misplace them.
    static constexpr int kDockStateVersion = 1;
};

} // namespace tessera
