// Tick labels that never run together: the number of ticks of a horizontal axis follows its
// width and the width of its labels.
#pragma once

#include "app/monitor/customplot.h"

#include <QRect>
#include <QVector>

namespace tessera {

/// QCustomPlot's readable ticks with short labels for large numbers: 12,000 reads "12k",
/// 1,500,000 "1.5M" (SI prefixes, in the axis's locale), so that more of them fit a narrow axis.
/// Numbers below 10,000 are as QCPAxisTicker writes them.
/// Its steps are rounded up to 1, 2, 2.5 or 5 × 10^n (QCPAxisTicker rounds to the closest), so
/// that asking for fewer ticks never yields more, and never labels closer than the count asked.
class CompactTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
    double getTickStep(const QCPRange& range) override;
};

/// QCPAxisTickerTime (seconds on the axis) whose steps from one second up are rounded up to
/// 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h or whole days, for the same
/// reason: 14 s asked in two ticks are 0 and 10 s, not 0, 5 and 10 s.
class RoundUpTimeTicker : public QCPAxisTickerTime {
protected:
    double getTickStep(const QCPRange& range) override;
};

/// The length in pixels of `axis` at the next replot: for a horizontal one its axis rect's inner
/// width, corrected for a viewport resized since the last layout; for a vertical one its height
/// at the last layout.
int axisPixels(const QCPAxis* axis);

/// Before every replot of `axis`'s plot, sets its ticker's tick count to the most (at most
/// `maxTicks`) whose labels, as the ticker generates them for the axis's range and length, stay at
/// least `gapPx` pixels apart (−1: 12 along a horizontal axis, 4 along a vertical one) and are two
/// or more; on an axis too short for that, half the gap; then one label. When the layout gives the
/// axis another length than the one fitted (a resize), one more replot follows at once. The ticker
/// the axis has at each replot is the one fitted; a QCPAxisTickerText is left alone.
void keepTickLabelsApart(QCPAxis* axis, int maxTicks = 6, int gapPx = -1);

/// Where `axis` drew its tick labels at the last replot (plot pixels), in axis order: each
/// label's text size centred on its tick (beside the axis rect). For tests and checks.
QVector<QRect> tickLabelRects(const QCPAxis* axis);

} // namespace tessera
