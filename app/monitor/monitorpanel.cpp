// The Training tab: alert bar, loss chart, step-time bars, pipeline timelines (see monitorpanel.h).
#include "app/monitor/monitorpanel.h"

#include <algorithm>
#include <utility>

#include "app/monitor/metricschart.h"
#include "app/monitor/pipelineview.h"
#include "app/monitor/runheading.h"
#include "app/monitor/steptimechart.h"
#include "app/monitor/throughputchart.h"
#include "app/monitor/utilizationchart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera {

MonitorPanel::MonitorPanel(QWidget* parent)
    : QWidget(parent), m_heading(new RunHeading(this)), m_alertBar(new QWidget(this)),
      m_alertLabel(new QLabel(m_alertBar)), m_dismiss(new QToolButton(m_alertBar)),
      m_chart(new MetricsChart(this)), m_steps(new StepTimeChart(this)),
      m_throughput(new ThroughputChart(this)), m_devices(new UtilizationChart(this)),
      m_pipeline(new PipelineView(this)), m_tabs(new QTabWidget(this)),
      m_alerts(new AlertWatcher(this)) {
    m_alertBar->setObjectName(QStringLiteral("alertBar"));
    m_alertBar->setAutoFillBackground(true);
    QPalette warn = m_alertBar->palette();
    warn.setColor(QPalette::Window, QColor(255, 236, 179));
    warn.setColor(QPalette::WindowText, QColor(102, 60, 0));
    m_alertBar->setPalette(warn);
    m_alertLabel->setWordWrap(true);
    m_alertLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_dismiss->setText(tr("Dismiss"));
    auto* bar = new QHBoxLayout(m_alertBar);
    bar->setContentsMargins(8, 4, 8, 4);
    bar->addWidget(m_alertLabel, 1);
    bar->addWidget(m_dismiss);
    m_alertBar->hide();
    connect(m_dismiss, &QToolButton::clicked, m_alertBar, &QWidget::hide);

    m_steps->setObjectName(QStringLiteral("stepTimeChart"));
    m_throughput->setObjectName(QStringLiteral("throughputChart"));
    m_devices->setObjectName(QStringLiteral("utilizationChart"));
    // Loss on top; below it throughput over step time on the left, the devices on the right.
    // Loss on top; below it, side by side, throughput, step time and the devices: each gets the
    // full lower height (stacked they were too short to read in a laptop's window). No splitter
    // collapses a chart: each keeps its (small) minimum size and fits legend and ticks to it.
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setObjectName(QStringLiteral("bottomSplitter"));
    bottom->addWidget(m_throughput);
    bottom->addWidget(m_steps);
    bottom->addWidget(m_devices);
    for (int i = 0; i < 3; ++i) {
        bottom->setStretchFactor(i, 1);
    }
    bottom->setChildrenCollapsible(false);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("chartsSplitter"));
    split->addWidget(m_chart);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    m_pipeline->setObjectName(QStringLiteral("pipelineView"));
    m_tabs->setObjectName(QStringLiteral("monitorTabs"));
    m_tabs->setTabPosition(QTabWidget::South);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(split, tr("Charts"));
    m_tabs->addTab(m_pipeline, tr("Pipeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_heading->setObjectName(QStringLiteral("runHeading"));
    layout->addWidget(m_heading);
    layout->addWidget(m_alertBar);
    layout->addWidget(m_tabs, 1);
    connect(m_alerts, &AlertWatcher::alertRaised, this, [this](const MonitorAlert& a) {
        showAlert(a);
        Q_EMIT alertRaised(a);
    });
}

void MonitorPanel::showJob(const QString& jobId, const QMap<int, QString>& stageLayers) {
    if (jobId != m_run.id || !m_described) {
        m_run = RunSummary();
        m_run.id = jobId;
        m_described = false;
        m_heading->setRunId(jobId);
    }
    m_chart->showJob(jobId);
    m_devices->showJob(jobId);
    m_steps->showJob(jobId);
    m_throughput->showJob(jobId);
    m_steps->setStageLayers(stageLayers);
    m_pipeline->showJob(jobId, int(stageLayers.size()));
    m_alerts->followJob(jobId);
    m_alertBar->hide();
}

void MonitorPanel::describeRun(const RunSummary& run) {
    if (run.id.isEmpty() || run.id != m_run.id) {
        return;
    }
    m_run = run;
    m_described = true;
    m_heading->setRun(m_run);
}

void MonitorPanel::setJobState(const QString& jobId, JobState state) {
    if (jobId.isEmpty() || jobId != m_run.id) {
        return;
    }
    setJobRunning(state == JobState::Running);
    m_run.state = state;
    m_heading->setRun(m_run); // "job-… · running" while nothing more is known
}

void MonitorPanel::setJobRunning(bool running) {
    m_alerts->setRunning(running);
}

void MonitorPanel::addPoint(const MetricPoint& point) {
    if (!m_heldJob.isEmpty() && point.jobId == m_heldJob) {
        m_held.append(point);
        return;
    }
    drawPoint(point);
}

void MonitorPanel::holdLive(const QString& jobId) {
    m_heldJob = jobId;
    m_held.clear();
}

void MonitorPanel::addHistory(const QString& jobId, const QList<MetricPoint>& points) {
    quint64 last = 0;
    for (const MetricPoint& p : points) {
        drawPoint(p);
        last = std::max(last, p.seq);
    }
    if (jobId != m_heldJob) {
        return;
    }
    m_heldJob.clear();
    const QList<MetricPoint> held = std::exchange(m_held, {});
    for (const MetricPoint& p : held) {
        if (p.seq > last) {
            drawPoint(p);
        }
    }
}

void MonitorPanel::drawPoint(const MetricPoint& point) {
    m_chart->addPoint(point);
    m_steps->addPoint(point);
    m_throughput->addPoint(point);
    m_pipeline->addPoint(point);
    m_alerts->addPoint(point);
}

QString MonitorPanel::alertText() const {
    return m_alertBar->isHidden() ? QString() : m_alertLabel->text();
}

void MonitorPanel::showAlert(const MonitorAlert& alert) {
    m_alertLabel->setText(tr("⚠ %1: %2").arg(alert.jobId, alert.text));
    m_alertBar->show();
}

} // namespace tessera
