// LocalWorkers seen through the Provider interface: one offer (a worker process on this
// machine, free), one lease per worker, so the Rent dialog and the autoscaler can use it too.
#pragma once

#include "backend/provision/provider.h"

#include <QSet>
#include <QStringList>

namespace tessera {

class ClusterRegistry;
class LocalWorkers;

/// Leases over LocalWorkers. They live in memory only: local workers end with the app (their
/// process gets SIGTERM when it dies), so there is nothing to restore.
class LocalLeases : public Provider {
    Q_OBJECT
public:
    /// At most `capacity` local workers are on offer at once (the planner's rule of thumb for
    /// this machine: max(4 × cores, 8)). Both pointers must outlive this object.
    LocalLeases(LocalWorkers* local, ClusterRegistry* registry, int capacity,
                QObject* parent = nullptr);

    QString id() const override { return QStringLiteral("local"); }
    /// One offer, "local-worker": one slot, $0, "this machine".
    QList<Offer> offers() const override;
    Result<QString> rent(const QString& offerId) override;
    Result<void> release(const QString& leaseId) override;
    void restore() override {}

private:
    void onRentFinished(const QStringList& names);
    void onRentFailed(const QString& error);
    void onNodeChanged(const QString& name);
    QString leaseOfNode(const QString& node) const;

    LocalWorkers* m_local;
    ClusterRegistry* m_registry;
    int m_capacity;
    QStringList m_pending;  ///< leases whose worker is starting, in rent order
    QSet<QString> m_cancel; ///< pending leases released before their worker served
};

} // namespace tessera
