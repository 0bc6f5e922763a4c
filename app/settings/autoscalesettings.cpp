// The Auto-provision settings dialog (see autoscalesettings.h).
#include "app/settings/autoscalesettings.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace tessera {

AutoscaleSettingsDialog::AutoscaleSettingsDialog(Autoscaler* autoscaler, QWidget* parent)
    : QDialog(parent), m_autoscaler(autoscaler), m_enabled(new QCheckBox(this)),
      m_perHour(new QDoubleSpinBox(this)), m_total(new QDoubleSpinBox(this)),
      m_nodes(new QSpinBox(this)), m_idleMin(new QSpinBox(this)) {
    setWindowTitle(tr("Auto-provision"));
    setObjectName(QStringLiteral("autoscaleSettings"));
    m_enabled->setText(tr("&Rent the machines a launched job is missing, release them when idle"));
    m_enabled->setObjectName(QStringLiteral("autoscaleEnabled"));
    for (QDoubleSpinBox* box : {m_perHour, m_total}) {
        box->setRange(0, 1e6);
        box->setDecimals(2);
        box->setPrefix(QStringLiteral("$"));
        box->setSpecialValueText(tr("no cap"));
    }
    m_perHour->setSuffix(tr("/h"));
    m_perHour->setObjectName(QStringLiteral("budgetPerHour"));
    m_total->setObjectName(QStringLiteral("budgetTotal"));
    for (QDoubleSpinBox* box : {m_perHour, m_total}) {
        box->setToolTip(tr("Bounds every rent, by hand in the Rent dialog and tessera-ctl too, "
                           "not only auto-provision's"));
    }
    m_nodes->setRange(1, 1024);
    m_nodes->setObjectName(QStringLiteral("nodeCap"));
    m_idleMin->setRange(1, 24 * 60);
    m_idleMin->setSuffix(tr(" min"));
    m_idleMin->setObjectName(QStringLiteral("idleTimeout"));

    auto* form = new QFormLayout;
    form->addRow(m_enabled);
    form->addRow(tr("Budget per &hour (all leases):"), m_perHour);
    form->addRow(tr("&Total budget (spent so far + the new nodes' first hour):"), m_total);
    form->addRow(tr("&Node cap:"), m_nodes);
    form->addRow(tr("Release after &idle:"), m_idleMin);
    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_apply = buttons->button(QDialogButtonBox::Apply);
    m_cancel = buttons->button(QDialogButtonBox::Cancel);
    m_ok->setObjectName(QStringLiteral("autoscaleOk"));
    m_apply->setObjectName(QStringLiteral("autoscaleApply"));
    m_cancel->setObjectName(QStringLiteral("autoscaleCancel"));
    connect(m_apply, &QPushButton::clicked, this, &AutoscaleSettingsDialog::apply);
    connect(buttons, &QDialogButtonBox::accepted, this, &AutoscaleSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AutoscaleSettingsDialog::reject);
    connect(m_enabled, &QCheckBox::toggled, this, &AutoscaleSettingsDialog::updateApply);
    for (QDoubleSpinBox* box : {m_perHour, m_total}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, &AutoscaleSettingsDialog::updateApply);
    }
    for (QSpinBox* box : {m_nodes, m_idleMin}) {
        connect(box, &QSpinBox::valueChanged, this, &AutoscaleSettingsDialog::updateApply);
    }
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Every decision appears in the log."), this));
    layout->addWidget(buttons);
    setFields(autoscaler->policy());
    updateApply();
}

AutoscalePolicy AutoscaleSettingsDialog::fields() const {
    AutoscalePolicy p;
    p.enabled = m_enabled->isChecked();
    p.maxPerHour = m_perHour->value();
    p.maxTotal = m_total->value();
    p.maxNodes = m_nodes->value();
    p.idleTimeoutSec = m_idleMin->value() * 60;
    return p;
}

void AutoscaleSettingsDialog::setFields(const AutoscalePolicy& p) {
    m_enabled->setChecked(p.enabled);
    m_perHour->setValue(p.maxPerHour);
    m_total->setValue(p.maxTotal);
    m_nodes->setValue(p.maxNodes);
    m_idleMin->setValue(std::max(1, p.idleTimeoutSec / 60));
}

void AutoscaleSettingsDialog::apply() {
    const AutoscalePolicy p = fields();
    saveAutoscalePolicy(p);
    m_autoscaler->setPolicy(p);
    updateApply();
}

void AutoscaleSettingsDialog::accept() {
    apply();
    QDialog::accept();
}

void AutoscaleSettingsDialog::reject() {
    setFields(m_autoscaler->policy());
    QDialog::reject();
}

void AutoscaleSettingsDialog::showEvent(QShowEvent* event) {
    setFields(m_autoscaler->policy()); // changed elsewhere since it was last open
    QDialog::showEvent(event);
}

void AutoscaleSettingsDialog::updateApply() {
    const AutoscalePolicy now = m_autoscaler->policy();
    // As setFields shows `now`: idle in whole minutes, at least one.
    AutoscalePolicy shown = now;
    shown.idleTimeoutSec = std::max(1, now.idleTimeoutSec / 60) * 60;
    const AutoscalePolicy f = fields();
    auto differ = [](double a, double b) {
        return std::abs(a - b) >= 0.005;
    }; // 2 decimals
    m_apply->setEnabled(f.enabled != shown.enabled || differ(f.maxPerHour, shown.maxPerHour) ||
                        differ(f.maxTotal, shown.maxTotal) || f.maxNodes != shown.maxNodes ||
                        f.idleTimeoutSec != shown.idleTimeoutSec);
}

} // namespace tessera
