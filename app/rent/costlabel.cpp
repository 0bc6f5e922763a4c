// Running cost of the cluster in the status bar (see costlabel.h).
#include "app/rent/costlabel.h"

#include "backend/client/clusterview.h"

#include <QDateTime>
#include <QLocale>
#include <QTimer>

namespace tessera {

CostLabel::CostLabel(client::ClusterView* cluster, QWidget* parent)
    : QLabel(parent), m_cluster(cluster) {
    setObjectName(QStringLiteral("clusterCost"));
    m_plainTip = tr("What the rented machines bill: per hour now, and since they were rented");
    setToolTip(m_plainTip);
    connect(cluster, &client::ClusterView::changed, this, &CostLabel::refresh);
    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, &CostLabel::refresh);
    timer->start(10000);
    refresh();
}

void CostLabel::refresh() {
    const auto& s = m_cluster->snapshot();
    setVisible(s.leases_size() > 0);
    // What the live leases billed since the snapshot was taken.
    const double hoursSince =
        s.time_ms() > 0
            ? std::max<qint64>(0, QDateTime::currentMSecsSinceEpoch() - s.time_ms()) / 3.6e6
            : 0.0;
    QString text =
        tr("Cluster $%1/h · $%2 so far")
            .arg(QLocale().toString(s.burn_per_hour(), 'f', 2))
            .arg(QLocale().toString(s.total_cost() + s.burn_per_hour() * hoursSince, 'f', 2));
    showBudget(QString::fromStdString(s.budget_level()), QString::fromStdString(s.budget_alert()));
    if (m_level == QLatin1String("near")) {
        text += tr(" · budget nearly spent");
    } else if (m_level == QLatin1String("reached")) {
        text += tr(" · budget reached");
    }
    setText(text);
}

void CostLabel::showBudget(const QString& level, const QString& alert) {
    const QString shown = level.isEmpty() ? QStringLiteral("fine") : level;
    if (shown == m_level && (shown == QLatin1String("fine") || toolTip() == alert)) {
        return;
    }
    m_level = shown;
    setToolTip(shown == QLatin1String("fine") ? m_plainTip : alert);
    // Amber and red that read on light and dark palettes alike.
    setStyleSheet(shown == QLatin1String("near")      ? QStringLiteral("color: #b36b00;")
                  : shown == QLatin1String("reached") ? QStringLiteral("color: #c0392b;")
                                                      : QString());
}

} // namespace tessera
