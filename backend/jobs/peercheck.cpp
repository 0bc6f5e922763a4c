// Which of a failed job's workers are dead (see peercheck.h).
#include "backend/jobs/peercheck.h"

#include "backend/cluster/workerclient.h"
#include "worker/common/tsan_handoff.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <mutex>

namespace tessera {

namespace {

/// What the probes found so far; the last one to finish reports.
struct Probe {
    std::mutex mutex;
    int left = 0;
    QList<DeadPeer> dead; ///< in `peers` order: slots filled as answers come
    QList<bool> isDead;
};

} // namespace

void findDeadPeers(QThreadPool* pool, QObject* context, const QList<JobPeer>& peers,
                   std::function<void(QList<DeadPeer>)> done, int timeoutMs) {
    auto probe = std::make_shared<Probe>();
    probe->left = int(peers.size());
    probe->dead.resize(peers.size());
    probe->isDead.fill(false, peers.size());
    auto report = [probe, context, done] {
        QList<DeadPeer> dead;
        for (qsizetype i = 0; i < probe->dead.size(); ++i) {
            if (probe->isDead[i]) {
                dead << probe->dead[i];
            }
        }
        // Queued: dropped if `context` is gone by then.
        QMetaObject::invokeMethod(context, tsanHandOff([done, dead] { done(dead); }),
                                  Qt::QueuedConnection);
    };
    if (peers.isEmpty()) {
        report();
        return;
    }
    for (qsizetype i = 0; i < peers.size(); ++i) {
        pool->start(tsanHandOff([probe, report, peer = peers[i], i, timeoutMs] {
            QString why;
            if (!peer.client) {
                why = QCoreApplication::translate("tessera::JobController", "it left the cluster");
            } else if (auto info = peer.client->getInfo(timeoutMs); !info) {
                why = QString::fromStdString(info.error().message);
            }
            std::lock_guard lock(probe->mutex);
            if (!why.isEmpty()) {
                probe->dead[i] = DeadPeer{peer.name, why};
                probe->isDead[i] = true;
            }
            if (--probe->left == 0) {
                report();
            }
        }));
    }
}

} // namespace tessera
