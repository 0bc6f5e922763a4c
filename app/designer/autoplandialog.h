// "Auto-plan…": runs planner::autoPlan() on a worker thread for the document's model and
// machines, lists the best few layouts with the reason each was ranked where it is, and applies
// the chosen one to the document as one undoable edit (the user keeps editing from there).
#pragma once

#include "backend/planner/planner.h"

#include <QDialog>
#include <QFutureWatcher>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace tessera::designer {

class PlanDocument;

/// Non-modal dialog over `document` (which must outlive it).
class AutoPlanDialog : public QDialog {
    Q_OBJECT
public:
    explicit AutoPlanDialog(PlanDocument* document, QWidget* parent = nullptr);
    ~AutoPlanDialog() override;

    /// Starts a search with the dialog's goal (no-op while one runs or without a model).
    void search();
    /// The candidates of the last search, best first.
    const std::vector<planner::RankedPlan>& results() const { return m_results; }
    /// Applies candidate `index` to the document (undoable); false when out of range.
    bool apply(int index);
    /// True while a search runs.
    bool searching() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    /// A search finished (results() holds its candidates).
    void searchFinished();

private:
    void onFinished();

    PlanDocument* m_document;
    QComboBox* m_goal;
    QSpinBox* m_steps;
    QDoubleSpinBox* m_deadline;
    QListWidget* m_list;
    QLabel* m_status;
    QPushButton* m_searchButton;
    QPushButton* m_applyButton;
    QFutureWatcher<Result<std::vector<planner::RankedPlan>>> m_watcher;
    std::vector<planner::RankedPlan> m_results;
};

/// "DP 2 × TP 8 × PP 2 (layers 0–21 | 22–42), 8 micro-batches, 1F1B".
QString describeLayout(const v1::Layout& layout);

} // namespace tessera::designer
