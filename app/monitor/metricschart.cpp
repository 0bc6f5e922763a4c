// Live training chart: QCustomPlot graphs fed by metric points, replotted on a 100 ms timer
// with rpQueuedReplot so a burst of points costs one redraw.
#include "app/monitor/metricschart.h"

#include "app/monitor/chartstyle.h"

#include "app/monitor/chartcrosshair.h"
#include "app/monitor/chartexport.h"
#include "app/monitor/chartlegend.h"
#include "app/monitor/chartticks.h"
#include "app/monitor/recoverymarkers.h"
#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace tessera {

namespace {
constexpr int kDefaultReplotMs = 100;
constexpr double kDefaultSmoothing = 0.6; // TensorBoard's default weight
constexpr double kSmoothedPenWidth = 1.8; // px, while a curve is short
constexpr int kThickPenMaxPoints = 2000;  // longer curves are drawn 1 px wide
} // namespace

MetricsChart::MetricsChart(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_smoother(kDefaultSmoothing) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(makeControls());
    layout->addWidget(m_plot, 1);
    setMinimumSize(240, 150);
    makeGraphs();
    m_crosshair = new ChartCrosshair(m_plot);
    m_recoveries = std::make_unique<RecoveryMarkers>(m_plot);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { ++m_replots; });

    m_timer = new QTimer(this);
    m_timer->setInterval(kDefaultReplotMs);
    connect(m_timer, &QTimer::timeout, this, &MetricsChart::onReplotTimer);
    m_timer->start();
}

MetricsChart::~MetricsChart() = default;

QWidget* MetricsChart::makeControls() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 0, 4, 0);
    row->addWidget(new QLabel(tr("Smoothing"), bar));
    m_slider = new QSlider(Qt::Horizontal, bar);
    m_slider->setObjectName(QStringLiteral("smoothingSlider"));
    m_slider->setRange(0, 99);
    m_slider->setValue(qRound(kDefaultSmoothing * 100));
    m_slider->setToolTip(tr("Exponential moving average of the train loss, debiased as in "
                            "TensorBoard: 0 draws the raw values"));
    m_slider->setMaximumWidth(160);
    row->addWidget(m_slider);
    m_sliderValue = new QLabel(QLocale().toString(kDefaultSmoothing, 'f', 2), bar);
    row->addWidget(m_sliderValue);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 100.0); });
    m_logBox = new QCheckBox(tr("Log scale"), bar);
    m_logBox->setObjectName(QStringLiteral("logScale"));
    connect(m_logBox, &QCheckBox::toggled, this, &MetricsChart::setLogScale);
    row->addWidget(m_logBox);
    row->addStretch(1);
    m_export = new QToolButton(bar);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Chart as PNG…"), this, [this] { exportWithDialog(true); });
    menu->addAction(tr("Data as CSV…"), this, [this] { exportWithDialog(false); });
    m_export->setMenu(menu);
    row->addWidget(m_export);
    return bar;
}

void MetricsChart::makeGraphs() {
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("loss"));
    m_plot->yAxis2->setLabel(tr("test accuracy"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setRange(0.0, 1.0);
    m_plot->xAxis->setRange(0.0, 100.0);
    m_plot->yAxis->setRange(0.0, 2.5);

    const QColor blue(31, 119, 180);
    m_loss = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_loss->setName(tr("train loss"));
    m_loss->setPen(QPen(QColor(blue.red(), blue.green(), blue.blue(), 70), 1.0));
    m_loss->setAdaptiveSampling(true);

    m_lossSmooth = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_lossSmooth->setName(tr("train loss (smoothed)"));
    m_lossSmooth->setPen(QPen(blue, kSmoothedPenWidth));
    m_lossSmooth->setAdaptiveSampling(true);

    m_testLoss = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_testLoss->setName(tr("test loss"));
    m_testLoss->setPen(QPen(QColor(255, 127, 14), 1.5, Qt::DashLine));
    m_testLoss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));

    m_accuracy = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_accuracy->setName(tr("test accuracy"));
    m_accuracy->setPen(QPen(QColor(44, 160, 44), 1.5));
    m_accuracy->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));

    placeLegendAbove(m_plot);
    m_plot->xAxis->setTicker(QSharedPointer<CompactTicker>::create()); // "120k" steps
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        keepTickLabelsApart(axis, axis == m_plot->xAxis ? 6 : 5);
    }
}

void MetricsChart::showJob(const QString& jobId) {
    m_jobId = jobId;
    clear();
}

namespace {
/// Colours of overlaid runs (Tableau 10 after the blue, orange and green of the main graphs).
constexpr int kOverlayColors = 7;
QColor overlayColor(int i) {
    static const QColor colors[kOverlayColors] = {
        QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194),
        QColor(127, 127, 127), QColor(188, 189, 34),  QColor(23, 190, 207)};
    return colors[i % kOverlayColors];
}

void setSmoothed(QCPGraph* graph, const QList<QPointF>& raw, double weight) {
    EmaSmoother ema(weight);
    QVector<QCPGraphData> data;
    data.reserve(raw.size());
    for (const QPointF& p : raw) {
        data.append(QCPGraphData(p.x(), ema.add(p.y())));
    }
    graph->data()->set(data, false);
}
} // namespace

void MetricsChart::addOverlay(const QString& runId, const QString& label,
                              const QList<QPointF>& loss, const QList<QPointF>& accuracy,
                              const QString& fullName) {
    removeOverlay(runId);
    // The first colour no other overlay uses (colours stay with their runs as others go).
    const auto taken = [this](const QColor& c) {
        return std::any_of(m_overlays.cbegin(), m_overlays.cend(),
                           [&c](const Overlay& o) { return o.graph->pen().color() == c; });
    };
    int colorIndex = 0;
    while (colorIndex < kOverlayColors && taken(overlayColor(colorIndex))) {
        ++colorIndex;
    }
    const QColor color = overlayColor(colorIndex);
    const QString full = fullName.isEmpty() ? label : fullName;
    Overlay o{runId, m_plot->addGraph(m_plot->xAxis, m_plot->yAxis), nullptr, loss};
    o.graph->setName(label);
    ChartLegend::setFullName(o.graph, full);
    o.graph->setPen(QPen(color, kSmoothedPenWidth));
    o.graph->setAdaptiveSampling(true);
    setSmoothed(o.graph, o.raw, m_smoother.weight());
    if (!accuracy.isEmpty()) {
        o.accuracy = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
        o.accuracy->setName(tr("%1 (accuracy)").arg(label));
        ChartLegend::setFullName(o.accuracy, tr("%1 (test accuracy)").arg(full));
        o.accuracy->setPen(QPen(color, 1.2, Qt::DashLine));
        o.accuracy->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        o.accuracy->removeFromLegend(); // one legend entry per run: its loss colour
        QVector<QCPGraphData> data;
        for (const QPointF& p : accuracy) {
            data.append(QCPGraphData(p.x(), p.y()));
        }
        o.accuracy->data()->set(data, false);
    }
    m_overlays.append(o);
    m_dirty = true;
}

void MetricsChart::addOverlayPoints(const QString& runId, const QString& label,
                                    const QList<MetricPoint>& points, const QString& fullName) {
    int lossRank = std::numeric_limits<int>::max();
    for (const MetricPoint& p : points) {
        if (p.values.contains(QStringLiteral("loss"))) {
            lossRank = std::min(lossRank, p.rank);
        }
    }
    QList<QPointF> loss, accuracy;
    for (const MetricPoint& p : points) {
        const double x = double(p.step);
        const auto l = p.values.constFind(QStringLiteral("loss"));
        if (l != p.values.cend() && p.rank == lossRank && std::isfinite(l.value())) {
            loss.append(QPointF(x, l.value()));
        }
        const auto a = p.values.constFind(QStringLiteral("test_accuracy"));
        if (a != p.values.cend() && std::isfinite(a.value())) {
            accuracy.append(QPointF(x, a.value()));
        }
    }
    addOverlay(runId, label, loss, accuracy, fullName);
}

void MetricsChart::removeOverlay(const QString& runId) {
    for (qsizetype i = 0; i < m_overlays.size(); ++i) {
        if (m_overlays[i].id == runId) {
            m_plot->removeGraph(m_overlays[i].graph);
            if (m_overlays[i].accuracy != nullptr) {
                m_plot->removeGraph(m_overlays[i].accuracy);
            }
            m_overlays.removeAt(i);
            m_dirty = true;
            return;
        }
    }
}

QCPGraph* MetricsChart::overlayGraph(const QString& runId) const {
    for (const Overlay& o : m_overlays) {
        if (o.id == runId) {
            return o.graph;
        }
    }
    return nullptr;
}

QStringList MetricsChart::overlays() const {
    QStringList ids;
    for (const Overlay& o : m_overlays) {
        ids << o.id;
    }
    return ids;
}

void MetricsChart::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId) {
        return;
    }
    const double x = static_cast<double>(point.step);
    auto value = [&](const char* key, double* out) {
        const auto it = point.values.constFind(QString::fromLatin1(key));
        if (it == point.values.constEnd() || !std::isfinite(it.value())) {
            return false;
        }
        *out = it.value();
        m_dirty = true;
        return true;
    };
    double v = 0;
    bool hasLoss = value("loss", &v);
    if (hasLoss && point.rank < m_lossRank) {
        if (m_lossRank != std::numeric_limits<int>::max()) {
            m_loss->data()->clear(); // another rank's so far: follow the lower one
            m_lossSmooth->data()->clear();
            m_smoother.reset();
        }
        m_lossRank = point.rank;
    }
    hasLoss = hasLoss && point.rank == m_lossRank;
    if (hasLoss) {
        m_loss->addData(x, v);
        m_lossSmooth->addData(x, m_smoother.add(v));
    }
    if (value("test_loss", &v)) {
        m_testLoss->addData(x, v);
    }
    if (value("test_accuracy", &v)) {
        m_accuracy->addData(x, v);
    }
    if (hasLoss) {
        Q_EMIT lossPointAdded(lossPointCount());
    }
}

void MetricsChart::clear() {
    for (QCPGraph* g : {m_loss, m_lossSmooth, m_testLoss, m_accuracy}) {
        g->data()->clear();
    }
    m_crosshair->hide(); // it would name the old numbers until the mouse moves
    m_recoveries->clear();
    m_smoother.reset();
    m_lossRank = std::numeric_limits<int>::max();
    m_dirty = true;
}

void MetricsChart::markRecovery(qint64 resumeStep, int attempt, const QString& cause) {
    const double after = static_cast<double>(resumeStep);
    for (QCPGraph* g : {m_loss, m_testLoss, m_accuracy}) {
        g->data()->removeAfter(after);
    }
    resmooth(); // the smoothed curve and the smoother's state end at the resume step
    addRecoveryMarker(resumeStep, attempt, cause);
}

void MetricsChart::addRecoveryMarker(qint64 resumeStep, int attempt, const QString& cause) {
    m_recoveries->add(resumeStep, attempt, cause);
    m_dirty = true;
}

QList<qint64> MetricsChart::recoverySteps() const {
    return m_recoveries->steps();
}

QStringList MetricsChart::recoveryLabels() const {
    return m_recoveries->labels();
}

void MetricsChart::setReplotInterval(int ms) {
    m_timer->setInterval(ms);
}

void MetricsChart::replotNow() {
    rescale();
    thinPensForLongCurves();
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

void MetricsChart::setSmoothing(double weight) {
    m_smoother.setWeight(weight);
    const QSignalBlocker quiet(m_slider); // no second resmooth through valueChanged
    m_slider->setValue(qRound(m_smoother.weight() * 100));
    m_sliderValue->setText(QLocale().toString(m_smoother.weight(), 'f', 2));
    resmooth();
}

void MetricsChart::resmooth() {
    m_smoother.reset();
    QVector<QCPGraphData> smoothed;
    smoothed.reserve(m_loss->dataCount());
    for (auto it = m_loss->data()->constBegin(); it != m_loss->data()->constEnd(); ++it) {
        smoothed.append(QCPGraphData(it->key, m_smoother.add(it->value)));
    }
    m_lossSmooth->data()->set(smoothed, true);
    for (const Overlay& o : std::as_const(m_overlays)) {
        setSmoothed(o.graph, o.raw, m_smoother.weight());
    }
    m_dirty = true;
}

void MetricsChart::setLogScale(bool on) {
    const QSignalBlocker quiet(m_logBox);
    m_logBox->setChecked(on);
    m_plot->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on) {
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    m_dirty = true;
}

bool MetricsChart::logScale() const {
    return m_plot->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

QString MetricsChart::exportPng(const QString& path) const {
    return savePlotPng(m_plot, path);
}

QString MetricsChart::exportCsv(const QString& path) const {
    QList<const QCPGraph*> graphs{m_loss, m_lossSmooth, m_testLoss, m_accuracy};
    for (const Overlay& o : m_overlays) {
        graphs << o.graph;
        if (o.accuracy != nullptr) {
            graphs << o.accuracy;
        }
    }
    return writeTextFile(path, graphsToCsv(graphs));
}

void MetricsChart::exportWithDialog(bool png) {
    const QString name = (m_jobId.isEmpty() ? QStringLiteral("chart") : m_jobId) +
                         (png ? QStringLiteral(".png") : QStringLiteral(".csv"));
    const QString path =
        QFileDialog::getSaveFileName(this, png ? tr("Export chart") : tr("Export chart data"), name,
                                     png ? tr("PNG images (*.png)") : tr("CSV files (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    const QString error = png ? exportPng(path) : exportCsv(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
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

namespace {
QList<QPointF> pointsOf(const QCPGraph* graph) {
    QList<QPointF> points;
    points.reserve(graph->dataCount());
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        points.append(QPointF(it->key, it->value));
    }
    return points;
}
} // namespace

QList<QPointF> MetricsChart::lossPoints() const {
    return pointsOf(m_loss);
}

QList<QPointF> MetricsChart::smoothedLossPoints() const {
    return pointsOf(m_lossSmooth);
}

QList<QPointF> MetricsChart::overlayPoints(const QString& runId) const {
    for (const Overlay& o : m_overlays) {
        if (o.id == runId) {
            return pointsOf(o.graph);
        }
    }
    return {};
}

QList<QPointF> MetricsChart::overlayAccuracyPoints(const QString& runId) const {
    for (const Overlay& o : m_overlays) {
        if (o.id == runId && o.accuracy != nullptr) {
            return pointsOf(o.accuracy);
        }
    }
    return {};
}

void MetricsChart::onReplotTimer() {
    if (!m_dirty) {
        return;
    }
    m_dirty = false;
    rescale();
    thinPensForLongCurves();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MetricsChart::thinPensForLongCurves() {
    // Raster painting of a pen wider than 1 px costs per segment drawn: with 1,000,000 points
    // (tessera-bench-monitor) 67 ms per replot at 1.8 px, 8 ms at 1 px. Adaptive sampling draws
    // about two segments per pixel column once a curve has more points than that, so from a few
    // thousand points on the cost no longer depends on the count: long curves get 1 px.
    const double width = m_loss->dataCount() > kThickPenMaxPoints ? 1.0 : kSmoothedPenWidth;
    if (m_lossSmooth->pen().widthF() != width) {
        QPen pen = m_lossSmooth->pen();
        pen.setWidthF(width);
        m_lossSmooth->setPen(pen);
        for (const Overlay& o : std::as_const(m_overlays)) {
            QPen p = o.graph->pen();
            p.setWidthF(width);
            o.graph->setPen(p);
        }
    }
}

void MetricsChart::rescale() {
    if (m_loss->dataCount() == 0 && m_testLoss->dataCount() == 0 && m_accuracy->dataCount() == 0 &&
        m_overlays.isEmpty()) {
        return;
    }
    // x: every graph; left y: both loss graphs (from 0, or from the smallest loss on a log
    // axis); right y stays 0..1 (accuracy is a fraction).
    m_plot->xAxis->rescale(true);
    const QCP::SignDomain domain = logScale() ? QCP::sdPositive : QCP::sdBoth;
    bool found = false;
    QCPRange left = m_loss->getValueRange(found, domain);
    if (!found) {
        left = QCPRange(logScale() ? 0.1 : 0.0, 1.0);
    }
    bool foundTest = false;
    const QCPRange test = m_testLoss->getValueRange(foundTest, domain);
    if (foundTest) {
        left.expand(test);
    }
    for (const Overlay& o : std::as_const(m_overlays)) {
        bool foundRun = false;
        const QCPRange run = o.graph->getValueRange(foundRun, domain);
        if (foundRun) {
            left.expand(run);
        }
    }
    if (logScale()) {
        m_plot->yAxis->setRange(left.lower / 1.2, left.upper * 1.2);
    } else {
        m_plot->yAxis->setRange(0.0, left.upper * 1.05);
    }
    m_plot->yAxis2->setRange(0.0, 1.0);
}

} // namespace tessera
