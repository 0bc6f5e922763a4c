// The visual layout designer (issue 4): the model's layers in a palette, the machines on a
// canvas, degree controls, a live estimate side panel, the pipeline's Gantt view, undo/redo,
// layout files, auto-plan and Launch. It wires the designer's parts together; each part lives
// in its own file.
#pragma once

#include "app/designer/calibrationcache.h"
#include "app/designer/estimaterunner.h"
#include "app/designer/modelcatalog.h"
#include "tessera/v1/plan.pb.h"

#include <QList>
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QGraphicsView;
class QLabel;
class QLineEdit;
class QListView;
class QToolBar;

namespace tessera {
class GanttView;
namespace client {
class ClusterView;
}
} // namespace tessera

namespace tessera::designer {

class AutoPlanDialog;
class ClusterScene;
class EstimatePanel;
class ExportDialog;
class LayerPaletteModel;
class LayoutControls;
class LayoutOutline;
class PlanDocument;
class ProgramLaunchDialog;
struct ProgramChoice;

/// The designer page. `cluster` (may be null) supplies the live cluster, a server's; it must
/// outlive the panel. Launch emits launchRequested with a spec file the Jobs panel then launches.
class DesignerPanel : public QWidget {
    Q_OBJECT
public:
    explicit DesignerPanel(client::ClusterView* cluster, QWidget* parent = nullptr);
    ~DesignerPanel() override;

    PlanDocument* document() const { return m_document; }
    ClusterScene* scene() const { return m_scene; }
    QGraphicsView* view() const { return m_view; }
    QListView* palette() const { return m_palette; }
    LayerPaletteModel* paletteModel() const { return m_paletteModel; }
    EstimatePanel* estimatePanel() const { return m_estimatePanel; }
    GanttView* gantt() const { return m_gantt; }
    LayoutControls* controls() const { return m_controls; }
    /// The stage × DP × TP outline beside the canvas (keyboard editing of the same document).
    LayoutOutline* outline() const { return m_outline; }
    EstimateRunner* runner() const { return m_runner; }
    QComboBox* modelCombo() const { return m_modelCombo; }
    QComboBox* deviceCombo() const { return m_deviceCombo; }
    QLineEdit* clusterEdit() const { return m_clusterEdit; }

    /// Every designer action (menus of the main window add them).
    QList<QAction*> designerActions() const;
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* launchAction() const { return m_launch; }
    QAction* assignAction() const { return m_assign; }

    // --- Unsaved changes (designerfile.cpp; importModel in designeractions.cpp) ---
    /// Asked before the plan is replaced (another model, Open, New layout) while it has unsaved
    /// changes; `what` names the action for the question ("open 'a.tessera-plan.json'").
    /// Returns false to keep the plan. Default: none, replace without asking.
    void setReplaceGuard(std::function<bool(const QString& what)> guard) {
        m_replaceGuard = std::move(guard);
    }
    /// True when the plan may be replaced now: no unsaved changes, or the guard agrees.
    bool mayReplacePlan(const QString& what);
    /// True when the plan has edits that are not saved (the undo stack is not clean).
    bool isModified() const;
    /// Saves to the layout's file, asking for a name when it has none; false when the person
    /// cancels the file dialog or the save fails (the reason is in the message line).
    bool saveLayout();
    /// Imports a Hugging Face config.json and chooses it (the entry already listed when the
    /// list plans the same model); false with the reason in the message line.
    bool importModel(const QString& path);
    /// Starts over with the start-up plan (the first model on one 8 × H100 machine, no file),
    /// once mayReplacePlan agrees; false when it did not.
    bool newLayout();

    /// Selects the model entry whose label contains `fragment` (case-insensitive).
    bool selectModel(const QString& fragment);
    /// Plans on `text` ("4x8 h100-sxm", optionally "@ 23.92/h": USD per node-hour); false
    /// (reason in the message line) when it is invalid.
    bool setHypotheticalCluster(const QString& text);
    /// Plans on the cluster's Ready workers; false when there are none.
    bool useLiveCluster();
    /// Assigns the palette's selected layers to `device` (the keyboard path of a drop).
    bool assignSelectionTo(int device);
    /// Writes / reads a layout file; false with the reason in the message line.
    bool saveFile(const QString& path);
    bool openFile(const QString& path);
    /// Writes the drawn layout as a job spec and emits launchRequested; false with the reason.
    bool launch();
    /// "Launch with program…": the drawn layout (any model, also an imported one) as a job of
    /// the user's own program; opens programDialog(), whose Launch calls launchWithProgram().
    QAction* launchProgramAction() const { return m_launchProgram; }
    /// Designer menu: PlanSettings.tp_comm_overlap (enabled with SP on an imported model).
    QAction* tpOverlapAction() const { return m_tpOverlap; }
    ProgramLaunchDialog* programDialog();
    /// Writes the layout's spec running `choice` (jobSpecForProgram) and emits launchRequested;
    /// false with the reason in the message line.
    bool launchWithProgram(const ProgramChoice& choice);
    /// The auto-plan dialog (created on first use).
    AutoPlanDialog* autoPlanDialog();
    /// "Export layout…": Megatron-LM / DeepSpeed / torchtitan text of the layout (created on
    /// first use).
    QAction* exportAction() const { return m_exportAction; }
    ExportDialog* exportDialog();
    /// Text of the inline message line.
    QString messageText() const;
    /// The canvas zoom (1 = device cards at their full size).
    double zoom() const;
    /// Multiplies the zoom by `factor` (clamped to [kMinZoom, kMaxZoom]); stops fitting.
    void zoomBy(double factor);
    /// Arranges and zooms the cluster to fill the view, and keeps doing so on resize.
    void zoomToFit();
    static constexpr double kMinZoom = 0.02, kMaxZoom = 2.0;

Q_SIGNALS:
    /// Launch: `specPath` holds the JobSpec of the drawn layout (for JobPanel::addSpecFile).
    void launchRequested(const QString& specPath);
    /// A line for the log pane.
    void message(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// The first time the page is shown with the plan still untouched, it plans on the live
    /// cluster when there are Ready workers (what a person opening the designer expects to see),
    /// else it keeps the hypothetical default machines.
    void showEvent(QShowEvent* event) override;

private:
    void createActions();
    /// Zoom in / out / Fit on the toolbar (Ctrl++, Ctrl+-, Ctrl+0; Ctrl+wheel on the canvas).
    void createZoomActions();
    void fitCanvas();
    QWidget* createPaletteColumn();
    void onModelChosen(int index);
    void onDocumentChanged();
    void onModelChanged();
    void onClusterChanged();
    /// Estimates `plan` (the document's, or a hovering drop's) off the GUI thread.
    void requestEstimate(const v1::PlanFile& plan, bool preview);
    void onEstimateReady();
    void showOutput(const EstimateOutput& output, const v1::PlanFile& plan);
    /// Draws `plan`'s roles (ranks, stages, layer strips) on the canvas.
    void showRoles(const v1::PlanFile& plan);
    /// The message line's text while a drag hovers (not logged); empty restores nothing.
    void setHint(const QString& text, bool error);
    void updateGantt(const v1::Layout& layout, double computeSeconds);
    void onDragHover(int device, int first, int last);
    void onDrop(int device, int first, int last);
    void showDeviceMenu(int device, const QPoint& screenPos);
    void refreshDeviceCombo();
    void syncModelCombo();
    void updateLaunch();
    void showMessage(const QString& text, bool error);
    void openDialog();
    /// Save / Save as: false when the person cancelled or the save failed.
    bool saveDialog(bool askPath);
    /// The start-up plan: the first model of the list on kDefaultCluster (designerfile.cpp).
    v1::PlanFile defaultPlan() const;
    void importDialog();
    /// Writes `spec` to the data folder's designer/ and emits launchRequested.
    bool launchSpec(const v1::JobSpec& spec, const QString& what);
    QStringList deviceLabels() const;

    client::ClusterView* m_cluster;
    CalibrationCache m_calibration; ///< tessera-ctl calibrate's fit, for live nodes
    bool m_shownOnce = false;
    std::function<bool(const QString& what)> m_replaceGuard; ///< see setReplaceGuard
    PlanDocument* m_document;
    QList<ModelEntry> m_models;
    LayerPaletteModel* m_paletteModel;
    ClusterScene* m_scene;
    EstimateRunner* m_runner;
    QToolBar* m_toolbar;
    QComboBox* m_modelCombo;
    QLineEdit* m_clusterEdit;
    LayoutControls* m_controls;
    QListView* m_palette = nullptr;
    QComboBox* m_deviceCombo = nullptr;
    LayoutOutline* m_outline = nullptr;
    QGraphicsView* m_view;
    GanttView* m_gantt;
    EstimatePanel* m_estimatePanel;
    QLabel* m_message;
    AutoPlanDialog* m_autoPlan = nullptr;
    QAction* m_launchProgram = nullptr;
    ProgramLaunchDialog* m_programDialog = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_tpOverlap = nullptr; ///< checkable: PlanSettings.tp_comm_overlap
    /// The TP-overlap action's check and enabled state from the document.
    void syncTpOverlap();
    ExportDialog* m_exportDialog = nullptr;
    QAction *m_undo, *m_redo, *m_open, *m_save, *m_saveAs, *m_import, *m_live, *m_autoPlanAction,
        *m_launch, *m_assign;
    EstimateOutput m_committed; ///< the estimate of the document's layout
    v1::PlanFile m_requestPlan; ///< plan of the newest estimate request
    bool m_previewing = false;
    bool m_hinting = false; ///< the message line shows a hover's hint
    bool m_autoFit = true;  ///< the canvas follows the view's size (until the person zooms)
    QAction *m_zoomIn = nullptr, *m_zoomOut = nullptr, *m_zoomFit = nullptr;
};

} // namespace tessera::designer
