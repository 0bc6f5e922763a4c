// Throughput and learning rate against step (see throughputchart.h).
#include "app/monitor/throughputchart.h"

#include "app/monitor/chartcrosshair.h"
#include "app/monitor/chartexport.h"
#include "app/monitor/chartstyle.h"
#include "app/monitor/chartticks.h"

#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace tessera {

ThroughputChart::ThroughputChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(170, 150);
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis2->setVisible(true);
    const QColor purple(148, 103, 189), grey(110, 110, 110);
    m_throughput = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_throughput->setName(tr("samples/s (left)"));
    m_throughput->setPen(QPen(purple, 1.0));
    m_throughput->setAdaptiveSampling(true);
    m_lr = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_lr->setName(tr("learning rate (right)"));
    m_lr->setPen(QPen(grey, 1.0, Qt::DashLine));
    m_lr->setAdaptiveSampling(true);
    // No axis titles (the legend names both, and a narrow pane needs the width): each value
    // axis takes its series' colour instead.
    for (auto [axis, color] : {std::pair{m_plot->yAxis, purple}, std::pair{m_plot->yAxis2, grey}}) {
        axis->setTickLabelColor(color);
        axis->setBasePen(QPen(color));
        axis->setTickPen(QPen(color));
        axis->setSubTickPen(QPen(color));
    }
    placeLegendAbove(m_plot);
    m_plot->xAxis->setTicker(QSharedPointer<CompactTicker>::create()); // "120k" steps
    m_plot->yAxis->setTicker(QSharedPointer<CompactTicker>::create()); // "12k" samples/s
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        keepTickLabelsApart(axis, axis == m_plot->xAxis ? 6 : 5);
    }
    m_crosshair = new ChartCrosshair(m_plot);
    addExportMenu(m_plot, QStringLiteral("throughput"), [this] { return csv(); });
    startReplotTimer(m_plot, 250, &m_dirty, [this] { rescale(); });
}

void ThroughputChart::showJob(const QString& jobId) {
    m_jobId = jobId;
    m_throughput->data()->clear();
    m_lr->data()->clear();
    m_crosshair->hide(); // it would name the old run's numbers
    m_dirty = true;
}

void ThroughputChart::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId) {
        return;
    }
    const auto lr = point.values.constFind(QStringLiteral("lr"));
    if (lr == point.values.cend()) {
        return;
    }
    const double step = double(point.step);
    if (std::isfinite(lr.value())) {
        m_lr->addData(step, lr.value());
    }
    const auto rate = point.values.constFind(QStringLiteral("samples_per_s"));
    if (rate != point.values.cend() && std::isfinite(rate.value())) {
        m_throughput->addData(step, rate.value());
    }
    m_dirty = true;
}

void ThroughputChart::rescale() {
    if (m_throughput->data()->isEmpty() && m_lr->data()->isEmpty()) {
        return;
    }
    m_plot->xAxis->rescale(true);
    bool found = false;
    const QCPRange rate = m_throughput->getValueRange(found);
    m_plot->yAxis->setRange(0.0, found && rate.upper > 0 ? rate.upper * 1.1 : 1.0);
    bool foundLr = false;
    const QCPRange lr = m_lr->getValueRange(foundLr);
    m_plot->yAxis2->setRange(0.0, foundLr && lr.upper > 0 ? lr.upper * 1.1 : 1.0);
}

void ThroughputChart::replotNow() {
    m_dirty = false;
    rescale();
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

QString ThroughputChart::csv() const {
    return seriesToCsv(
        {{QStringLiteral("samples_per_s"), m_throughput}, {QStringLiteral("lr"), m_lr}},
        QStringLiteral("step"));
}

} // namespace tessera
