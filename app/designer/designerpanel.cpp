// The designer page: builds its parts and wires them to the document (see designerpanel.h).
// File, model, cluster and launch actions are in designeractions.cpp.
#include "app/designer/designerpanel.h"

#include "backend/client/clusterview.h"

#include "app/designer/clusterscene.h"
#include "app/designer/deviceitem.h"
#include "app/designer/drawnlayout.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/layerpaletteview.h"
#include "app/designer/layoutcontrols.h"
#include "app/designer/layoutoutline.h"
#include "app/designer/plandocument.h"
#include "app/designer/planio.h"
#include "app/designer/stagetimes.h"
#include "app/designer/trainingcontrols.h"
#include "app/gantt/ganttview.h"
#include "app/jobs/speccatalog.h"
#include "backend/layout/layoutmath.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QShowEvent>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>

namespace tessera::designer {

namespace {
constexpr const char* kDefaultCluster = "1x8 h100-sxm";
}

DesignerPanel::DesignerPanel(client::ClusterView* cluster, QWidget* parent)
    : QWidget(parent), m_cluster(cluster), m_document(new PlanDocument(this)),
      m_paletteModel(new LayerPaletteModel(this)), m_scene(new ClusterScene(this)),
      m_runner(new EstimateRunner(this)), m_toolbar(new QToolBar(this)),
      m_modelCombo(new QComboBox(this)), m_clusterEdit(new QLineEdit(this)),
      m_controls(new LayoutControls(m_document, this)), m_view(new QGraphicsView(m_scene, this)),
      m_gantt(new GanttView(this)), m_estimatePanel(new EstimatePanel(this)),
      m_message(new QLabel(this)) {
    setObjectName(QStringLiteral("designerPanel"));
    m_toolbar->setObjectName(QStringLiteral("designerToolBar"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_modelCombo->setObjectName(QStringLiteral("modelCombo"));
    m_modelCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_clusterEdit->setObjectName(QStringLiteral("clusterEdit"));
    m_clusterEdit->setPlaceholderText(tr("e.g. 4x8 h100-sxm @ 23.92/h"));
    m_clusterEdit->setToolTip(tr("Hypothetical machines: nodes × devices and a device kind "
                                 "(cpu, a100-40, a100-80, h100-sxm, h100-pcie, h200, b200, "
                                 "gb200, mi300x, l40s, rtx4090), optionally a price per "
                                 "node-hour (\"@ 23.92/h\"); press Enter"));
    m_view->setObjectName(QStringLiteral("clusterView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setDragMode(QGraphicsView::NoDrag);
    m_view->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_view->viewport()->installEventFilter(this);
    m_gantt->setObjectName(QStringLiteral("ganttView"));
    m_estimatePanel->setObjectName(QStringLiteral("estimatePanel"));
    m_message->setObjectName(QStringLiteral("designerMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    createActions();
    createZoomActions();
    m_view->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);

    auto* sourceRow = new QHBoxLayout;
    auto* modelLabel = new QLabel(tr("M&odel:"), this);
    modelLabel->setBuddy(m_modelCombo);
    auto* clusterLabel = new QLabel(tr("Mac&hines:"), this);
    clusterLabel->setBuddy(m_clusterEdit);
    sourceRow->addWidget(modelLabel);
    sourceRow->addWidget(m_modelCombo, 1);
    sourceRow->addSpacing(12);
    sourceRow->addWidget(clusterLabel);
    sourceRow->addWidget(m_clusterEdit, 1);

    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(m_view);
    centre->addWidget(m_gantt);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(createPaletteColumn());
    split->addWidget(centre);
    split->addWidget(m_estimatePanel);
    split->setStretchFactor(1, 1);
    split->setSizes({250, 800, 400});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_toolbar);
    layout->addLayout(sourceRow);
    layout->addWidget(m_controls);
    layout->addWidget(new TrainingControls(m_document, this));
    layout->addWidget(split, 1);
    layout->addWidget(m_message);

    connect(m_document, &PlanDocument::changed, this, &DesignerPanel::onDocumentChanged);
    syncTpOverlap();
    connect(m_document, &PlanDocument::modelChanged, this, &DesignerPanel::onModelChanged);
    connect(m_document, &PlanDocument::clusterChanged, this, &DesignerPanel::onClusterChanged);
    connect(m_runner, &EstimateRunner::ready, this, &DesignerPanel::onEstimateReady);
    connect(m_scene, &ClusterScene::dragHover, this, &DesignerPanel::onDragHover);
    connect(m_scene, &ClusterScene::layersDropped, this, &DesignerPanel::onDrop);
    connect(m_scene, &ClusterScene::deviceMenuRequested, this, &DesignerPanel::showDeviceMenu);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, [this] {
        const int device = m_scene->selectedDevice();
        if (device >= 0) {
            m_deviceCombo->setCurrentIndex(device);
        }
    });
    connect(m_modelCombo, &QComboBox::activated, this, &DesignerPanel::onModelChosen);
    connect(m_clusterEdit, &QLineEdit::returnPressed, this,
            [this] { setHypotheticalCluster(m_clusterEdit->text()); });

    const QString examples = SpecCatalog::examplesDir();
    m_models = ModelCatalog::load(examples, ModelCatalog::configDir(examples));
    for (const ModelEntry& e : m_models) {
        m_modelCombo->addItem(e.label, e.path);
    }
    m_document->reset(defaultPlan());
}

v1::PlanFile DesignerPanel::defaultPlan() const {
    v1::PlanFile initial;
    if (auto cluster = planner::parseHypotheticalCluster(kDefaultCluster)) {
        for (const v1::PlanNode& n : nodesFromCluster(*cluster)) {
            *initial.add_nodes() = n;
        }
    }
    if (!m_models.isEmpty()) {
        initial = planFromJobSpec(initial, m_models.first().spec);
    }
    return initial;
}

DesignerPanel::~DesignerPanel() = default;

void DesignerPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_shownOnce) {
        return;
    }
    m_shownOnce = true;
    const bool untouched = m_document->undoStack()->count() == 0 && m_document->path().isEmpty();
    if (untouched && m_cluster && !m_cluster->readyNodes().isEmpty()) {
        useLiveCluster();
        m_document->undoStack()->setClean(); // done for the person, not by them: nothing to save
    }
}

QWidget* DesignerPanel::createPaletteColumn() {
    auto* column = new QWidget(this);
    m_palette = new LayerPaletteView(column);
    m_palette->setObjectName(QStringLiteral("layerPalette"));
    m_palette->setModel(m_paletteModel);
    m_palette->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_palette->setDragEnabled(true);
    m_palette->setDragDropMode(QAbstractItemView::DragOnly);
    m_palette->setDefaultDropAction(Qt::CopyAction);
    m_palette->setIconSize(QSize(12, 12));
    m_palette->setUniformItemSizes(true);
    m_palette->setToolTip(tr("Drag a layer, or a Shift-selected range, onto a device to make it "
                             "that device's pipeline stage"));
    m_deviceCombo = new QComboBox(column);
    m_deviceCombo->setObjectName(QStringLiteral("deviceCombo"));
    connect(m_deviceCombo, &QComboBox::activated, this,
            [this](int index) { m_scene->selectDevice(index); });
    auto* assign = new QPushButton(tr("Assign"), column);
    assign->setObjectName(QStringLiteral("assignButton"));
    assign->setToolTip(m_assign->toolTip());
    connect(assign, &QPushButton::clicked, m_assign, &QAction::trigger);
    auto* paletteLabel = new QLabel(tr("&Layers:"), column);
    paletteLabel->setBuddy(m_palette);
    auto* deviceLabel = new QLabel(tr("De&vice:"), column);
    deviceLabel->setBuddy(m_deviceCombo);
    auto* assignRow = new QHBoxLayout;
    assignRow->addWidget(m_deviceCombo, 1);
    assignRow->addWidget(assign);
    m_outline = new LayoutOutline(m_document, column);
    connect(m_outline, &LayoutOutline::refused, this,
            [this](const QString& reason) { showMessage(reason, true); });
    auto* outlineLabel = new QLabel(tr("O&utline:"), column);
    outlineLabel->setBuddy(m_outline);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(paletteLabel);
    layout->addWidget(m_palette, 3);
    layout->addWidget(deviceLabel);
    layout->addLayout(assignRow);
    layout->addWidget(outlineLabel);
    layout->addWidget(m_outline, 2);
    return column;
}

void DesignerPanel::onModelChanged() {
    m_paletteModel->setModel(m_document->model(), m_document->layout());
    syncModelCombo();
}

void DesignerPanel::onClusterChanged() {
    m_autoFit = true; // other machines: see them whole
    m_scene->setCluster(m_document->cluster());
    showRoles(m_document->file());
    m_view->setSceneRect(m_scene->sceneRect());
    fitCanvas();
    // Identical hypothetical nodes read back as the text that makes them ("4x8 h100-sxm").
    const v1::PlanFile& f = m_document->file();
    bool uniform = f.nodes_size() > 0;
    for (const v1::PlanNode& n : f.nodes()) {
        uniform = uniform && n.hypothetical() && n.device() == f.nodes(0).device() &&
                  n.devices() == f.nodes(0).devices() &&
                  n.price_per_hour() == f.nodes(0).price_per_hour();
    }
    QString text;
    if (uniform) {
        text = QStringLiteral("%1x%2 %3")
                   .arg(f.nodes_size())
                   .arg(f.nodes(0).devices())
                   .arg(QString::fromStdString(f.nodes(0).device()));
        if (f.nodes(0).price_per_hour() > 0) {
            text += QStringLiteral(" @ %1/h").arg(f.nodes(0).price_per_hour());
        }
    }
    m_clusterEdit->setText(text);
}

void DesignerPanel::fitCanvas() {
    // Whole machines in sight: the nodes are arranged to fill the view, then zoomed to fit (at
    // most 1:1). After the person zooms, resizing keeps their zoom and arrangement.
    const QSize port = m_view->viewport()->size();
    if (port.isEmpty() || !m_autoFit) {
        return;
    }
    const double scale = m_scene->arrange(QSizeF(port));
    m_view->setSceneRect(m_scene->sceneRect());
    m_view->setTransform(QTransform::fromScale(scale, scale));
}

void DesignerPanel::zoomBy(double factor) {
    const double now = m_view->transform().m11();
    const double next = std::clamp(now * factor, kMinZoom, kMaxZoom);
    m_autoFit = false;
    m_view->setTransform(QTransform::fromScale(next, next));
}

void DesignerPanel::zoomToFit() {
    m_autoFit = true;
    fitCanvas();
}

double DesignerPanel::zoom() const {
    return m_view->transform().m11();
}

void DesignerPanel::createZoomActions() {
    auto make = [this](const QString& text, const char* name, const QKeySequence& keys,
                       const QString& tip) {
        auto* action = new QAction(text, this);
        action->setObjectName(QLatin1String(name));
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(tip +
                           QStringLiteral(" (%1)").arg(keys.toString(QKeySequence::NativeText)));
        addAction(action);
        m_toolbar->addAction(action);
        return action;
    };
    m_toolbar->addSeparator();
    m_zoomIn = make(tr("Zoom in"), "designerZoomIn", QKeySequence::ZoomIn,
                    tr("Enlarge the machines (also Ctrl+wheel)"));
    m_zoomOut = make(tr("Zoom out"), "designerZoomOut", QKeySequence::ZoomOut,
                     tr("Shrink the machines (also Ctrl+wheel)"));
    m_zoomFit = make(tr("Fit"), "designerZoomFit", QKeySequence(tr("Ctrl+0")),
                     tr("Arrange and zoom the machines to fill the view"));
    connect(m_zoomIn, &QAction::triggered, this, [this] { zoomBy(1.25); });
    connect(m_zoomOut, &QAction::triggered, this, [this] { zoomBy(1 / 1.25); });
    connect(m_zoomFit, &QAction::triggered, this, &DesignerPanel::zoomToFit);
}

bool DesignerPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        fitCanvas(); // window resized or splitter moved
    }
    if (watched == m_view->viewport() && event->type() == QEvent::Wheel) {
        const auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier && wheel->angleDelta().y() != 0) {
            zoomBy(wheel->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void DesignerPanel::syncTpOverlap() {
    const v1::PlanFile& file = m_document->file();
    const QSignalBlocker quiet(m_tpOverlap);
    m_tpOverlap->setChecked(file.settings().tp_comm_overlap());
    // Megatron-LM overlaps TP communication only with sequence parallelism, of imported models.
    m_tpOverlap->setEnabled(!file.hf_config_json().empty() && file.settings().sequence_parallel());
}

void DesignerPanel::onDocumentChanged() {
    syncTpOverlap();
    m_paletteModel->setLayout(m_document->layout());
    showRoles(m_document->file());
    refreshDeviceCombo();
    updateLaunch();
    m_previewing = false;
    requestEstimate(m_document->file(), false);
}

void DesignerPanel::showRoles(const v1::PlanFile& plan) {
    const int devices = m_document->cluster().deviceCount();
    std::vector<DeviceRole> roles =
        DrawnLayout::read(plan, m_document->layerCount(), devices).roles(devices);
    // Under EP each device holds a 1/EP slice of every MoE layer's routed experts.
    int experts = 0;
    if (const planner::PlanModel* model = m_document->model()) {
        for (const planner::PlanLayer& l : model->layers) {
            experts = std::max(experts, l.experts);
        }
    }
    const int ep = epDegree(plan.layout());
    if (experts > 0 && ep > 1 && experts % ep == 0) {
        for (DeviceRole& r : roles) {
            if (r.rank >= 0) {
                r.firstExpert = r.ep * (experts / ep);
                r.lastExpert = r.firstExpert + experts / ep - 1;
            }
        }
    }
    m_scene->setRoles(roles, m_document->layerCount());
}

void DesignerPanel::requestEstimate(const v1::PlanFile& plan, bool preview) {
    const planner::PlanModel* model = m_document->model();
    const v1::Layout layout = withExplicitStages(plan.layout(), m_document->layerCount());
    m_requestPlan = plan;
    if (!model || m_document->cluster().nodes.empty()) {
        m_committed = EstimateOutput{};
        m_committed.estimate = fail(ErrorCode::InvalidArgument,
                                    model ? tr("No machines: type some (e.g. 4x8 h100-sxm) or "
                                               "use the live cluster.")
                                                .toStdString()
                                          : m_document->modelError().toStdString());
        showOutput(m_committed, plan);
        return;
    }
    planner::PlanOptions options = m_document->options();
    options.rankDevices =
        effectiveRankDevices(plan, m_document->layerCount(), m_document->cluster().deviceCount());
    m_runner->request({*model, m_document->cluster(), layout, options, m_calibration.current()},
                      preview);
}

void DesignerPanel::onEstimateReady() {
    const EstimateOutput& out = m_runner->output();
    if (!out.preview) {
        m_committed = out;
    } else if (!m_previewing) {
        return; // the drag ended before its preview arrived
    }
    showOutput(out, m_requestPlan);
}

void DesignerPanel::showOutput(const EstimateOutput& output, const v1::PlanFile& plan) {
    const v1::Layout layout = withExplicitStages(plan.layout(), m_document->layerCount());
    if (!output.estimate) {
        m_estimatePanel->showUnavailable(QString::fromStdString(output.estimate.error().message));
        m_scene->setEstimate(nullptr);
        updateGantt(layout, 0);
        return;
    }
    const planner::PlanModel* model = m_document->model();
    m_estimatePanel->showEstimate(*output.estimate, model ? model->seqLen : 1, output.preview,
                                  deviceLabels());
    showRoles(plan); // a preview shows the ranks and stages it would give, too
    m_scene->setEstimate(&*output.estimate);
    updateGantt(layout, output.estimate->computeSeconds);
}

void DesignerPanel::updateGantt(const v1::Layout& layout, double computeSeconds) {
    PredictedPipeline p = predictPipeline(m_document->model(), layout, computeSeconds);
    m_gantt->setTimeline(std::move(p.boxes), p.stages, p.seconds,
                         tr("Pipeline schedule: %1, stages: %2, micro-batches: %3")
                             .arg(scheduleName(p.kind))
                             .arg(p.stages)
                             .arg(p.microBatches));
}

void DesignerPanel::onDragHover(int device, int first, int last) {
    if (device < 0) { // left every device: back to the document's estimate
        m_previewing = false;
        m_requestPlan = m_document->file();
        showOutput(m_committed, m_requestPlan);
        setHint(QString(), false);
        return;
    }
    const DropOutcome drop = dropLayers(m_document->file(), m_document->layerCount(),
                                        m_document->cluster().deviceCount(), device, first, last);
    m_scene->setDropPreview(device, drop.brief, !drop.refusal.isEmpty());
    if (!drop.refusal.isEmpty()) { // nothing to preview: the document's estimate stays
        m_previewing = false;
        showOutput(m_committed, m_document->file());
        setHint(drop.refusal, true);
        return;
    }
    setHint(tr("%1 on device %2: release to drop, Esc to cancel").arg(drop.brief).arg(device),
            false);
    m_previewing = true;
    requestEstimate(drop.plan, true);
}

void DesignerPanel::onDrop(int device, int first, int last) {
    m_previewing = false;
    setHint(QString(), false);
    const DropOutcome drop = dropLayers(m_document->file(), m_document->layerCount(),
                                        m_document->cluster().deviceCount(), device, first, last);
    if (!drop.refusal.isEmpty()) {
        showOutput(m_committed, m_document->file());
        showMessage(drop.refusal, true);
        return;
    }
    const QString name = deviceLabels().value(device, QString::number(device));
    const QString text = first == last
                             ? tr("Assign layer %1 to %2").arg(first).arg(name)
                             : tr("Assign layers %1–%2 to %3").arg(first).arg(last).arg(name);
    m_document->edit(drop.plan, text);
    m_scene->selectDevice(device);
}

void DesignerPanel::setHint(const QString& text, bool error) {
    // The message line without the log pane: a hover's refusal is not an event worth logging.
    if (text.isEmpty() && !m_hinting) {
        return;
    }
    m_hinting = !text.isEmpty();
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

bool DesignerPanel::assignSelectionTo(int device) {
    const QModelIndexList rows = m_palette->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        showMessage(tr("Select layers in the list first (Shift+arrows select a range)."), true);
        return false;
    }
    if (device < 0 || device >= m_scene->deviceCount()) {
        showMessage(tr("Pick a device to assign the layers to."), true);
        return false;
    }
    const auto [first, last] = LayerPaletteModel::rangeFromMime(
        std::unique_ptr<QMimeData>(m_paletteModel->mimeData(rows)).get());
    onDrop(device, first, last);
    return true;
}

void DesignerPanel::showDeviceMenu(int device, const QPoint& screenPos) {
    const DeviceRole role = m_document->roleOf(device);
    QMenu menu(this);
    if (role.rank >= 0) {
        QMenu* tp = menu.addMenu(tr("Tensor-parallel width (all stages)"));
        for (int width : {1, 2, 4, 8, 16}) {
            QAction* a = tp->addAction(QString::number(width));
            a->setCheckable(true);
            a->setChecked(tpWidth(m_document->layout()) == width);
            connect(a, &QAction::triggered, this, [this, width] {
                v1::PlanFile next = m_document->file();
                next.mutable_layout()->set_tensor_parallel(width);
                m_document->edit(next, tr("Set TP to %1").arg(width));
            });
        }
        QAction* remove = menu.addAction(tr("Remove stage %1").arg(role.stage));
        remove->setEnabled(stageCount(m_document->layout()) > 1);
        connect(remove, &QAction::triggered, this, [this, stage = role.stage] {
            v1::PlanFile next = m_document->file();
            next = removeDrawnStage(next, m_document->layerCount(),
                                    m_document->cluster().deviceCount(), stage);
            m_document->edit(next, tr("Remove stage %1").arg(stage));
        });
    }
    QAction* assign = menu.addAction(tr("Assign selected layers here"));
    connect(assign, &QAction::triggered, this, [this, device] { assignSelectionTo(device); });
    menu.exec(screenPos);
}

void DesignerPanel::refreshDeviceCombo() {
    const QStringList labels = deviceLabels();
    const int devices = m_document->cluster().deviceCount();
    const std::vector<DeviceRole> roles =
        DrawnLayout::read(m_document->file(), m_document->layerCount(), devices).roles(devices);
    const int keep = m_deviceCombo->currentIndex();
    const QSignalBlocker block(m_deviceCombo);
    m_deviceCombo->clear();
    for (int i = 0; i < labels.size(); ++i) {
        const DeviceRole r = i < int(roles.size()) ? roles[std::size_t(i)] : DeviceRole{};
        m_deviceCombo->addItem(r.rank < 0 ? tr("%1 (idle)").arg(labels[i])
                                          : tr("%1 · stage %2").arg(labels[i]).arg(r.stage));
    }
    m_deviceCombo->setCurrentIndex(std::clamp(keep, 0, int(labels.size()) - 1));
}

QStringList DesignerPanel::deviceLabels() const {
    QStringList labels;
    const int devices = m_document->cluster().deviceCount();
    const std::vector<DeviceRole> roles =
        DrawnLayout::read(m_document->file(), m_document->layerCount(), devices).roles(devices);
    int index = 0;
    for (const planner::PlanNode& n : m_document->cluster().nodes) {
        for (int d = 0; d < n.devices; ++d, ++index) {
            const int rank = index < int(roles.size()) ? roles[std::size_t(index)].rank : -1;
            labels << (rank < 0
                           ? tr("%1 #%2").arg(QString::fromStdString(n.name)).arg(d)
                           : tr("%1 #%2 r%3").arg(QString::fromStdString(n.name)).arg(d).arg(rank));
        }
    }
    return labels;
}

void DesignerPanel::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    Q_EMIT message(text);
}

QString DesignerPanel::messageText() const {
    return m_message->text();
}

} // namespace tessera::designer
