// TensorBoard's scalar smoothing: a debiased exponential moving average, computed point by point
// so a live chart extends its smoothed curve without recomputing it.
#pragma once

#include <QtGlobal>

namespace tessera {

/// Debiased EMA as TensorBoard draws it (tensorboard/components/vz_line_chart2/line-chart.ts,
/// resmoothDataset): last = last·w + (1 − w)·y; smoothed = last / (1 − w^n) after n finite
/// points. w = 0 draws the raw values; w → 1 smooths more. Non-finite values pass through
/// unchanged and do not enter the average.
class EmaSmoother {
public:
    /// `weight` is clamped to [0, 0.999].
    explicit EmaSmoother(double weight = 0.6) { setWeight(weight); }

    void setWeight(double weight);
    double weight() const { return m_weight; }

    /// The smoothed value for the next raw value `y` (same unit as y).
    double add(double y);
    /// Forgets every value (the next add() starts a new curve).
    void reset();

private:
    double m_weight = 0.6;
    double m_last = 0;
    qint64 m_count = 0;
};

} // namespace tessera
