// Sequence, precision and memory-saver controls of the designer (see trainingcontrols.h).
#include "app/designer/trainingcontrols.h"

#include "app/designer/plandocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace tessera::designer {

namespace {
// Undo merge ids (after LayoutControls'): consecutive changes of one control are one step.
enum MergeId { SeqId = 200, PrecisionId, RecomputeId, SpId, FlashId, CpId, EpId };

/// Selects the item of `box` whose data is `value` (the first item when none is).
void selectData(QComboBox* box, const QString& value) {
    const int i = box->findData(value);
    box->setCurrentIndex(i < 0 ? 0 : i);
}
} // namespace

TrainingControls::TrainingControls(PlanDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_seq(new QSpinBox(this)),
      m_precision(new QComboBox(this)), m_recompute(new QComboBox(this)),
      m_sp(new QCheckBox(tr("S&P"), this)), m_flash(new QComboBox(this)), m_cp(new QSpinBox(this)),
      m_ep(new QSpinBox(this)) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto add = [&](QWidget* w, const QString& label, const char* name, const QString& tip) {
        if (!label.isEmpty()) {
            auto* l = new QLabel(label, this);
            l->setBuddy(w);
            row->addWidget(l);
        }
        w->setObjectName(QLatin1String(name));
        w->setToolTip(tip);
        row->addWidget(w);
    };
    m_seq->setRange(0, 1 << 20);
    m_seq->setSpecialValueText(tr("model's"));
    m_precision->addItem(tr("model's"), QString());
    m_precision->addItem(QStringLiteral("BF16"), QStringLiteral("bf16"));
    m_precision->addItem(QStringLiteral("FP8"), QStringLiteral("fp8"));
    m_precision->addItem(QStringLiteral("TF32"), QStringLiteral("tf32"));
    m_precision->addItem(QStringLiteral("FP32"), QStringLiteral("fp32"));
    m_recompute->addItem(tr("none"), QStringLiteral("none"));
    m_recompute->addItem(tr("selective"), QStringLiteral("selective"));
    m_recompute->addItem(tr("full"), QStringLiteral("full"));
    m_flash->addItem(tr("auto"), QStringLiteral("auto"));
    m_flash->addItem(tr("on"), QStringLiteral("on"));
    m_flash->addItem(tr("off"), QStringLiteral("off"));
    // Short labels (their tooltips say the rest): the two control rows must fit a 1366-pixel
    // laptop screen beside the docks (tst_windowfit).
    add(m_seq, tr("Se&q:"), "seqLenSpin",
        tr("Sequence length: tokens per sequence of an imported model (\"model's\": its "
           "positions, at most 4096)"));
    add(m_precision, tr("Pre&c:"), "precisionCombo",
        tr("Precision: BF16 mixed precision keeps an FP32 master copy; FP8 runs the GEMMs in FP8 "
           "(Hopper, Ada, Blackwell, MI300) and keeps BF16 weights"));
    add(m_recompute, tr("Reco&mp:"), "recomputeCombo",
        tr("Activation recompute (Korthikanti et al. 2022): selective re-runs attention, full "
           "the whole block, trading backward time for activation memory"));
    add(m_sp, QString(), "spCheck",
        tr("Sequence parallelism (SP): LayerNorm and dropout activations split over the TP "
           "group"));
    add(m_flash, tr("F&lash:"), "flashCombo",
        tr("FlashAttention keeps no sequence × sequence attention scores; auto: on for an "
           "imported model on GPUs"));
    m_cp->setRange(1, 64);  // LLaMA-3 405B's longest-context phase used CP 16
    m_ep->setRange(1, 256); // DeepSeek-V3's 256 routed experts, one per rank
    add(m_cp, tr("C&P:"), "cpSpin",
        tr("Context parallel (CP): each sequence split over this many ranks, attention by a "
           "ring exchange of keys and values; multiplies the ranks"));
    add(m_ep, tr("&EP:"), "epSpin",
        tr("Expert parallel (EP): a mixture of experts' routed experts split over this many of "
           "the DP × CP ranks, tokens sent to them by all-to-all; adds no ranks"));
    row->addStretch();

    connect(m_seq, &QSpinBox::valueChanged, this, [this] { commit(SeqId); });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this] { commit(PrecisionId); });
    connect(m_recompute, &QComboBox::currentIndexChanged, this, [this] { commit(RecomputeId); });
    connect(m_sp, &QCheckBox::toggled, this, [this] { commit(SpId); });
    connect(m_flash, &QComboBox::currentIndexChanged, this, [this] { commit(FlashId); });
    connect(m_cp, &QSpinBox::valueChanged, this, [this] { commit(CpId); });
    connect(m_ep, &QSpinBox::valueChanged, this, [this] { commit(EpId); });
    connect(m_document, &PlanDocument::changed, this, &TrainingControls::refresh);
    refresh();
}

void TrainingControls::refresh() {
    const v1::PlanFile& f = m_document->file();
    const v1::PlanSettings& s = f.settings();
    const QSignalBlocker b1(m_seq), b2(m_precision), b3(m_recompute), b4(m_sp), b5(m_flash),
        b6(m_cp), b7(m_ep);
    const bool imported = !f.hf_config_json().empty();
    m_cp->setValue(std::max(1, f.layout().context_parallel()));
    m_ep->setValue(std::max(1, f.layout().expert_parallel()));
    m_seq->setValue(f.seq_len());
    selectData(m_precision, QString::fromStdString(s.precision()));
    selectData(m_recompute, s.recompute().empty() ? QStringLiteral("none")
                                                  : QString::fromStdString(s.recompute()));
    m_sp->setChecked(s.sequence_parallel());
    selectData(m_flash, s.flash_attention().empty() ? QStringLiteral("auto")
                                                    : QString::fromStdString(s.flash_attention()));
    for (QWidget* w : {static_cast<QWidget*>(m_seq), static_cast<QWidget*>(m_recompute),
                       static_cast<QWidget*>(m_sp), static_cast<QWidget*>(m_flash),
                       static_cast<QWidget*>(m_cp), static_cast<QWidget*>(m_ep)}) {
        w->setEnabled(imported);
    }
}

void TrainingControls::commit(int mergeId) {
    v1::PlanFile next = m_document->file();
    v1::PlanSettings* s = next.mutable_settings();
    next.set_seq_len(m_seq->value());
    s->set_precision(m_precision->currentData().toString().toStdString());
    s->set_recompute(m_recompute->currentData().toString().toStdString());
    s->set_sequence_parallel(m_sp->isChecked());
    const QString flash = m_flash->currentData().toString();
    s->set_flash_attention(flash == QLatin1String("auto") ? std::string() : flash.toStdString());
    v1::Layout* l = next.mutable_layout();
    l->set_context_parallel(m_cp->value() > 1 ? m_cp->value() : 0);
    l->set_expert_parallel(m_ep->value() > 1 ? m_ep->value() : 0);
    QString text;
    switch (mergeId) {
    case SeqId:
        text = m_seq->value() > 0 ? tr("Set sequence length to %1").arg(m_seq->value())
                                  : tr("Use the model's sequence length");
        break;
    case PrecisionId:
        text = tr("Set precision to %1").arg(m_precision->currentText());
        break;
    case RecomputeId:
        text = tr("Set recompute to %1").arg(m_recompute->currentText());
        break;
    case SpId:
        text = m_sp->isChecked() ? tr("Turn sequence parallelism on")
                                 : tr("Turn sequence parallelism off");
        break;
    case CpId:
        text = tr("Set CP to %1").arg(m_cp->value());
        break;
    case EpId:
        text = tr("Set EP to %1").arg(m_ep->value());
        break;
    default:
        text = tr("Set FlashAttention to %1").arg(m_flash->currentText());
    }
    m_document->edit(next, text, mergeId);
}

} // namespace tessera::designer
