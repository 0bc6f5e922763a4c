// Per-device utilisation and memory chart (see utilizationchart.h).
#include "app/monitor/utilizationchart.h"

#include "app/monitor/chartexport.h"
#include "app/monitor/chartlegend.h"
#include "app/monitor/chartstyle.h"
#include "app/monitor/chartticks.h"

#include "app/monitor/customplot.h"
#include <QHelpEvent>
#include <QLocale>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace tessera {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kHitPixels = 8.0;

/// Tableau 10, the palette matplotlib and TensorBoard users know: one colour per node.
QColor nodeColor(int index) {
    static const QColor palette[] = {
        {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
        {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return palette[index % 10];
}

bool isCpu(const QString& device) {
    return device == QLatin1String("CPU");
}

/// Orders CPU before GPUs, GPUs by index ("GPU 2" < "GPU 10").
bool deviceBefore(const QString& a, const QString& b) {
    if (isCpu(a) != isCpu(b)) {
        return isCpu(a);
    }
    const int ia = a.section(QLatin1Char(' '), 1).toInt();
    const int ib = b.section(QLatin1Char(' '), 1).toInt();
    return ia != ib ? ia < ib : a < b;
}

QString percentText(double v) {
    return std::isfinite(v) ? QStringLiteral("%1 %").arg(QLocale().toString(v, 'f', 0))
                            : QStringLiteral("–");
}

QString gibText(double bytes) {
    return std::isfinite(bytes) ? QLocale().toString(bytes / kGiB, 'f', 1) : QStringLiteral("–");
}

void shareTimeAxis(QCPAxis* a, QCPAxis* b) {
    const auto changed = QOverload<const QCPRange&>::of(&QCPAxis::rangeChanged);
    const auto set = QOverload<const QCPRange&>::of(&QCPAxis::setRange);
    QObject::connect(a, changed, b, set);
    QObject::connect(b, changed, a, set);
}

} // namespace

UtilizationChart::UtilizationChart(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_memoryRect(new QCPAxisRect(m_plot)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(170, 150);
    m_plot->plotLayout()->addElement(1, 0, m_memoryRect);
    auto* margins = new QCPMarginGroup(m_plot);
    QCPAxisRect* util = m_plot->axisRect();
    util->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_memoryRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    QSharedPointer<QCPAxisTickerTime> ticker(new RoundUpTimeTicker);
    ticker->setTimeFormat(QStringLiteral("%m:%s")); // minutes do not wrap at 60
    for (QCPAxisRect* rect : {util, m_memoryRect}) {
        rect->axis(QCPAxis::atBottom)->setTicker(ticker);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    util->axis(QCPAxis::atBottom)->setTickLabels(false);
    util->axis(QCPAxis::atLeft)->setLabel(tr("utilization %"));
    util->axis(QCPAxis::atLeft)->setRange(0, 105);
    m_memoryRect->axis(QCPAxis::atLeft)->setLabel(tr("memory GiB"));
    m_memoryRect->axis(QCPAxis::atBottom)->setLabel(tr("time since start"));
    shareTimeAxis(util->axis(QCPAxis::atBottom), m_memoryRect->axis(QCPAxis::atBottom));
    // As many ticks as the width holds (one shared ticker: the upper pane shows no labels).
    keepTickLabelsApart(m_memoryRect->axis(QCPAxis::atBottom), 5);
    keepTickLabelsApart(util->axis(QCPAxis::atLeft), 5);
    keepTickLabelsApart(m_memoryRect->axis(QCPAxis::atLeft), 5);
    placeLegendAbove(m_plot);
    // Node names are long and the pane narrow: small icons, as many nodes per row as fit.
    m_plot->legend->setIconSize(14, 10);
    m_plot->installEventFilter(this);
    addExportMenu(m_plot, QStringLiteral("devices"), [this] { return csv(); });
    startReplotTimer(m_plot, 500, &m_dirty, [this] { rescale(); });
}

void UtilizationChart::showJob(const QString& jobId, qint64 startMs) {
    m_jobId = jobId;
    m_startMs = startMs;
    m_plot->clearGraphs();
    m_series.clear();
    m_order.clear();
    m_nodes.clear();
    m_roles.clear();
    m_memoryTopGiB = 0;
    m_dirty = true;
}

void UtilizationChart::setNodeOrder(const QStringList& nodes) {
    for (const QString& node : nodes) {
        if (!m_nodes.contains(node)) {
            m_nodes << node;
        }
    }
}

bool UtilizationChart::before(const DeviceSample& a, const DeviceSample& b) const {
    const qsizetype na = m_nodes.indexOf(a.node);
    const qsizetype nb = m_nodes.indexOf(b.node);
    return na != nb ? na < nb : deviceBefore(a.device, b.device);
}

void UtilizationChart::insertInOrder(const DeviceSample& sample) {
    if (!m_nodes.contains(sample.node)) {
        m_nodes << sample.node;
    }
    qsizetype at = 0;
    while (at < m_order.size() && !before(sample, m_series[m_order[at]].latest)) {
        ++at;
    }
    m_order.insert(at, sample.key());
}

void UtilizationChart::rebuildLegend() {
    m_plot->legend->clearItems();
    QString node;
    for (const QString& key : std::as_const(m_order)) {
        const Series& s = m_series[key];
        if (s.latest.node != node) { // one entry per node: its colour
            s.utilization->addToLegend();
        }
        node = s.latest.node;
    }
}

UtilizationChart::Series& UtilizationChart::seriesFor(const DeviceSample& sample) {
    const QString key = sample.key();
    auto it = m_series.find(key);
    if (it != m_series.end()) {
        return *it;
    }
    insertInOrder(sample);
    const QColor color = nodeColor(int(m_nodes.indexOf(sample.node)));
    QPen pen(color, 1.2, isCpu(sample.device) ? Qt::DashLine : Qt::SolidLine);
    Series s;
    QCPAxisRect* util = m_plot->axisRect();
    s.utilization = m_plot->addGraph(util->axis(QCPAxis::atBottom), util->axis(QCPAxis::atLeft));
    s.memory = m_plot->addGraph(m_memoryRect->axis(QCPAxis::atBottom),
                                m_memoryRect->axis(QCPAxis::atLeft));
    for (QCPGraph* g : {s.utilization, s.memory}) {
        g->setPen(pen);
        g->setAdaptiveSampling(true);
        g->setName(sample.node);
        g->removeFromLegend();
    }
    s.latest = sample;
    Series& inserted = *m_series.insert(key, s);
    rebuildLegend();
    return inserted;
}

void UtilizationChart::addSamples(const QList<DeviceSample>& samples) {
    if (m_jobId.isEmpty()) {
        return;
    }
    for (const DeviceSample& sample : samples) {
        if (m_startMs == 0) {
            m_startMs = sample.timeMs;
        }
        Series& s = seriesFor(sample);
        const double t = double(sample.timeMs - m_startMs) / 1000.0;
        if (std::isfinite(sample.utilizationPercent)) {
            s.utilization->addData(t, sample.utilizationPercent);
        }
        if (std::isfinite(sample.memoryUsedBytes)) {
            s.memory->addData(t, sample.memoryUsedBytes / kGiB);
            m_memoryTopGiB = std::max(m_memoryTopGiB, sample.memoryUsedBytes / kGiB);
        }
        if (sample.timeMs >= s.latest.timeMs) {
            s.latest = sample;
        }
        m_dirty = true;
    }
}

void UtilizationChart::rescale() {
    if (m_series.isEmpty()) {
        return;
    }
    QCPAxisRect* util = m_plot->axisRect();
    util->axis(QCPAxis::atBottom)->rescale(true);
    // Scaled to what is used (the installed total is in the tooltip): a 2 GiB job on a 141 GiB
    // GPU would otherwise be a flat line at the bottom.
    m_memoryRect->axis(QCPAxis::atLeft)
        ->setRange(0, m_memoryTopGiB > 0 ? m_memoryTopGiB * 1.25 : 1.0);
}

void UtilizationChart::replotNow() {
    m_dirty = false;
    rescale();
    m_plot->replot();
}

QCPGraph* UtilizationChart::utilizationGraph(const QString& key) const {
    const auto it = m_series.constFind(key);
    return it == m_series.cend() ? nullptr : it->utilization;
}

QCPGraph* UtilizationChart::memoryGraph(const QString& key) const {
    const auto it = m_series.constFind(key);
    return it == m_series.cend() ? nullptr : it->memory;
}

QString UtilizationChart::deviceText(const QString& key) const {
    const auto it = m_series.constFind(key);
    if (it == m_series.cend()) {
        return {};
    }
    const DeviceSample& d = it->latest;
    QStringList lines;
    lines << (d.model.isEmpty() ? tr("%1 · %2").arg(d.node, d.device)
                                : tr("%1 · %2 (%3)").arg(d.node, d.device, d.model));
    QString now = tr("utilization %1 · memory %2 / %3 GiB")
                      .arg(percentText(d.utilizationPercent), gibText(d.memoryUsedBytes),
                           gibText(d.memoryTotalBytes));
    if (std::isfinite(d.powerWatts)) {
        now += tr(" · %1 W").arg(QLocale().toString(d.powerWatts, 'f', 0));
    }
    if (std::isfinite(d.temperatureCelsius)) {
        now += tr(" · %1 °C").arg(QLocale().toString(d.temperatureCelsius, 'f', 0));
    }
    lines << now;
    const QString role = m_roles.value(key);
    lines << (role.isEmpty() ? tr("holds no rank of this job") : role);
    return lines.join(QLatin1Char('\n'));
}

QString UtilizationChart::deviceAt(const QPoint& pos) const {
    QString best;
    double bestDistance = kHitPixels;
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        for (QCPGraph* g : {it->utilization, it->memory}) {
            const double d = g->selectTest(pos, false);
            if (d >= 0 && d < bestDistance) {
                bestDistance = d;
                best = it.key();
            }
        }
    }
    return best;
}

bool UtilizationChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (!ChartLegend::of(m_plot)->toolTipAt(help->pos()).isEmpty()) {
            return false; // the legend's own tooltip
        }
        const QString key = deviceAt(help->pos());
        if (key.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), deviceText(key), m_plot);
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString UtilizationChart::csv() const {
    QList<QPair<QString, const QCPAbstractPlottable*>> series;
    for (const QString& key : m_order) {
        const Series& s = m_series[key];
        series.append({key + QStringLiteral(" utilization %"), s.utilization});
        series.append({key + QStringLiteral(" memory GiB"), s.memory});
    }
    return seriesToCsv(series, QStringLiteral("seconds"));
}

} // namespace tessera
