// The Auto-provision settings dialog (see autoscalesettings.h).
#include "app/settings/autoscalesettings.h"

#include "backend/client/clusterview.h"
#include "backend/client/serverconnection.h"
#include "backend/service/backendclient.h"

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

AutoscaleSettingsDialog::AutoscaleSettingsDialog(client::ClusterView* cluster,
                                                 client::ServerConnection* connection,
                                                 QWidget* parent)
    : QDialog(parent), m_cluster(cluster), m_connection(connection), m_status(new QLabel(this)),
      m_enabled(new QCheckBox(this)), m_perHour(new QDoubleSpinBox(this)),
      m_total(new QDoubleSpinBox(this)), m_nodes(new QSpinBox(this)),
      m_idleMin(new QSpinBox(this)) {
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
    m_status->setObjectName(QStringLiteral("autoscaleStatus"));
    m_status->setWordWrap(true);
    m_status->hide();
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    // A policy set elsewhere (another window, tessera-ctl) shows in the next snapshot.
    connect(cluster, &client::ClusterView::changed, this, &AutoscaleSettingsDialog::updateApply);
    setFields(policy());
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

AutoscalePolicy AutoscaleSettingsDialog::policy() const {
    const auto& a = m_cluster->snapshot().autoscale();
    AutoscalePolicy p;
    if (m_cluster->snapshot().time_ms() > 0) { // else: none yet, the defaults
        p = {a.enabled(), a.max_per_hour(), a.max_total(), a.max_nodes(), a.idle_timeout_sec()};
    }
    return p;
}

QString AutoscaleSettingsDialog::status() const {
    return m_status->isHidden() ? QString() : m_status->text();
}

void AutoscaleSettingsDialog::apply() {
    const AutoscalePolicy p = fields();
    tessera::backend::v1::AutoscaleInfo info;
    info.set_enabled(p.enabled);
    info.set_max_per_hour(p.maxPerHour);
    info.set_max_total(p.maxTotal);
    info.set_max_nodes(p.maxNodes);
    info.set_idle_timeout_sec(p.idleTimeoutSec);
    m_sending = true;
    m_status->hide();
    updateApply();
    m_connection->request<Result<void>>(
        [info](BackendClient& c) { return c.setAutoscale(info); },
        [this](Result<void> done) {
            m_sending = false;
            if (!done) {
                const QString why = QString::fromStdString(done.error().message);
                m_status->setText(tr("Not changed: %1").arg(why));
                m_status->show();
                Q_EMIT message(tr("auto-provision settings not changed: %1").arg(why));
            }
            updateApply();
        });
}

void AutoscaleSettingsDialog::accept() {
    apply();
    QDialog::accept();
}

void AutoscaleSettingsDialog::reject() {
    setFields(policy());
    QDialog::reject();
}

void AutoscaleSettingsDialog::showEvent(QShowEvent* event) {
    setFields(policy()); // changed elsewhere since it was last open
    m_status->hide();
    QDialog::showEvent(event);
}

void AutoscaleSettingsDialog::updateApply() {
    const AutoscalePolicy now = policy();
    // As setFields shows `now`: idle in whole minutes, at least one.
    AutoscalePolicy shown = now;
    shown.idleTimeoutSec = std::max(1, now.idleTimeoutSec / 60) * 60;
    const AutoscalePolicy f = fields();
    auto differ = [](double a, double b) {
        return std::abs(a - b) >= 0.005;
    }; // 2 decimals
    m_apply->setEnabled(!m_sending &&
                        (f.enabled != shown.enabled || differ(f.maxPerHour, shown.maxPerHour) ||
                         differ(f.maxTotal, shown.maxTotal) || f.maxNodes != shown.maxNodes ||
                         f.idleTimeoutSec != shown.idleTimeoutSec));
}

} // namespace tessera
