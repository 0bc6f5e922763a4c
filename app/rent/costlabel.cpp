// Running cost of the cluster in the status bar (see costlabel.h).
#include "app/rent/costlabel.h"

#include "backend/provision/provider.h"

#include <QLocale>
#include <QTimer>

namespace tessera {

CostLabel::CostLabel(const QList<Provider*>& providers, QWidget* parent)
    : QLabel(parent), m_providers(providers) {
    setObjectName(QStringLiteral("clusterCost"));
    setToolTip(tr("What the rented machines bill: per hour now, and since they were rented"));
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
    setText(
        tr("Cluster $%1/h · $%2 so far")
            .arg(QLocale().toString(burnRate(leases), 'f', 2))
            .arg(QLocale().toString(totalCost(leases, QDateTime::currentDateTimeUtc()), 'f', 2)));
}

} // namespace tessera
