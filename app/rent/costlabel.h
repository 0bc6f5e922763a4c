// Status-bar label with what the cluster's leases cost: dollars per hour now and in total.
#pragma once

#include <QLabel>
#include <QList>

namespace tessera {

class Provider;

/// "Cluster $0.65/h · $1.20 so far", refreshed on every lease change and every 10 s. Hidden
/// while no lease was ever taken (nothing bills).
class CostLabel : public QLabel {
    Q_OBJECT
public:
    /// `providers` must outlive the label.
    explicit CostLabel(const QList<Provider*>& providers, QWidget* parent = nullptr);

public Q_SLOTS:
    void refresh();

private:
    QList<Provider*> m_providers;
};

} // namespace tessera
