// A server's cluster as WorkerNode rows (see clusterview.h).
#include "backend/client/clusterview.h"

#include "backend/client/serverconnection.h"

namespace tessera::client {

namespace bv1 = tessera::backend::v1;

namespace {

NodeState stateOf(const std::string& name) {
    for (NodeState s :
         {NodeState::Connecting, NodeState::Ready, NodeState::Unreachable, NodeState::Stopped}) {
        if (nodeStateName(s).toStdString() == name) {
            return s;
        }
    }
    return NodeState::Connecting;
}

} // namespace

ClusterView::ClusterView(QObject* parent) : QObject(parent) {}

void ClusterView::follow(ServerConnection* connection) {
    connect(connection, &ServerConnection::clusterChanged, this,
            [this, connection] { apply(connection->cluster()); });
    apply(connection->cluster());
}

WorkerNode ClusterView::nodeOf(const bv1::NodeInfo& info) {
    WorkerNode n;
    n.name = QString::fromStdString(info.name());
    n.address = QString::fromStdString(info.address());
    n.host = QString::fromStdString(info.host());
    n.state = stateOf(info.state());
    n.slots = info.slots();
    n.cores = info.cores();
    n.memoryBytes = info.memory_bytes();
    n.cudaDevices = info.cuda_devices();
    n.gpuName = QString::fromStdString(info.gpu_name());
    n.gpuMemoryBytes = info.gpu_memory_bytes();
    n.provider = QString::fromStdString(info.provider());
    n.lastError = QString::fromStdString(info.last_error());
    return n;
}

void ClusterView::apply(const bv1::ClusterSnapshot& snapshot) {
    m_snapshot = snapshot;
    QList<WorkerNode> nodes;
    QHash<QString, std::string> wire;
    QStringList added, updated;
    m_busy.clear();
    for (const bv1::NodeInfo& info : snapshot.nodes()) {
        WorkerNode n = nodeOf(info);
        std::string serialized = info.SerializeAsString();
        if (!m_wire.contains(n.name)) {
            added << n.name;
        } else if (m_wire.value(n.name) != serialized) {
            updated << n.name;
        }
        if (info.busy()) {
            m_busy.insert(n.name, true);
        }
        wire.insert(n.name, std::move(serialized));
        nodes << std::move(n);
    }
    QStringList removed;
    for (const WorkerNode& before : std::as_const(m_nodes)) {
        if (!wire.contains(before.name)) {
            removed << before.name;
        }
    }
    m_nodes = std::move(nodes);
    m_wire = std::move(wire);
    for (const QString& name : std::as_const(removed)) {
        Q_EMIT nodeRemoved(name);
    }
    for (const QString& name : std::as_const(added)) {
        Q_EMIT nodeAdded(name);
    }
    for (const QString& name : std::as_const(updated)) {
        Q_EMIT nodeChanged(name);
    }
    Q_EMIT changed();
}

std::optional<WorkerNode> ClusterView::node(const QString& name) const {
    for (const WorkerNode& n : m_nodes) {
        if (n.name == name) {
            return n;
        }
    }
    return std::nullopt;
}

QList<WorkerNode> ClusterView::readyNodes() const {
    QList<WorkerNode> ready;
    for (const WorkerNode& n : m_nodes) {
        if (n.state == NodeState::Ready) {
            ready << n;
        }
    }
    return ready;
}

} // namespace tessera::client
