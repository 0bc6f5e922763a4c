// Auto-plan dialog (see autoplandialog.h).
#include "app/designer/autoplandialog.h"

#include "app/designer/calibrationcache.h"

#include "app/designer/estimatepanel.h"
#include "app/designer/plandocument.h"
#include "backend/layout/layoutmath.h"
#include "worker/common/tsan_handoff.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tessera::designer {

QString describeLayout(const v1::Layout& layout) {
    QStringList ranges;
    for (const v1::Stage& s : layout.stages()) {
        ranges << QStringLiteral("%1–%2").arg(s.first_layer()).arg(s.last_layer());
    }
    QString text = AutoPlanDialog::tr("DP %1 × TP %2 × PP %3")
                       .arg(dpDegree(layout))
                       .arg(tpWidth(layout))
                       .arg(stageCount(layout));
    if (cpDegree(layout) > 1) {
        text += AutoPlanDialog::tr(" × CP %1").arg(cpDegree(layout));
    }
    if (epDegree(layout) > 1) {
        text += AutoPlanDialog::tr(", EP %1").arg(epDegree(layout));
    }
    if (ranges.size() > 1) {
        text += AutoPlanDialog::tr(" (layers %1)").arg(ranges.join(QStringLiteral(" | ")));
    }
    text += AutoPlanDialog::tr(", %1 micro-batches, %2")
                .arg(std::max(1, layout.micro_batches()))
                .arg(layout.schedule() == v1::PIPELINE_SCHEDULE_GPIPE   ? QStringLiteral("GPipe")
                     : layout.schedule() == v1::PIPELINE_SCHEDULE_ZB_H1 ? QStringLiteral("ZB-H1")
                                                                        : QStringLiteral("1F1B"));
    return text;
}

AutoPlanDialog::AutoPlanDialog(PlanDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_goal(new QComboBox(this)),
      m_steps(new QSpinBox(this)), m_deadline(new QDoubleSpinBox(this)),
      m_list(new QListWidget(this)), m_status(new QLabel(this)),
      m_searchButton(new QPushButton(tr("&Search"), this)),
      m_applyButton(new QPushButton(tr("&Apply"), this)) {
    setWindowTitle(tr("Auto-plan"));
    setObjectName(QStringLiteral("autoPlanDialog"));
    m_goal->setObjectName(QStringLiteral("autoPlanGoal"));
    m_goal->addItem(tr("Fastest layout that fits"), int(planner::AutoPlanGoal::Fastest));
    m_goal->addItem(tr("Cheapest within the deadline"),
                    int(planner::AutoPlanGoal::CheapestWithinDeadline));
    m_steps->setRange(1, 100'000'000);
    m_steps->setValue(1000);
    m_deadline->setRange(0.01, 100000);
    m_deadline->setValue(24);
    m_deadline->setSuffix(tr(" h"));
    m_list->setObjectName(QStringLiteral("autoPlanList"));
    m_list->setWordWrap(true);
    m_status->setWordWrap(true);
    m_applyButton->setEnabled(false);

    auto* form = new QFormLayout;
    form->addRow(tr("&Goal:"), m_goal);
    form->addRow(tr("S&teps of the run:"), m_steps);
    form->addRow(tr("&Deadline:"), m_deadline);
    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_searchButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_applyButton, QDialogButtonBox::ApplyRole);
    buttons->addButton(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(640, 420);

    connect(m_searchButton, &QPushButton::clicked, this, &AutoPlanDialog::search);
    connect(m_applyButton, &QPushButton::clicked, this, [this] { apply(m_list->currentRow()); });
    connect(m_list, &QListWidget::itemActivated, this, [this] { apply(m_list->currentRow()); });
    connect(m_list, &QListWidget::currentRowChanged, this,
            [this](int row) { m_applyButton->setEnabled(row >= 0); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_watcher, &QFutureWatcher<std::vector<planner::RankedPlan>>::finished, this,
            &AutoPlanDialog::onFinished);
}

AutoPlanDialog::~AutoPlanDialog() {
    m_watcher.waitForFinished(); // autoPlan is bounded pure computation (< 1 s by its contract)
}

void AutoPlanDialog::search() {
    if (searching()) {
        return;
    }
    const planner::PlanModel* model = m_document->model();
    if (!model) {
        m_status->setText(m_document->modelError());
        return;
    }
    planner::AutoPlanGoal goal;
    goal.kind = static_cast<planner::AutoPlanGoal::Kind>(m_goal->currentData().toInt());
    goal.steps = m_steps->value();
    goal.deadlineSeconds = m_deadline->value() * 3600.0;
    goal.top = 5;
    goal.searchVirtualStages = false; // the canvas draws one stage per pipeline rank
    m_status->setText(tr("Searching…"));
    m_searchButton->setEnabled(false);
    m_list->clear();
    CalibrationCache stored; // tessera-ctl calibrate's fit of the live nodes, if any
    m_watcher.setFuture(QtConcurrent::run(
        tsanHandOff([model = *model, cluster = m_document->cluster(),
                     options = m_document->options(), goal, calibration = stored.current()] {
            return planner::autoPlan(model, cluster, options, goal, calibration);
        })));
}

void AutoPlanDialog::onFinished() {
    const Result<std::vector<planner::RankedPlan>> found = m_watcher.result();
    m_results = found.value_or(std::vector<planner::RankedPlan>{});
    m_searchButton->setEnabled(true);
    m_list->clear();
    for (const planner::RankedPlan& p : m_results) {
        // The planner's reason names the degrees; the layer split is in the tooltip.
        auto* item = new QListWidgetItem(
            tr("%1/step — %2")
                .arg(formatSeconds(p.estimate.stepSeconds), QString::fromStdString(p.reason)),
            m_list);
        item->setToolTip(describeLayout(p.layout));
    }
    if (!found) {
        m_status->setText(tr("Auto-plan cannot estimate this cluster: %1")
                              .arg(QString::fromStdString(found.error().message)));
    } else {
        m_status->setText(m_results.empty()
                              ? tr("No layout fits these machines: add devices, use ZeRO or "
                                   "recompute, or pick a smaller model.")
                              : tr("Pick a layout and Apply it; you can keep editing it after."));
    }
    if (!m_results.empty()) {
        m_list->setCurrentRow(0);
    }
    Q_EMIT searchFinished();
}

bool AutoPlanDialog::apply(int index) {
    if (index < 0 || index >= static_cast<int>(m_results.size())) {
        return false;
    }
    const planner::RankedPlan& p = m_results[static_cast<std::size_t>(index)];
    v1::PlanFile next = m_document->file();
    v1::Layout layout = p.layout;
    layout.set_zero_stage(p.options.zeroStage > 1 ? 0 : p.options.zeroStage);
    *next.mutable_layout() = layout;
    v1::PlanSettings* s = next.mutable_settings();
    s->set_global_batch(p.options.globalBatch);
    s->set_zero_stage(p.options.zeroStage);
    s->set_recompute(p.options.recompute);
    s->set_sequence_parallel(p.options.sequenceParallel);
    m_document->edit(next, tr("Apply auto-plan: %1").arg(describeLayout(p.layout)));
    return true;
}

} // namespace tessera::designer
