// The designer page's actions: layout files, model and machine choice, auto-plan and Launch
// (DesignerPanel members; construction and the canvas wiring are in designerpanel.cpp).
#include "app/designer/autoplandialog.h"
#include "app/designer/designerpanel.h"
#include "app/designer/exportdialog.h"
#include "app/designer/plandocument.h"
#include "app/designer/planio.h"
#include "app/designer/programlaunchdialog.h"
#include "backend/client/clusterview.h"
#include "backend/core/paths.h"
#include "worker/common/spec_io.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSaveFile>
#include <QToolBar>

#include <google/protobuf/util/message_differencer.h>

namespace tessera::designer {

void DesignerPanel::createActions() {
    auto make = [this](QAction* action, const char* name, const QKeySequence& keys,
                       const QString& tip) {
        action->setObjectName(QLatin1String(name));
        action->setShortcut(keys);
        // Active while the focus is in the designer, so they never clash with the main window's.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(tip +
                           QStringLiteral(" (%1)").arg(keys.toString(QKeySequence::NativeText)));
        addAction(action);
        return action;
    };
    // Undo/Redo with fixed short texts (the toolbar stays narrow); the tooltip names the edit.
    QUndoStack* undo = m_document->undoStack();
    m_undo = make(new QAction(tr("&Undo"), this), "designerUndo", QKeySequence(tr("Ctrl+Z")),
                  tr("Undo the last edit of the layout"));
    m_redo = make(new QAction(tr("&Redo"), this), "designerRedo", QKeySequence(tr("Ctrl+Shift+Z")),
                  tr("Redo the edit undone last"));
    m_undo->setEnabled(false);
    m_redo->setEnabled(false);
    connect(m_undo, &QAction::triggered, undo, &QUndoStack::undo);
    connect(m_redo, &QAction::triggered, undo, &QUndoStack::redo);
    connect(undo, &QUndoStack::canUndoChanged, m_undo, &QAction::setEnabled);
    connect(undo, &QUndoStack::canRedoChanged, m_redo, &QAction::setEnabled);
    // The lambdas hold the actions, not `this`: the stack clears itself (and emits) when the
    // document, a child of this panel, is deleted after ~DesignerPanel has already run.
    connect(undo, &QUndoStack::undoTextChanged, m_undo, [action = m_undo](const QString& text) {
        action->setToolTip(
            tr("Undo: %1 (%2)").arg(text, action->shortcut().toString(QKeySequence::NativeText)));
    });
    connect(undo, &QUndoStack::redoTextChanged, m_redo, [action = m_redo](const QString& text) {
        action->setToolTip(
            tr("Redo: %1 (%2)").arg(text, action->shortcut().toString(QKeySequence::NativeText)));
    });
    m_open = make(new QAction(tr("Open layout…"), this), "designerOpen",
                  QKeySequence(tr("Ctrl+Shift+O")), tr("Open a *.tessera-plan.json layout file"));
    m_save = make(new QAction(tr("Save layout"), this), "designerSave", QKeySequence(tr("Ctrl+S")),
                  tr("Save the layout file"));
    m_saveAs = make(new QAction(tr("Save layout as…"), this), "designerSaveAs",
                    QKeySequence(tr("Ctrl+Shift+S")), tr("Save the layout under a new name"));
    m_import = make(new QAction(tr("Import config.json…"), this), "designerImport",
                    QKeySequence(tr("Ctrl+I")),
                    tr("Plan a Hugging Face model (GPT-2, LLaMA, Mistral) from its config.json"));
    m_live = make(new QAction(tr("Use live cluster"), this), "designerLive",
                  QKeySequence(tr("Ctrl+Shift+U")),
                  tr("Plan on the Ready workers of the Cluster panel"));
    m_autoPlanAction = make(new QAction(tr("Auto-plan…"), this), "designerAutoPlan",
                            QKeySequence(tr("Ctrl+Shift+P")),
                            tr("Search the fastest (or cheapest) layouts that fit"));
    m_exportAction = make(
        new QAction(tr("Export layout…"), this), "designerExport", QKeySequence(tr("Ctrl+Shift+E")),
        tr("Show the layout as Megatron-LM arguments, a DeepSpeed config and torchtitan TOML"));
    m_launch = make(new QAction(tr("Launch layout"), this), "designerLaunch",
                    QKeySequence(tr("Ctrl+Shift+L")), tr("Run the drawn layout as a job"));
    m_launchProgram = make(new QAction(tr("Launch with program…"), this), "designerLaunchProgram",
                           QKeySequence(tr("Ctrl+Alt+L")),
                           tr("Run your own program (PyTorch, …) over the drawn layout"));
    m_assign = make(new QAction(tr("Assign to device"), this), "designerAssign",
                    QKeySequence(tr("Ctrl+Return")),
                    tr("Assign the selected layers to the device chosen in the Device list"));
    // Not on the toolbar (the window's width is spoken for): the Designer menu holds it.
    m_tpOverlap = make(new QAction(tr("TP communication overlap"), this), "designerTpOverlap",
                       QKeySequence(tr("Ctrl+Alt+T")),
                       tr("Overlap the tensor-parallel all-gathers and reduce-scatters with the "
                          "GEMMs around them (Megatron-LM's --tp-comm-overlap; needs sequence "
                          "parallelism): only what those GEMMs cannot hide is exposed"));
    m_tpOverlap->setCheckable(true);
    connect(m_tpOverlap, &QAction::triggered, this, [this](bool on) {
        v1::PlanFile next = m_document->file();
        next.mutable_settings()->set_tp_comm_overlap(on);
        m_document->edit(next, on ? tr("Turn TP overlap on") : tr("Turn TP overlap off"));
    });
    connect(m_open, &QAction::triggered, this, &DesignerPanel::openDialog);
    connect(m_save, &QAction::triggered, this, [this] { saveDialog(false); });
    connect(m_saveAs, &QAction::triggered, this, [this] { saveDialog(true); });
    connect(m_import, &QAction::triggered, this, &DesignerPanel::importDialog);
    connect(m_live, &QAction::triggered, this, &DesignerPanel::useLiveCluster);
    connect(m_autoPlanAction, &QAction::triggered, this, [this] {
        AutoPlanDialog* dialog = autoPlanDialog();
        dialog->show();
        dialog->raise();
        dialog->search();
    });
    connect(m_exportAction, &QAction::triggered, this, [this] {
        ExportDialog* dialog = exportDialog();
        dialog->show();
        dialog->raise();
    });
    connect(m_launch, &QAction::triggered, this, &DesignerPanel::launch);
    connect(m_launchProgram, &QAction::triggered, this, [this] {
        ProgramLaunchDialog* dialog = programDialog();
        dialog->open(); // window-modal, returns at once
    });
    connect(m_assign, &QAction::triggered, this,
            [this] { assignSelectionTo(m_deviceCombo->currentIndex()); });
    for (QAction* a : {m_open, m_save, m_saveAs, m_undo, m_redo, m_import, m_live, m_autoPlanAction,
                       m_exportAction, m_launch, m_launchProgram}) {
        m_toolbar->addAction(a);
    }
    m_toolbar->insertSeparator(m_undo);
    m_toolbar->insertSeparator(m_import);
    m_toolbar->insertSeparator(m_autoPlanAction);
}

QList<QAction*> DesignerPanel::designerActions() const {
    return {m_open,   m_save,          m_saveAs,         m_undo,         m_redo,
            m_import, m_live,          m_autoPlanAction, m_exportAction, m_assign,
            m_launch, m_launchProgram, m_tpOverlap};
}

void DesignerPanel::onModelChosen(int index) {
    if (index < 0 || index >= m_models.size()) {
        return;
    }
    const ModelEntry& entry = m_models[index];
    v1::PlanFile next = m_document->file();
    if (entry.builtin) {
        next = planFromJobSpec(next, entry.spec);
    } else {
        next.set_name(entry.label.toStdString());
        next.clear_model();
        next.clear_job();
        next.set_hf_config_json(entry.config.toStdString());
        next.set_seq_len(0);
        v1::Layout layout; // a fresh layout: the old stage ranges belong to another model
        layout.set_data_parallel(1);
        layout.set_micro_batches(next.layout().micro_batches());
        layout.set_schedule(next.layout().schedule());
        *next.mutable_layout() = layout;
    }
    // Another model replaces the drawn layout: unsaved changes are asked about; No puts the
    // list back on the document's model.
    if (!google::protobuf::util::MessageDifferencer::Equals(next, m_document->file()) &&
        !mayReplacePlan(tr("switch the model to %1").arg(entry.label))) {
        syncModelCombo();
        return;
    }
    m_document->edit(next, tr("Set model to %1").arg(entry.label));
}

bool DesignerPanel::selectModel(const QString& fragment) {
    for (int i = 0; i < m_models.size(); ++i) {
        if (m_models[i].label.contains(fragment, Qt::CaseInsensitive)) {
            m_modelCombo->setCurrentIndex(i);
            onModelChosen(i);
            return true;
        }
    }
    return false;
}

void DesignerPanel::syncModelCombo() {
    using google::protobuf::util::MessageDifferencer;
    const v1::PlanFile& f = m_document->file();
    const QSignalBlocker block(m_modelCombo);
    for (int i = 0; i < m_models.size(); ++i) {
        const ModelEntry& e = m_models[i];
        const bool same = e.builtin ? f.hf_config_json().empty() &&
                                          MessageDifferencer::Equals(e.spec.model(), f.model())
                                    : f.hf_config_json() == e.config.toStdString();
        if (same) {
            m_modelCombo->setCurrentIndex(i);
            return;
        }
    }
    // A model from a layout file that is not in the list: add it, so the combo names it.
    ModelEntry e;
    e.label = tr("%1 (from the layout file)").arg(QString::fromStdString(f.name()));
    e.builtin = f.hf_config_json().empty();
    e.spec.mutable_model()->CopyFrom(f.model());
    e.spec.mutable_layout()->CopyFrom(f.layout());
    e.config = QString::fromStdString(f.hf_config_json());
    m_models.append(e);
    m_modelCombo->addItem(e.label);
    m_modelCombo->setCurrentIndex(m_modelCombo->count() - 1);
}

bool DesignerPanel::setHypotheticalCluster(const QString& text) {
    // "4x8 h100-sxm @ 23.92/h": the planner parses the machines, the designer the price.
    const QString machines = text.section(QLatin1Char('@'), 0, 0).trimmed();
    double price = 0;
    if (text.contains(QLatin1Char('@'))) {
        QString p = text.section(QLatin1Char('@'), 1).trimmed();
        p.remove(QLatin1Char('$'));
        p.remove(QRegularExpression(QStringLiteral("\\s*/\\s*h(our)?$")));
        bool ok = false;
        price = p.toDouble(&ok);
        if (!ok || price < 0) {
            showMessage(tr("Machines: '%1' is not a price; write it as '@ 23.92/h' (USD per "
                           "node-hour).")
                            .arg(text.section(QLatin1Char('@'), 1).trimmed()),
                        true);
            return false;
        }
    }
    Result<planner::PlanCluster> cluster =
        planner::parseHypotheticalCluster(machines.toStdString());
    if (!cluster) {
        showMessage(tr("Machines: %1").arg(QString::fromStdString(cluster.error().message)), true);
        return false;
    }
    for (planner::PlanNode& n : cluster->nodes) {
        n.pricePerHour = price;
    }
    v1::PlanFile next = m_document->file();
    next.clear_nodes();
    for (const v1::PlanNode& n : nodesFromCluster(*cluster)) {
        *next.add_nodes() = n;
    }
    m_document->edit(next, tr("Plan on %1").arg(text));
    showMessage(tr("Planning on %1.").arg(text), false);
    return true;
}

bool DesignerPanel::useLiveCluster() {
    const QList<v1::PlanNode> nodes =
        m_cluster ? nodesFromWorkers(m_cluster->readyNodes()) : QList<v1::PlanNode>{};
    if (nodes.isEmpty()) {
        showMessage(tr("No Ready workers: rent local workers in the Cluster panel (Ctrl+R) "
                       "first."),
                    true);
        return false;
    }
    v1::PlanFile next = m_document->file();
    next.clear_nodes();
    for (const v1::PlanNode& n : nodes) {
        *next.add_nodes() = n;
    }
    m_document->edit(next, tr("Plan on the live cluster"));
    showMessage(tr("Planning on the live cluster: %1 workers.").arg(nodes.size()), false);
    return true;
}

bool DesignerPanel::saveFile(const QString& path) {
    if (Result<void> r = savePlan(m_document->file(), path); !r) {
        showMessage(tr("Save failed: %1").arg(QString::fromStdString(r.error().message)), true);
        return false;
    }
    m_document->setPath(path);
    m_document->undoStack()->setClean();
    showMessage(tr("Saved the layout to %1.").arg(path), false);
    return true;
}

bool DesignerPanel::openFile(const QString& path) {
    Result<v1::PlanFile> plan = loadPlan(path);
    if (!plan) {
        showMessage(tr("Open failed: %1").arg(QString::fromStdString(plan.error().message)), true);
        return false;
    }
    if (!mayReplacePlan(tr("open %1").arg(QFileInfo(path).fileName()))) {
        return false;
    }
    m_document->reset(*plan);
    m_document->setPath(path);
    showMessage(tr("Opened %1.").arg(path), false);
    return true;
}

void DesignerPanel::updateLaunch() {
    const QString blocker = launchBlocker(m_document->file());
    m_launch->setEnabled(blocker.isEmpty());
    m_launch->setToolTip(blocker.isEmpty()
                             ? tr("Run the drawn layout as a job on the live cluster (%1)")
                                   .arg(m_launch->shortcut().toString(QKeySequence::NativeText))
                             : blocker);
}

bool DesignerPanel::launch() {
    Result<v1::JobSpec> spec = jobSpecFromPlan(m_document->file());
    if (!spec) {
        showMessage(tr("Cannot launch: %1").arg(QString::fromStdString(spec.error().message)),
                    true);
        return false;
    }
    return launchSpec(*spec, tr("the drawn layout"));
}

bool DesignerPanel::launchWithProgram(const ProgramChoice& choice) {
    Result<v1::JobSpec> spec = jobSpecForProgram(m_document->file(), choice);
    if (!spec) {
        showMessage(tr("Cannot launch: %1").arg(QString::fromStdString(spec.error().message)),
                    true);
        return false;
    }
    return launchSpec(*spec, tr("%1 over the drawn layout").arg(choice.program));
}

ProgramLaunchDialog* DesignerPanel::programDialog() {
    if (!m_programDialog) {
        m_programDialog = new ProgramLaunchDialog(this);
        connect(m_programDialog, &QDialog::accepted, this, [this] {
            if (auto c = m_programDialog->choice()) {
                launchWithProgram(*c);
            }
        });
    }
    return m_programDialog;
}

bool DesignerPanel::launchSpec(const v1::JobSpec& spec, const QString& what) {
    const QString dir = QDir(dataDir()).filePath(QStringLiteral("designer"));
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(
        QStringLiteral("layout-%1.json")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss-zzz"))));
    QSaveFile file(path);
    const std::string json = jobSpecToJson(spec);
    if (!file.open(QIODevice::WriteOnly) || file.write(json.data(), qint64(json.size())) < 0 ||
        !file.commit()) {
        showMessage(tr("Cannot write the job spec '%1': %2").arg(path, file.errorString()), true);
        return false;
    }
    showMessage(tr("Launching %1 (spec %2).").arg(what, path), false);
    Q_EMIT launchRequested(path);
    return true;
}

AutoPlanDialog* DesignerPanel::autoPlanDialog() {
    if (!m_autoPlan) {
        m_autoPlan = new AutoPlanDialog(m_document, this);
    }
    return m_autoPlan;
}

ExportDialog* DesignerPanel::exportDialog() {
    if (!m_exportDialog) {
        m_exportDialog = new ExportDialog(m_document, this);
    }
    return m_exportDialog;
}

void DesignerPanel::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open layout"), QFileInfo(m_document->path()).path(),
        tr("Layout files (*%1);;JSON (*.json)").arg(QLatin1String(kPlanSuffix)));
    if (!path.isEmpty()) {
        openFile(path);
    }
}

bool DesignerPanel::saveDialog(bool askPath) {
    QString path = m_document->path();
    if (askPath || path.isEmpty()) {
        path =
            QFileDialog::getSaveFileName(this, tr("Save layout"), path,
                                         tr("Layout files (*%1)").arg(QLatin1String(kPlanSuffix)));
        if (path.isEmpty()) {
            return false;
        }
        if (!path.endsWith(QLatin1String(".json"))) {
            path += QLatin1String(kPlanSuffix);
        }
    }
    return saveFile(path);
}

void DesignerPanel::importDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import config.json"), QString(),
                                                      tr("Hugging Face config (*.json)"));
    if (!path.isEmpty()) {
        importModel(path);
    }
}

bool DesignerPanel::importModel(const QString& path) {
    auto entry = ModelCatalog::importConfig(path);
    if (!entry) {
        showMessage(entry.error(), true);
        return false;
    }
    // The same model imported again (or one the list has already) is chosen, not listed twice.
    bool added = false;
    const int index = ModelCatalog::add(&m_models, *entry, &added);
    if (added) {
        m_modelCombo->addItem(m_models[index].label, m_models[index].path);
    }
    m_modelCombo->setCurrentIndex(index);
    onModelChosen(index);
    if (!m_document->model()) {
        showMessage(m_document->modelError(), true);
    } else if (!added) {
        showMessage(tr("%1 is in the model list already, as '%2'.")
                        .arg(QFileInfo(path).fileName(), m_models[index].label),
                    false);
    } else {
        // The import's outcome replaces any earlier message (an earlier refusal included).
        QString text = tr("Imported %1.").arg(m_models[index].label);
        if (!entry->warnings.isEmpty()) {
            text +=
                QLatin1Char(' ') + tr("Assumed: %1").arg(entry->warnings.join(QLatin1String("; ")));
        }
        showMessage(text, false);
    }
    return true;
}

} // namespace tessera::designer
