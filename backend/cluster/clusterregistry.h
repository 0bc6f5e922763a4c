// The set of workers the backend can use, in insertion order, each probed with GetInfo off the
// GUI thread; state changes arrive as signals. One WorkerClient (gRPC channel) per worker.
#pragma once

#include "backend/core/workernode.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <memory>
#include <optional>

namespace tessera {

class WorkerClient;

/// Registry of worker nodes. Lives in (and must be used from) one thread, normally the GUI thread;
/// probes run on an internal thread pool and report back with queued calls.
class ClusterRegistry : public QObject {
    Q_OBJECT
public:
    explicit ClusterRegistry(QObject* parent = nullptr);
    /// Waits (at most one probe deadline) for probes in flight.
    ~ClusterRegistry() override;

    /// All nodes in insertion order.
    QList<WorkerNode> nodes() const;
    /// The node called `name`, if any.
    std::optional<WorkerNode> node(const QString& name) const;
    /// Nodes in state Ready, in insertion order (what JobController places ranks on).
    QList<WorkerNode> readyNodes() const;

    /// Adds `node` (state Connecting) or replaces the node of that name, and probes it.
    /// Emits nodeAdded (or nodeChanged when replaced), then nodeChanged when the probe answers.
    /// Probes emit nodeChanged only when something about the node changed.
    void addNode(const WorkerNode& node);
    /// Removes the node; emits nodeRemoved. Unknown names are ignored.
    void removeNode(const QString& name);
    /// Sets the state of a node without probing (providers use Stopped). Emits nodeChanged.
    void setNodeState(const QString& name, NodeState state, const QString& error = QString());

    /// Probes one node / every node now with GetInfo (deadline probeTimeoutMs()).
    void probe(const QString& name);
    void probeAll();

    /// Re-probe period in ms (default 5000; 0 = only on addNode/probe calls).
    void setProbeInterval(int ms);
    /// GetInfo deadline in ms (default 3000).
    void setProbeTimeout(int ms) { m_probeTimeoutMs = ms; }
    int probeTimeoutMs() const { return m_probeTimeoutMs; }

    /// The gRPC client of node `name` (shared, thread-safe), or nullptr for an unknown name.
    std::shared_ptr<WorkerClient> client(const QString& name) const;

Q_SIGNALS:
    void nodeAdded(QString name);
    void nodeChanged(QString name);
    void nodeRemoved(QString name);

private:
    struct Entry {
        WorkerNode node;
        std::shared_ptr<WorkerClient> client;
        quint64 generation = 0; ///< bumps on replace so stale probe answers are dropped
        bool probing = false;
        int connectFailures = 0; ///< failed probes while still Connecting (never reached)
    };
    int indexOf(const QString& name) const;

    QList<Entry> m_entries;
    QThreadPool m_pool;
    QTimer m_timer;
    int m_probeTimeoutMs = 3000;
    quint64 m_nextGeneration = 1;
};

} // namespace tessera
