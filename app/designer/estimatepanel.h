// The designer's side panel: the estimate's step time (with its compute / communication /
// bubble split), bubble fraction, throughput, MFU and cost, the per-device memory bars and the
// validation problems, updated on every edit and while a drag hovers over a device.
#pragma once

#include "backend/planner/planner.h"

#include <QStringList>
#include <QWidget>

class QFormLayout;
class QLabel;
class QListWidget;

namespace tessera::designer {

class MemoryBars;

/// Shows one estimate (or why there is none).
class EstimatePanel : public QWidget {
    Q_OBJECT
public:
    explicit EstimatePanel(QWidget* parent = nullptr);

    /// Shows `estimate` for a model with `seqLen` tokens per sample; `preview` marks a "what if
    /// dropped here" estimate; `labels` name the devices for the memory bars.
    void showEstimate(const planner::Estimate& estimate, int seqLen, bool preview,
                      const QStringList& labels);
    /// Shows that there is no estimate, and why (no model, bad cluster, planner error).
    void showUnavailable(const QString& reason);

    /// Text of the step-time label ("1.23 s" / "45.6 ms").
    QString stepTimeText() const;
    /// The memory bars (tests read their values).
    MemoryBars* memoryBars() const { return m_bars; }
    /// The validation messages shown.
    QStringList problems() const;

private:
    QLabel* addRow(QFormLayout* form, const QString& label, const char* name);

    QLabel* m_mode;
    QLabel* m_step;
    QLabel* m_split;
    QLabel* m_bubble;
    QLabel* m_throughput;
    QLabel* m_mfu;
    QLabel* m_cost;
    MemoryBars* m_bars;
    QListWidget* m_problems;
};

/// "1.23 s" / "45.6 ms" / "812 µs".
QString formatSeconds(double seconds);
/// "$1.23" / "$0.0042" (USD with enough digits to be non-zero).
QString formatUsd(double usd);

} // namespace tessera::designer
