// Main window: wires the cluster panel (left), chart and layout designer (centre tabs), job panel
// (right) and log pane (bottom) to the backend and to menus / toolbar with shortcuts. No logic of
// its own.
#pragma once

#include <QMainWindow>

class QAction;

namespace tessera {

class AppSession;
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
namespace designer {
class DesignerPanel;
}
namespace v1 {
class JobSpec;
}

/// The app's window over `session` (which must outlive it).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(AppSession* session, QWidget* parent = nullptr);

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

private:
    /// The log pane under its rank filter, for the Log dock.
    QWidget* logWithFilter();
    void createDocks();
    void createMenusAndToolbar();
    void connectBackend();
    void connectRuns();
    /// Shows job `id` in the monitor (charts, stage tooltips, pipeline rows, device roles) and
    /// asks the planner for its predicted pipeline; `live`: it runs, so its nodes' telemetry is
    /// drawn as it comes.
    void followJob(const QString& id, const v1::JobSpec& spec, bool live);

    AppSession* m_session;
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
};

} // namespace tessera
