// Degree and schedule controls of the designer (see layoutcontrols.h).
#include "app/designer/layoutcontrols.h"

#include "app/designer/plandocument.h"
#include "backend/layout/layoutmath.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>

namespace tessera::designer {

namespace {
// Undo merge ids: consecutive changes of one control are one undo step.
enum MergeId { DpId = 100, TpId, MicroId, ScheduleId, ZeroId, BatchId };
} // namespace

LayoutControls::LayoutControls(PlanDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_dp(new QSpinBox(this)), m_tp(new QSpinBox(this)),
      m_micro(new QSpinBox(this)), m_schedule(new QComboBox(this)), m_zero(new QSpinBox(this)),
      m_batch(new QSpinBox(this)), m_microSize(new QLabel(this)) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto add = [&](QWidget* w, const QString& label, const char* name, const QString& tip) {
        auto* l = new QLabel(label, this);
        l->setBuddy(w);
        w->setObjectName(QLatin1String(name));
        w->setToolTip(tip);
        row->addWidget(l);
        row->addWidget(w);
    };
    m_dp->setRange(1, 4096);
    m_tp->setRange(1, 64);
    m_micro->setRange(1, 4096);
    m_zero->setRange(0, 3);
    m_batch->setRange(1, 1 << 20);
    m_schedule->addItem(tr("1F1B"), int(v1::PIPELINE_SCHEDULE_1F1B));
    m_schedule->addItem(tr("GPipe"), int(v1::PIPELINE_SCHEDULE_GPIPE));
    m_schedule->addItem(tr("ZB-H1"), int(v1::PIPELINE_SCHEDULE_ZB_H1));
    m_schedule->addItem(tr("Interl."), int(v1::PIPELINE_SCHEDULE_INTERLEAVED));
    add(m_dp, tr("&DP:"), "dpSpin", tr("Data-parallel degree: replicas of the whole pipeline"));
    add(m_tp, tr("&TP:"), "tpSpin",
        tr("Tensor-parallel width of every stage (the engine runs one TP group size)"));
    add(m_micro, tr("&Micro-batches:"), "microSpin",
        tr("Micro-batches per step; more shrink the pipeline bubble (p−1)/(m+p−1)"));
    m_microSize->setObjectName(QStringLiteral("microSizeLabel"));
    m_microSize->setToolTip(tr("Micro-batch size: samples (sequences) per micro-batch on each "
                               "data-parallel rank, global batch / (DP × micro-batches); red "
                               "when it is not whole"));
    row->addSpacing(-4); // "×4" reads as the micro-batch spin box's unit
    row->addWidget(m_microSize);
    add(m_schedule, tr("Sc&hed.:"), "scheduleCombo",
        tr("Pipeline schedule: 1F1B keeps at most PP micro-batches in flight, GPipe all of them; "
           "ZB-H1 splits the backward and fills the bubble with weight gradients (Qi et al. "
           "2024); Interl. (interleaved 1F1B) cuts the layers into 2 model chunks per stage, which "
           "shrinks the "
           "bubble to (p−1)/(2m) (Narayanan et al. 2021)"));
    add(m_zero, tr("&ZeRO:"), "zeroSpin",
        tr("ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 also weights across DP"));
    add(m_batch, tr("&Batch:"), "batchSpin", tr("Global batch: samples per optimizer step"));
    row->addStretch();

    auto spin = [this](QSpinBox* box, int id) {
        connect(box, &QSpinBox::valueChanged, this, [this, id] { commit(id); });
    };
    spin(m_dp, DpId);
    spin(m_tp, TpId);
    spin(m_micro, MicroId);
    spin(m_zero, ZeroId);
    spin(m_batch, BatchId);
    connect(m_schedule, &QComboBox::currentIndexChanged, this, [this] { commit(ScheduleId); });
    connect(m_document, &PlanDocument::changed, this, &LayoutControls::refresh);
    refresh();
}

void LayoutControls::rechunk(v1::Layout& layout, v1::PipelineSchedule next, int layers) {
    const int pp = stageCount(layout);
    const bool was = std::max(1, layout.virtual_stages()) > 1;
    const bool into = next == v1::PIPELINE_SCHEDULE_INTERLEAVED;
    const int pieces = into ? 2 * pp : pp;
    if (was == into || (into && pp < 2) || layers < pieces) {
        return; // nothing to cut, or too few layers/stages to interleave
    }
    layout.clear_stages();
    for (int k = 0; k < pieces; ++k) {
        v1::Stage* s = layout.add_stages();
        s->set_first_layer(int(std::int64_t(layers) * k / pieces));
        s->set_last_layer(int(std::int64_t(layers) * (k + 1) / pieces) - 1);
    }
    layout.set_virtual_stages(into ? 2 : 0);
}

void LayoutControls::refresh() {
    const v1::PlanFile& f = m_document->file();
    const QSignalBlocker b1(m_dp), b2(m_tp), b3(m_micro), b4(m_schedule), b5(m_zero), b6(m_batch);
    m_dp->setValue(std::max(1, f.layout().data_parallel()));
    m_tp->setValue(std::max(1, f.layout().tensor_parallel()));
    m_micro->setValue(std::max(1, f.layout().micro_batches()));
    m_schedule->setCurrentIndex(std::max(0, m_schedule->findData(int(f.layout().schedule()))));
    m_zero->setValue(f.settings().zero_stage());
    m_batch->setValue(f.settings().global_batch() > 0 ? f.settings().global_batch() : 64);
    const int perStep = m_dp->value() * m_micro->value();
    // "×4": samples per micro-batch; red when the batch does not divide into them.
    const bool whole = m_batch->value() % perStep == 0;
    m_microSize->setText(
        tr("×%1").arg(whole ? QLocale().toString(m_batch->value() / perStep)
                            : QLocale().toString(double(m_batch->value()) / perStep, 'g', 3)));
    m_microSize->setStyleSheet(whole ? QString() : QStringLiteral("color: #c62828;"));
}

void LayoutControls::commit(int mergeId) {
    v1::PlanFile next = m_document->file();
    v1::Layout* l = next.mutable_layout();
    l->set_data_parallel(m_dp->value());
    l->set_tensor_parallel(m_tp->value());
    l->set_micro_batches(m_micro->value());
    const auto schedule = static_cast<v1::PipelineSchedule>(m_schedule->currentData().toInt());
    if (mergeId == ScheduleId) {
        rechunk(*l, schedule, m_document->layerCount());
    }
    l->set_schedule(schedule);
    next.mutable_settings()->set_zero_stage(m_zero->value());
    next.mutable_settings()->set_global_batch(m_batch->value());
    QString text;
    switch (mergeId) {
    case DpId:
        text = tr("Set DP to %1").arg(m_dp->value());
        break;
    case TpId:
        text = tr("Set TP to %1").arg(m_tp->value());
        break;
    case MicroId:
        text = tr("Set micro-batches to %1").arg(m_micro->value());
        break;
    case ScheduleId:
        text = tr("Set schedule to %1").arg(m_schedule->currentText());
        break;
    case ZeroId:
        text = tr("Set ZeRO stage to %1").arg(m_zero->value());
        break;
    default:
        text = tr("Set global batch to %1").arg(m_batch->value());
    }
    m_document->edit(next, text, mergeId);
}

} // namespace tessera::designer
