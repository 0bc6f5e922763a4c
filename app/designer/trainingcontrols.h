// The designer's second row of controls: what a layout trains with beyond its degrees — tokens
// per sequence, precision, activation recompute, sequence parallelism and FlashAttention — each
// change an undoable edit of the document, each one the planner's estimate and auto-plan read.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace tessera::designer {

class PlanDocument;

/// A row of labelled controls with Alt mnemonics. The sequence length applies to an imported
/// config.json (the built-ins' context is their spec's) and is disabled for a built-in model,
/// as are recompute, SP and FlashAttention, which tessera-train does not run.
class TrainingControls : public QWidget {
    Q_OBJECT
public:
    /// `document` must outlive the controls.
    explicit TrainingControls(PlanDocument* document, QWidget* parent = nullptr);

    QSpinBox* sequenceLength() const { return m_seq; }
    QComboBox* precision() const { return m_precision; }
    QComboBox* recompute() const { return m_recompute; }
    QCheckBox* sequenceParallel() const { return m_sp; }
    QComboBox* flashAttention() const { return m_flash; }
    QSpinBox* contextParallel() const { return m_cp; }
    QSpinBox* expertParallel() const { return m_ep; }

private:
    void refresh();
    void commit(int mergeId);

    PlanDocument* m_document;
    QSpinBox* m_seq;
    QComboBox* m_precision;
    QComboBox* m_recompute;
    QCheckBox* m_sp;
    QComboBox* m_flash;
    QSpinBox* m_cp;
    QSpinBox* m_ep;
};

} // namespace tessera::designer
