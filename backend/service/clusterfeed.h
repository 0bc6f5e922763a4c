// The control API's WatchCluster (issue 48): snapshots of the session's cluster (nodes, leases,
// budget, auto-provision policy) for every client that watches it.
#pragma once

#include "backend/service/updatequeue.h"
#include "tessera/backend/v1/backend.pb.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <memory>

namespace tessera {

class BackendSession;

/// What the cluster looks like now, from `session`'s registry, providers, controller and
/// autoscaler (on the session's thread). Leases: the live ones and those that ended in the last
/// 24 h.
tessera::backend::v1::ClusterSnapshot clusterSnapshot(const BackendSession& session);

/// Watches the session's registry, providers and autoscaler and, at most every `intervalMs`
/// (default 250), sends a fresh snapshot to every registered queue once something changed. Lives
/// on the session's thread.
class ClusterFeed : public QObject {
    Q_OBJECT
public:
    explicit ClusterFeed(BackendSession* session, QObject* parent = nullptr);

    /// Queues the snapshot now and registers `queue` for the later ones.
    void subscribe(std::shared_ptr<ClusterQueue> queue);
    /// Ends every stream with `status` (the server stops).
    void closeAll(const grpc::Status& status);
    void setInterval(int ms) { m_timer.setInterval(ms); }
    /// Something a snapshot shows changed without a signal of its own (a policy set through the
    /// control API): the next snapshot goes out within the interval.
    void changed();

private:
    void publish();

    BackendSession* m_session;
    QList<std::shared_ptr<ClusterQueue>> m_queues;
    QTimer m_timer;
    bool m_dirty = false;
};

} // namespace tessera
