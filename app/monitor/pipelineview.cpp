// Predicted and measured pipeline Gantt charts of the followed job (see pipelineview.h).
#include "app/monitor/pipelineview.h"

#include "app/gantt/ganttview.h"
#include "backend/core/jobtypes.h"

#include <QLabel>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace tessera {

namespace {
constexpr int kRebuildMs = 250;
} // namespace

PipelineView::PipelineView(QWidget* parent)
    : QWidget(parent), m_predicted(new GanttView(this)), m_measured(new GanttView(this)),
      m_note(new QLabel(this)), m_timer(new QTimer(this)) {
    m_predicted->setObjectName(QStringLiteral("predictedGantt"));
    m_measured->setObjectName(QStringLiteral("measuredGantt"));
    m_note->setObjectName(QStringLiteral("pipelineNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_predicted);
    split->addWidget(m_measured);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(m_note);
    setPrediction({}, 0, false, tr("Predicted"), tr("No job is followed."));
    showJob(QString(), 0);
    m_timer->setInterval(kRebuildMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty) {
            rebuild();
        }
    });
    m_timer->start();
}

void PipelineView::showJob(const QString& jobId, int stages) {
    m_jobId = jobId;
    m_timeline.clear();
    m_timeline.setStages(stages);
    m_shownStep = -1;
    setPrediction({}, stages, false, tr("Predicted"),
                  jobId.isEmpty() ? tr("No job is followed.")
                                  : tr("No prediction from the planner for this job."));
    rebuild();
}

void PipelineView::setPrediction(std::vector<GanttBox> boxes, int stages, bool seconds,
                                 const QString& title, const QString& emptyText) {
    if (!emptyText.isEmpty()) {
        m_predicted->setEmptyText(emptyText);
    }
    m_predicted->setTimeline(std::move(boxes), stages, seconds, title);
    matchScales();
}

void PipelineView::addPoint(const MetricPoint& point) {
    if (m_jobId.isEmpty() || point.jobId != m_jobId) {
        return;
    }
    if (m_timeline.addPoint(point)) {
        m_dirty = true;
    }
}

void PipelineView::replotNow() {
    rebuild();
}

QString PipelineView::noteText() const {
    return m_note->isHidden() ? QString() : m_note->text();
}

void PipelineView::rebuild() {
    m_dirty = false;
    m_shownStep = m_timeline.shownStep();
    const int stages = m_timeline.stages();
    QString title = tr("Measured");
    if (m_shownStep >= 0) {
        title = tr("Measured at step %1 (%2 of %3 stages reported; 0 = the earliest stage's step "
                   "start)")
                    .arg(m_shownStep)
                    .arg(m_timeline.reportedStages())
                    .arg(stages);
    }
    m_measured->setEmptyText(
        m_jobId.isEmpty() ? tr("No job is followed.")
                          : tr("No measured timeline yet: tessera-train sends one per stage with "
                               "every perf record (every logEvery steps)."));
    m_measured->setTimeline(m_timeline.boxes(), stages, true, title);
    const QStringList problems = m_timeline.problems();
    m_note->setText(problems.isEmpty()
                        ? QString()
                        : tr("Measured timeline: %1").arg(problems.join(QStringLiteral("; "))));
    m_note->setVisible(!problems.isEmpty());
    matchScales();
}

void PipelineView::matchScales() {
    // Both in seconds: one scale, so a longer measured step reads as a longer row.
    const bool common = m_predicted->seconds() && m_measured->seconds();
    const double end = common ? std::max(m_predicted->lastEnd(), m_measured->lastEnd()) : 0.0;
    m_predicted->setSpan(end);
    m_measured->setSpan(end);
}

} // namespace tessera
