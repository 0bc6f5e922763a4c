// Live training chart: QCustomPlot graphs fed by metric points, replotted on a 100 ms timer
// with rpQueuedReplot so a burst of points costs one redraw.
#include "metricschart.h"

#include "jobtypes.h"

#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace tessera {

namespace {
constexpr int kDefaultReplotMs = 100;
} // namespace

MetricsChart::MetricsChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(320, 220);

    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("loss"));
    m_plot->yAxis2->setLabel(tr("test accuracy"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setRange(0.0, 1.0);
    m_plot->xAxis->setRange(0.0, 100.0);
    m_plot->yAxis->setRange(0.0, 2.5);

    m_loss = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_loss->setName(tr("train loss"));
    m_loss->setPen(QPen(QColor(31, 119, 180), 1.5));

    m_testLoss = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_testLoss->setName(tr("test loss"));
    m_testLoss->setPen(QPen(QColor(255, 127, 14), 1.5, Qt::DashLine));
    m_testLoss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));

    m_accuracy = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_accuracy->setName(tr("test accuracy"));
    m_accuracy->setPen(QPen(QColor(44, 160, 44), 1.5));
    m_accuracy->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));

    // Legend in its own row above the axes, one line wide, so it never hides data points.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend); // takes it out of the axis rect
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { ++m_replots; });

    m_timer = new QTimer(this);
    m_timer->setInterval(kDefaultReplotMs);
    connect(m_timer, &QTimer::timeout, this, &MetricsChart::onReplotTimer);
    m_timer->start();
}

void MetricsChart::showJob(const QString& jobId) {
    m_jobId = jobId;
    clear();
}

void MetricsChart::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId)
        return;
    const double x = static_cast<double>(point.step);
    auto append = [&](QCPGraph* graph, const char* key) {
        const auto it = point.values.constFind(QString::fromLatin1(key));
        if (it == point.values.constEnd() || !std::isfinite(it.value()))
            return false;
        graph->addData(x, it.value());
        m_dirty = true;
        return true;
    };
    const bool hasLoss = append(m_loss, "loss");
    append(m_testLoss, "test_loss");
    append(m_accuracy, "test_accuracy");
    if (hasLoss)
        Q_EMIT lossPointAdded(lossPointCount());
}

void MetricsChart::clear() {
    m_loss->data()->clear();
    m_testLoss->data()->clear();
    m_accuracy->data()->clear();
    m_dirty = true;
}

void MetricsChart::setReplotInterval(int ms) {
    m_timer->setInterval(ms);
}

void MetricsChart::replotNow() {
    rescale();
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

int MetricsChart::lossPointCount() const {
    return m_loss->dataCount();
}
int MetricsChart::testLossPointCount() const {
    return m_testLoss->dataCount();
}
int MetricsChart::accuracyPointCount() const {
    return m_accuracy->dataCount();
}

QList<QPointF> MetricsChart::lossPoints() const {
    QList<QPointF> points;
    for (auto it = m_loss->data()->constBegin(); it != m_loss->data()->constEnd(); ++it)
        points.append(QPointF(it->key, it->value));
    return points;
}

void MetricsChart::onReplotTimer() {
    if (!m_dirty)
        return;
    m_dirty = false;
    rescale();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MetricsChart::rescale() {
    if (m_loss->dataCount() == 0 && m_testLoss->dataCount() == 0 && m_accuracy->dataCount() == 0)
        return;
    // x: every graph; left y: both loss graphs, from 0; right y stays 0..1 (accuracy is a
    // fraction).
    m_plot->xAxis->rescale(true);
    bool found = false;
    const QCPRange train = m_loss->getValueRange(found);
    QCPRange left(0.0, found ? train.upper : 1.0);
    bool foundTest = false;
    const QCPRange test = m_testLoss->getValueRange(foundTest);
    if (foundTest)
        left.upper = std::max(left.upper, test.upper);
    m_plot->yAxis->setRange(0.0, left.upper * 1.05);
    m_plot->yAxis2->setRange(0.0, 1.0);
}

} // namespace tessera
