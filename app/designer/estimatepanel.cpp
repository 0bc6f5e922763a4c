// The designer's estimate side panel (see estimatepanel.h).
#include "app/designer/estimatepanel.h"

#include "app/designer/layerpalettemodel.h"
#include "app/designer/memorybars.h"

#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>

namespace tessera::designer {

QString formatSeconds(double seconds) {
    if (seconds >= 1.0) {
        return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', seconds >= 100 ? 0 : 2));
    }
    if (seconds >= 1e-3) {
        return QStringLiteral("%1 ms").arg(QLocale().toString(seconds * 1e3, 'f', 1));
    }
    return QStringLiteral("%1 µs").arg(QLocale().toString(seconds * 1e6, 'f', 0));
}

QString formatUsd(double usd) {
    const int digits = usd >= 1 ? 2 : std::clamp(2 - int(std::floor(std::log10(usd))), 2, 8);
    return QStringLiteral("$%1").arg(QLocale().toString(usd, 'f', digits));
}

EstimatePanel::EstimatePanel(QWidget* parent)
    : QWidget(parent), m_mode(new QLabel(this)), m_bars(new MemoryBars(this)),
      m_problems(new QListWidget(this)) {
    auto* form = new QFormLayout;
    m_mode->setObjectName(QStringLiteral("estimateMode"));
    m_mode->setWordWrap(true);
    form->addRow(m_mode);
    m_step = addRow(form, tr("Step time:"), "stepTimeLabel");
    QFont bold = m_step->font();
    bold.setBold(true);
    m_step->setFont(bold);
    m_split = addRow(form, tr("Split:"), "stepSplitLabel");
    m_bubble = addRow(form, tr("Bubble:"), "bubbleLabel");
    m_throughput = addRow(form, tr("Throughput:"), "throughputLabel");
    m_mfu = addRow(form, tr("MFU:"), "mfuLabel");
    m_cost = addRow(form, tr("Cost:"), "costLabel");

    m_bars->setObjectName(QStringLiteral("memoryBars"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_bars);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_problems->setObjectName(QStringLiteral("problemList"));
    m_problems->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    auto* memTitle = new QLabel(tr("Memory per device:"), this);
    layout->addWidget(memTitle);
    layout->addWidget(scroll, 3);
    auto* probTitle = new QLabel(tr("&Problems:"), this);
    probTitle->setBuddy(m_problems);
    layout->addWidget(probTitle);
    layout->addWidget(m_problems, 1);
    showUnavailable(tr("No estimate yet."));
}

QLabel* EstimatePanel::addRow(QFormLayout* form, const QString& label, const char* name) {
    auto* value = new QLabel(this);
    value->setObjectName(QLatin1String(name));
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(label, value);
    return value;
}

void EstimatePanel::showEstimate(const planner::Estimate& e, int seqLen, bool preview,
                                 const QStringList& labels) {
    m_mode->setText(preview ? tr("<b>Preview</b>: what the layout would be if dropped here.")
                            : QString());
    m_mode->setVisible(preview);
    m_step->setText(formatSeconds(e.stepSeconds));
    // Every term of the step, so that the parts add up to it (optimizer step and the per-step
    // loss all-reduce together: both small, both paid once per step).
    QString split = tr("compute %1 · TP %2 · PP %3 · DP %4 · bubble %5 · optimizer + loss %6")
                        .arg(formatSeconds(e.computeSeconds), formatSeconds(e.tpCommSeconds),
                             formatSeconds(e.ppCommSeconds), formatSeconds(e.dpCommSeconds),
                             formatSeconds(e.bubbleSeconds),
                             formatSeconds(e.optimizerSeconds + e.lossSyncSeconds));
    // Expert and context parallelism's exchanges, where the layout has them.
    if (e.epCommSeconds > 0) {
        split += tr(" · EP all-to-all %1").arg(formatSeconds(e.epCommSeconds));
    }
    if (e.cpCommSeconds > 0) {
        split += tr(" · CP ring %1").arg(formatSeconds(e.cpCommSeconds));
    }
    m_split->setText(split);
    m_bubble->setText(tr("%1 %").arg(QLocale().toString(e.bubbleFraction * 100, 'f', 1)));
    QString throughput = tr("%1 samples/s").arg(formatCount(e.samplesPerSecond));
    if (seqLen > 1) {
        throughput += tr(" · %1 tokens/s").arg(formatCount(e.tokensPerSecond));
    }
    m_throughput->setText(throughput);
    m_mfu->setText(tr("%1 %").arg(QLocale().toString(e.mfu * 100, 'f', 1)));
    if (e.costPerHour > 0) {
        QString cost = tr("%1/h · %2/step").arg(formatUsd(e.costPerHour), formatUsd(e.costPerStep));
        if (e.costPerEpoch > 0) {
            cost += tr(" · %1/epoch").arg(formatUsd(e.costPerEpoch));
        }
        m_cost->setText(cost);
    } else {
        m_cost->setText(tr("unknown (no prices for these machines)"));
    }
    m_bars->setDevices(e.devices, labels);
    m_problems->clear();
    for (const std::string& p : e.problems) {
        auto* item = new QListWidgetItem(QString::fromStdString(p), m_problems);
        item->setForeground(QColor(0xb7, 0x1c, 0x1c));
    }
    if (e.problems.empty()) {
        m_problems->addItem(tr("No problems: the layout can run."));
    }
}

void EstimatePanel::showUnavailable(const QString& reason) {
    m_mode->setVisible(false);
    for (QLabel* l : {m_step, m_split, m_bubble, m_throughput, m_mfu, m_cost}) {
        l->setText(QStringLiteral("—"));
    }
    m_bars->setDevices({}, {});
    m_problems->clear();
    auto* item = new QListWidgetItem(reason, m_problems);
    item->setForeground(QColor(0xb7, 0x1c, 0x1c));
}

QString EstimatePanel::stepTimeText() const {
    return m_step->text();
}

QStringList EstimatePanel::problems() const {
    QStringList out;
    for (int i = 0; i < m_problems->count(); ++i) {
        out << m_problems->item(i)->text();
    }
    return out;
}

} // namespace tessera::designer
