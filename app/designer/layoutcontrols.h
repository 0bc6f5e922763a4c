// The designer's degree and schedule controls: data-parallel degree, tensor-parallel width (one
// for the whole layout: the engine runs one TP group size), micro-batches and their size,
// pipeline schedule, ZeRO stage and global batch. Every change is an undoable edit of the document.
#pragma once

#include "tessera/v1/job.pb.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace tessera::designer {

class PlanDocument;

/// A row of labelled spin boxes and a schedule combo, each with an Alt mnemonic.
class LayoutControls : public QWidget {
    Q_OBJECT
public:
    /// `document` must outlive the controls.
    explicit LayoutControls(PlanDocument* document, QWidget* parent = nullptr);

    QSpinBox* dataParallel() const { return m_dp; }
    QSpinBox* tensorParallel() const { return m_tp; }
    QSpinBox* microBatches() const { return m_micro; }
    QComboBox* schedule() const { return m_schedule; }
    QSpinBox* zeroStage() const { return m_zero; }
    QSpinBox* globalBatch() const { return m_batch; }

private:
    void refresh();
    void commit(int mergeId);
    /// Cuts `layout`'s layers anew when the schedule switches into or out of interleaving: into
    /// 2 even model chunks per stage (chunk j on stage j mod PP), or back into PP even contiguous
    /// stages. Ranks and their devices stay (the world size does not change). Unchanged with one
    /// stage or fewer layers than pieces.
    static void rechunk(v1::Layout& layout, v1::PipelineSchedule next, int layers);

    PlanDocument* m_document;
    QSpinBox* m_dp;
    QSpinBox* m_tp;
    QSpinBox* m_micro;
    QComboBox* m_schedule;
    QSpinBox* m_zero;
    QSpinBox* m_batch;
    QLabel* m_microSize; ///< "×4": samples per micro-batch on each DP rank
};

} // namespace tessera::designer
