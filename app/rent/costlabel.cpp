// Running cost of the cluster in the status bar (see costlabel.h).
#include "app/rent/costlabel.h"

#include "backend/provision/provider.h"

#include <QLocale>
#include <QTimer>

namespace tessera {

CostLabel::CostLabel(const QList<Provider*>& providers, QWidget* parent)
    : QLabel(parent), m_providers(providers) {
    setObjectName(QStringLiteral("clusterCost"));
    m_plainTip = tr("What the rented machines bill: per hour now, and since they were rented");
    setToolTip(m_plainTip);
    for (Provider* p : providers) {
        connect(p, &Provider::leaseChanged, this, &CostLabel::refresh);
    }
    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &CostLabel::refresh);
    timer->start(10000);
    refresh();
}

void CostLabel::refresh() {
    QList<Lease> leases;
    for (Provider* p : std::as_const(m_providers)) {
        leases += p->leases();
    }
    setVisible(!leases.isEmpty());
    QString text =
        tr("Cluster $%1/h · $%2 so far")
            .arg(QLocale().toString(burnRate(leases), 'f', 2))
            .arg(QLocale().toString(totalCost(leases, QDateTime::currentDateTimeUtc()), 'f', 2));
    if (m_level == BudgetVerdict::Level::Near) {
        text += tr(" · budget nearly spent");
    } else if (m_level == BudgetVerdict::Level::Reached) {
        text += tr(" · budget reached");
    }
    setText(text);
}

void CostLabel::setBudgetAlert(BudgetVerdict::Level level, const QString& text) {
    m_level = level;
    setToolTip(level == BudgetVerdict::Level::Fine ? m_plainTip : text);
    // Amber and red that read on light and dark palettes alike.
    setStyleSheet(level == BudgetVerdict::Level::Near      ? QStringLiteral("color: #b36b00;")
                  : level == BudgetVerdict::Level::Reached ? QStringLiteral("color: #c0392b;")
                                                           : QString());
    refresh();
}

} // namespace tessera
