// Status-bar label with what the cluster's leases cost: dollars per hour now and in total.
#pragma once

#include "backend/provision/budgetwatch.h"

#include <QLabel>
#include <QList>

namespace tessera {

class Provider;

/// "Cluster $0.65/h · $1.20 so far", refreshed on every lease change and every 10 s. Hidden
/// while no lease was ever taken (nothing bills). After a budget alert (Autoscaler::budgetAlert)
/// it adds "· budget nearly spent" (amber) or "· budget reached" (red), with the alert as tool tip.
class CostLabel : public QLabel {
    Q_OBJECT
public:
    /// `providers` must outlive the label.
    explicit CostLabel(const QList<Provider*>& providers, QWidget* parent = nullptr);

public Q_SLOTS:
    void refresh();
    /// Shows the budget's `level`; `text` (what was spent, what follows) becomes the tool tip.
    void setBudgetAlert(tessera::BudgetVerdict::Level level, const QString& text);

private:
    QList<Provider*> m_providers;
    BudgetVerdict::Level m_level = BudgetVerdict::Level::Fine;
    QString m_plainTip;
};

} // namespace tessera
