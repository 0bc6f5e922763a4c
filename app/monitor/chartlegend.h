// A chart legend that stays legible in a narrow pane: a row above the plot that wraps into as
// many rows as its entries need instead of squeezing them, with tooltips for shortened names.
#pragma once

#include <QObject>
#include <QString>

class QCustomPlot;
class QCPAbstractPlottable;
class QPoint;

namespace tessera {

/// Owns nothing but itself (a child of the plot). Puts the plot's legend in a row of its own
/// above the axes (no border, columns first) and, before every replot, sets its wrap to the most
/// columns whose entries fit the plot's width at their full size; each entry keeps its whole
/// text (a name longer than the plot is wide is the only thing QCustomPlot may still clip).
/// Hovering an entry shows its plottable's full name (setFullName) or its name.
class ChartLegend : public QObject {
    Q_OBJECT
public:
    explicit ChartLegend(QCustomPlot* plot);

    /// The ChartLegend of `plot`, or null.
    static ChartLegend* of(const QCustomPlot* plot);
    /// A longer text for `plottable`'s tooltip (and CSV export) than its legend name.
    static void setFullName(QCPAbstractPlottable* plottable, const QString& fullName);
    /// The full name given with setFullName, else the plottable's name.
    static QString fullName(const QCPAbstractPlottable* plottable);

    /// Sets the wrap for the plot's current width now (what the replot hook does).
    void fit();
    /// Columns per legend row after the last fit().
    int columns() const { return m_columns; }
    /// The tooltip for plot pixel `pos`: the full name of the legend entry there, or "".
    QString toolTipAt(const QPoint& pos) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QCustomPlot* m_plot;
    int m_columns = 0;
};

} // namespace tessera
