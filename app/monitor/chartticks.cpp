// Tick counts that fit the axis (see chartticks.h).
#include "app/monitor/chartticks.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <memory>

namespace tessera {

namespace {
constexpr int kFallbackMargins = 80; // px of axis labels before the first layout
} // namespace

QString CompactTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                                    int precision) {
    const double size = std::abs(tick);
    if (size >= 1e9) {
        return locale.toString(tick / 1e9, 'g', 4) + QLatin1Char('G');
    }
    if (size >= 1e6) {
        return locale.toString(tick / 1e6, 'g', 4) + QLatin1Char('M');
    }
    if (size >= 1e4) {
        return locale.toString(tick / 1e3, 'g', 4) + QLatin1Char('k');
    }
    return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
}

double CompactTicker::getTickStep(const QCPRange& range) {
    const double exact = range.size() / (tickCount() + 1e-10);
    if (!(exact > 0) || !std::isfinite(exact)) {
        return QCPAxisTicker::getTickStep(range);
    }
    double magnitude = 1;
    const double mantissa = getMantissa(exact, &magnitude);
    for (double nice : {1.0, 2.0, 2.5, 5.0}) {
        if (nice >= mantissa - 1e-9) {
            return nice * magnitude;
        }
    }
    return 10 * magnitude;
}

double RoundUpTimeTicker::getTickStep(const QCPRange& range) {
    const double exact = range.size() / (tickCount() + 1e-10);
    if (!(exact >= 1) || !std::isfinite(exact)) {
        return QCPAxisTickerTime::getTickStep(range);
    }
    static constexpr double kSteps[] = {1,   2,   5,    10,   15,   30,    60,    120,   300,
                                        600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    for (double step : kSteps) {
        if (step >= exact) {
            return step;
        }
    }
    return std::ceil(exact / 86400) * 86400;
}

int axisPixels(const QCPAxis* axis) {
    const QCPAxisRect* rect = axis->axisRect();
    const QCustomPlot* plot = axis->parentPlot();
    if (axis->orientation() == Qt::Vertical) { // the rows' share of a new height is not known yet
        return rect->rect().height() > 0
                   ? rect->rect().height()
                   : std::max(1, plot->viewport().height() / 2 - kFallbackMargins);
    }
    if (rect->outerRect().width() <= 0) {
        return std::max(1, plot->viewport().width() - kFallbackMargins);
    }
    // The plot's one column of axis rects spans the viewport: a resize since the last layout
    // changes the inner width by as much as the viewport's.
    const int margins = rect->outerRect().width() - rect->rect().width();
    const int outer = plot->plotLayout()->columnCount() == 1 ? plot->viewport().width()
                                                             : rect->outerRect().width();
    return std::max(1, outer - margins);
}

namespace {

/// How many labels `axis`'s ticker, asked for `count` ticks, places at least `gapPx` apart on
/// `pixels` pixels (the ticker generates the very ticks and labels the axis will draw); 0 when
/// two of them come closer. Along a vertical axis a label takes its lines' height.
int labelsApart(QCPAxis* axis, int count, int pixels, int gapPx) {
    const QCPRange range = axis->range();
    axis->ticker()->setTickCount(count);
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = axis->numberFormat();
    axis->ticker()->generate(range, axis->parentPlot()->locale(),
                             format.isEmpty() ? QLatin1Char('g') : format.at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
    const QFontMetrics metrics(axis->tickLabelFont());
    const bool vertical = axis->orientation() == Qt::Vertical;
    const double perUnit = pixels / range.size();
    double lastEnd = -1e9;
    int shown = 0;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        const QStringList lines = labels[i].split(QLatin1Char('\n'));
        int size = 0;
        for (const QString& line : lines) {
            size = std::max(size, metrics.horizontalAdvance(line));
        }
        if (vertical) {
            size = metrics.height() * int(lines.size());
        }
        const double centre = (ticks[i] - range.lower) * perUnit;
        if (centre - size / 2.0 - lastEnd < gapPx) {
            return 0;
        }
        lastEnd = centre + size / 2.0;
        ++shown;
    }
    return shown;
}

/// The most ticks (at most `maxTicks`) that put `least` labels or more `gapPx` apart; 0 if none.
int fittingCount(QCPAxis* axis, int maxTicks, int pixels, int gapPx, int least) {
    for (int count = maxTicks; count >= 1; --count) {
        if (labelsApart(axis, count, pixels, gapPx) >= least) {
            return count;
        }
    }
    return 0;
}

/// The tick count for `axis` at its size now: two labels or more, closer together on a very
/// narrow axis before just one (a single asked tick may fall outside the range and show none).
int bestCount(QCPAxis* axis, int maxTicks, int gapPx) {
    const int pixels = axisPixels(axis);
    int count = fittingCount(axis, maxTicks, pixels, gapPx, 2);
    if (count == 0) {
        count = fittingCount(axis, maxTicks, pixels, std::max(2, gapPx / 2), 2);
    }
    if (count == 0) {
        count = fittingCount(axis, maxTicks, pixels, std::max(2, gapPx / 2), 1);
    }
    return std::max(count, 1);
}

bool fitted(const QCPAxis* axis) {
    return axis->ticker().dynamicCast<QCPAxisTickerText>().isNull() && axis->range().size() > 0;
}

} // namespace

void keepTickLabelsApart(QCPAxis* axis, int maxTicks, int gapPx) {
    if (gapPx < 0) {
        gapPx = axis->orientation() == Qt::Vertical ? 4 : 12;
    }
    QCustomPlot* plot = axis->parentPlot();
    auto used = std::make_shared<int>(0); // the count this replot's ticks were made with
    QObject::connect(plot, &QCustomPlot::beforeReplot, axis, [axis, maxTicks, gapPx, used] {
        if (!fitted(axis)) { // fixed labels: the chart thins them itself
            return;
        }
        *used = bestCount(axis, maxTicks, gapPx);
        axis->ticker()->setTickCount(*used);
    });
    // The layout may have given the axis another length than the one fitted (a resize, wider
    // labels on the value axes): then the plot is drawn once more at once, fitted to the length
    // it has now. Once per length, so that labels that change the margins cannot make a loop.
    auto corrected = std::make_shared<int>(-1);
    QObject::connect(plot, &QCustomPlot::afterLayout, axis,
                     [axis, plot, maxTicks, gapPx, used, corrected] {
                         if (!fitted(axis)) {
                             return;
                         }
                         const int pixels = axisPixels(axis);
                         const int count = bestCount(axis, maxTicks, gapPx);
                         axis->ticker()->setTickCount(*used); // these ticks are made already
                         if (count != *used && pixels != *corrected) {
                             *corrected = pixels;
                             plot->replot(QCustomPlot::rpQueuedReplot);
                         }
                     });
}

QVector<QRect> tickLabelRects(const QCPAxis* axis) {
    const QFontMetrics metrics(axis->tickLabelFont());
    const bool vertical = axis->orientation() == Qt::Vertical;
    QVector<QRect> rects;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (labels[i].isEmpty()) {
            continue;
        }
        const QStringList lines = labels[i].split(QLatin1Char('\n'));
        int width = 0;
        for (const QString& line : lines) {
            width = std::max(width, metrics.horizontalAdvance(line));
        }
        const int height = metrics.height() * int(lines.size());
        const int at = int(std::lround(axis->coordToPixel(ticks[i])));
        rects << (vertical ? QRect(axis->axisRect()->left() - width, at - height / 2, width, height)
                           : QRect(at - width / 2, axis->axisRect()->bottom(), width, height));
    }
    std::sort(rects.begin(), rects.end(), [vertical](const QRect& a, const QRect& b) {
        return vertical ? a.top() < b.top() : a.left() < b.left();
    });
    return rects;
}

} // namespace tessera
