// Status-bar label with what the cluster's leases cost: dollars per hour now and in total, as the
// server's cluster snapshots (ClusterView) say.
#pragma once

#include <QLabel>

namespace tessera {

namespace client {
class ClusterView;
}

/// "Cluster $0.65/h · $1.20 so far", refreshed on every snapshot and every 10 s (the live leases'
/// cost goes on between snapshots at their burn rate). Hidden while the snapshot lists no lease
/// (nothing bills). After a budget alert of the server's autoscaler it adds "· budget nearly
/// spent" (amber) or "· budget reached" (red), with the alert as tool tip. "So far" counts the
/// leases the snapshot lists: the live ones and those that ended in the last day.
class CostLabel : public QLabel {
    Q_OBJECT
public:
    /// `cluster` must outlive the label.
    explicit CostLabel(client::ClusterView* cluster, QWidget* parent = nullptr);

public Q_SLOTS:
    void refresh();

private:
    /// Colour and tool tip for the snapshot's budget level ("fine", "near", "reached").
    void showBudget(const QString& level, const QString& alert);

    client::ClusterView* m_cluster;
    QString m_level = QStringLiteral("fine");
    QString m_plainTip;
};

} // namespace tessera
