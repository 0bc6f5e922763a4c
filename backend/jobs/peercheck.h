// Which of a failed job's workers are dead: when mpirun on rank 0's worker fails because another
// worker died, its message names the host it runs on ("Peer host: alpha"), not the one that
// died. Asking each other worker once (GetInfo, short deadline) names the dead one instead.
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace tessera {

class WorkerClient;

/// One worker of a job: its cluster name and a client for it (null: it left the cluster).
struct JobPeer {
    QString name;
    std::shared_ptr<WorkerClient> client;
};

/// A worker that did not answer, and what the call said ("does not answer (Connection refused)").
struct DeadPeer {
    QString name;
    QString why;
};

/// Asks every peer GetInfo with `timeoutMs` (default 1500 ms), all at once on `pool`, and calls
/// `done` once in `context`'s thread with those that did not answer (in `peers`' order; empty
/// when all did). Never blocks the caller. `context` must outlive the pool's tasks (its owner
/// waits for `pool` in its destructor, as JobController does); `done` is dropped if `context`
/// is destroyed before it runs.
void findDeadPeers(QThreadPool* pool, QObject* context, const QList<JobPeer>& peers,
                   std::function<void(QList<DeadPeer>)> done, int timeoutMs = 1500);

} // namespace tessera
