// The designer's document: one tessera.v1.PlanFile (model, machines, layout, settings, job) and
// what the planner makes of it (PlanModel, PlanCluster, PlanOptions). Every edit goes through
// the undo stack as a PlanEditCommand, so Ctrl+Z/Ctrl+Shift+Z undo and redo all of them.
#pragma once

#include "backend/layout/layoutmath.h"
#include "backend/planner/planner.h"
#include "tessera/v1/plan.pb.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>

namespace tessera::designer {

/// The plan being edited. Lives in the GUI thread; building the model/cluster is cheap (a config
/// parse at most) and happens only when those parts change.
class PlanDocument : public QObject {
    Q_OBJECT
public:
    explicit PlanDocument(QObject* parent = nullptr);

    /// The current plan.
    const v1::PlanFile& file() const { return m_file; }
    /// The model the planner sees; nullptr when it cannot be built (see modelError()).
    const planner::PlanModel* model() const { return m_model ? &*m_model : nullptr; }
    /// Why model() is null ("no model chosen", the planner's message for a bad config).
    QString modelError() const { return m_modelError; }
    /// The machines of the plan (nodes in order; ranks fill them node by node).
    const planner::PlanCluster& cluster() const { return m_cluster; }
    /// Number of layers of the model (0 without a model).
    int layerCount() const;
    /// The planner's options from the plan's settings (defaults for zero fields).
    planner::PlanOptions options() const;
    /// The layout with an explicit stage list (one stage of every layer when the file has none).
    v1::Layout layout() const;
    /// rank → device as drawn (effectiveRankDevices: PlanFile.rank_devices when valid, else
    /// rank r on device r).
    std::vector<int> rankDevices() const;
    /// What device `device` (cluster-wide index, node by node) runs as drawn; rank -1 = idle.
    DeviceRole roleOf(int device) const;

    QUndoStack* undoStack() { return &m_undo; }

    /// Makes `next` the plan through an undoable command named `text`. Consecutive edits with
    /// the same `mergeId` >= 0 merge into one undo step (spin-box arrows). No-op when equal. An
    /// edit that changes the degrees, the stage count, the model or the machines but keeps
    /// rank_devices as it was clears it (rank r on device r again).
    void edit(const v1::PlanFile& next, const QString& text, int mergeId = -1);
    /// Replaces the plan without undo history (New, Open); clears the undo stack.
    void reset(const v1::PlanFile& file);
    /// Sets the plan and emits changed(); used by the undo commands. Prefer edit().
    void setFile(const v1::PlanFile& file);

    /// Path the plan was last opened from or saved to; empty for a new plan.
    QString path() const { return m_path; }
    /// Sets the path; emits pathChanged when it differs.
    void setPath(const QString& path) {
        if (path != m_path) {
            m_path = path;
            Q_EMIT pathChanged(m_path);
        }
    }

Q_SIGNALS:
    /// The plan changed (any part). modelChanged/clusterChanged precede it when those changed.
    void changed();
    void modelChanged();
    void clusterChanged();
    /// The plan's file changed (Open, Save as, New layout); empty = none.
    void pathChanged(const QString& path);

private:
    void rebuildModel();
    void rebuildCluster();

    v1::PlanFile m_file;
    std::optional<planner::PlanModel> m_model;
    QString m_modelError;
    planner::PlanCluster m_cluster;
    QUndoStack m_undo; ///< a child of the document, so findChildren() reaches it
    QString m_path;
};

/// True when the two plans' model parts (model spec, config text, sequence length) are equal.
bool sameModel(const v1::PlanFile& a, const v1::PlanFile& b);

} // namespace tessera::designer
