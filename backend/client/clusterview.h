// The cluster's nodes as a client sees them: a server's WatchCluster snapshots turned into
// WorkerNode rows with the same signals a ClusterRegistry gives, so panels written against a
// registry's view read a server's instead.
#pragma once

#include "backend/core/workernode.h"
#include "tessera/backend/v1/backend.pb.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>
#include <string>

namespace tessera::client {

class ServerConnection;

/// Nodes of the newest snapshot, in the server's order. apply() compares each node with the one
/// before and emits nodeAdded / nodeChanged / nodeRemoved for what differs (a snapshot that
/// changed nothing of a node says nothing of it), then changed(). The nodes carry no token and
/// no TLS identity: a client never dials a worker.
class ClusterView : public QObject {
    Q_OBJECT
public:
    explicit ClusterView(QObject* parent = nullptr);
    /// Applies `connection`'s snapshot now and each later one (`connection` must outlive it).
    void follow(ServerConnection* connection);
    /// Takes `snapshot` as the cluster now.
    void apply(const tessera::backend::v1::ClusterSnapshot& snapshot);

    /// Every node, in the server's order.
    QList<WorkerNode> nodes() const { return m_nodes; }
    /// The node called `name`, if any.
    std::optional<WorkerNode> node(const QString& name) const;
    /// The Ready nodes, in order (what a job is placed on).
    QList<WorkerNode> readyNodes() const;
    /// Whether a job of the server runs on node `name`.
    bool isBusy(const QString& name) const { return m_busy.contains(name); }
    /// The snapshot last applied (leases, budget and auto-provision policy too).
    const tessera::backend::v1::ClusterSnapshot& snapshot() const { return m_snapshot; }

    /// A snapshot's node as a WorkerNode (an unknown state reads as Connecting).
    static WorkerNode nodeOf(const tessera::backend::v1::NodeInfo& info);

Q_SIGNALS:
    void nodeAdded(QString name);
    void nodeChanged(QString name);
    void nodeRemoved(QString name);
    /// A snapshot was applied (after the node signals it caused).
    void changed();

private:
    tessera::backend::v1::ClusterSnapshot m_snapshot;
    QList<WorkerNode> m_nodes;
    QHash<QString, std::string> m_wire; ///< node → its NodeInfo as last applied (serialized)
    QHash<QString, bool> m_busy;
};

} // namespace tessera::client
