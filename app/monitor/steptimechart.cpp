// Stacked per-rank step-time bars (see steptimechart.h).
#include "app/monitor/steptimechart.h"

#include "app/monitor/chartexport.h"
#include "app/monitor/chartlegend.h"
#include "app/monitor/chartstyle.h"
#include "app/monitor/chartticks.h"

#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QFontMetrics>
#include <QHelpEvent>
#include <QLocale>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

constexpr int kTickGapPx = 8; // between rank labels

/// Bars named `name` in the legend (short: the pane is narrow), `fullName` in its tooltip.
QCPBars* makeBars(QCustomPlot* plot, const QString& name, const QString& fullName,
                  const QColor& color) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    ChartLegend::setFullName(bars, fullName);
    bars->setPen(QPen(color.darker(130)));
    bars->setBrush(color);
    bars->setWidth(0.7);
    return bars;
}

} // namespace

StepTimeChart::StepTimeChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(160, 150);
    m_compute = makeBars(m_plot, tr("compute"), tr("compute: forward and backward passes"),
                         QColor(31, 119, 180));
    m_comm = makeBars(m_plot, tr("exposed comm."),
                      tr("exposed communication: the part not hidden behind compute"),
                      QColor(255, 127, 14));
    m_bubble = makeBars(m_plot, tr("bubble"), tr("pipeline bubble: idle while other stages work"),
                        QColor(200, 200, 200));
    m_comm->moveAbove(m_compute);
    m_bubble->moveAbove(m_comm);
    m_plot->xAxis->setLabel(tr("rank"));
    m_plot->yAxis->setLabel(tr("ms per step"));
    placeLegendAbove(m_plot);
    m_plot->legend->setIconSize(14, 10);
    keepTickLabelsApart(m_plot->yAxis, 5); // the rank axis thins its labels in rebuild()
    addExportMenu(m_plot, QStringLiteral("step-time"), [this] { return csv(); });
    m_plot->installEventFilter(this); // tooltips per bar
    startReplotTimer(m_plot, 250, &m_dirty, [this] { rebuild(); });
}

void StepTimeChart::showJob(const QString& jobId) {
    m_jobId = jobId;
    m_ranks.clear();
    m_layers.clear();
    m_dirty = true;
}

void StepTimeChart::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId ||
        !point.values.contains(QStringLiteral("step_ms"))) {
        return;
    }
    auto v = [&](const char* key) {
        return point.values.value(QString::fromLatin1(key));
    };
    RankStepTime t;
    t.stage = int(v("stage"));
    t.dpRank = int(v("dp_rank"));
    t.tpRank = int(v("tp_rank"));
    t.computeMs = v("compute_ms");
    t.commMs = v("comm_ms");
    t.bubbleMs = v("bubble_ms");
    t.stepMs = v("step_ms");
    t.step = point.step;
    m_ranks.insert(point.rank, t);
    m_dirty = true;
}

void StepTimeChart::rebuild() {
    QVector<double> keys, compute, comm, bubble;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double top = 0;
    // Every rank's label while they fit; else every k-th, so labels never run together.
    const int last = m_ranks.isEmpty() ? 0 : m_ranks.lastKey();
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    const int label = metrics.horizontalAdvance(tr("S%1").arg(last)) + kTickGapPx;
    const double perRank = axisPixels(m_plot->xAxis) / (last + 1.2);
    const int every = std::max(1, int(std::ceil(label / std::max(1.0, perRank))));
    const bool pipeline = std::any_of(m_ranks.cbegin(), m_ranks.cend(),
                                      [](const RankStepTime& t) { return t.stage > 0; });
    for (auto it = m_ranks.cbegin(); it != m_ranks.cend(); ++it) {
        keys << it.key();
        compute << it->computeMs;
        comm << it->commMs;
        bubble << it->bubbleMs;
        top = std::max(top, it->computeMs + it->commMs + it->bubbleMs);
        if (it.key() % every == 0) { // the stage under the rank when there is a pipeline
            ticker->addTick(it.key(), pipeline ? tr("%1\nS%2").arg(it.key()).arg(it->stage)
                                               : QString::number(it.key()));
        }
    }
    m_compute->setData(keys, compute, true);
    m_comm->setData(keys, comm, true);
    m_bubble->setData(keys, bubble, true);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, keys.isEmpty() ? 1.0 : keys.last() + 0.6);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
}

void StepTimeChart::replotNow() {
    m_dirty = false;
    rebuild();
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

QString StepTimeChart::rankText(int rank) const {
    const auto it = m_ranks.constFind(rank);
    if (it == m_ranks.cend()) {
        return {};
    }
    QString text = tr("rank %1: stage %2, data-parallel rank %3, tensor-parallel rank %4")
                       .arg(rank)
                       .arg(it->stage)
                       .arg(it->dpRank)
                       .arg(it->tpRank);
    if (const QString layers = m_layers.value(it->stage); !layers.isEmpty()) {
        text += QLatin1Char('\n') + layers;
    }
    text += QLatin1Char('\n') +
            tr("step %1 ms = compute %2 + exposed communication %3 + bubble %4 (at step %5)")
                .arg(QLocale().toString(it->stepMs, 'f', 2))
                .arg(QLocale().toString(it->computeMs, 'f', 2))
                .arg(QLocale().toString(it->commMs, 'f', 2))
                .arg(QLocale().toString(it->bubbleMs, 'f', 2))
                .arg(it->step);
    return text;
}

int StepTimeChart::rankAt(int x) const {
    const double key = m_plot->xAxis->pixelToCoord(x);
    const int rank = qRound(key);
    return std::abs(key - rank) <= 0.35 && m_ranks.contains(rank) ? rank : -1;
}

bool StepTimeChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::Resize) {
        m_dirty = true; // how many rank labels fit changes with the width
    }
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (!ChartLegend::of(m_plot)->toolTipAt(help->pos()).isEmpty()) {
            return false; // the legend's own tooltip
        }
        const int rank = rankAt(help->pos().x());
        if (rank >= 0) {
            QToolTip::showText(help->globalPos(), rankText(rank), m_plot);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString StepTimeChart::csv() const {
    return seriesToCsv({{QStringLiteral("compute_ms"), m_compute},
                        {QStringLiteral("comm_ms"), m_comm},
                        {QStringLiteral("bubble_ms"), m_bubble}},
                       QStringLiteral("rank"));
}

} // namespace tessera
