// WatchJob follower with reconnect-from-last-seq and de-duplication (see jobwatcher.h).
#include "backend/jobs/jobwatcher.h"

#include "backend/cluster/workerclient.h"
#include "backend/core/jobtypes.h"
#include "backend/core/logging.h"

#include <grpcpp/grpcpp.h>

namespace tessera {

JobWatcher::JobWatcher(std::shared_ptr<WorkerClient> client, const QString& jobId, quint64 fromSeq,
                       QObject* parent)
    : QObject(parent), StreamFollower(std::move(client), fromSeq, 120000), m_jobId(jobId) {
    registerBackendMetaTypes();
}

JobWatcher::~JobWatcher() {
    stopFollowing();
}

bool JobWatcher::interrupt() {
    const bool open = interruptStream();
    if (open) {
        qCInfo(lcJobs) << "interrupted the WatchJob stream of" << m_jobId << "after seq"
                       << lastSeq();
    }
    return open;
}

StreamFollower::Pass JobWatcher::readStream(grpc::ClientContext* context, quint64 fromSeq) {
    std::unique_ptr<grpc::ClientReader<v1::JobEvent>> reader =
        client()->watchJob(context, m_jobId, fromSeq);
    Pass pass;
    bool sawTerminal = false;
    v1::JobEvent event;
    while (reader->Read(&event)) {
        pass.gotAny = true;
        if (event.seq() <= lastSeq()) {
            continue; // replayed twice by the worker: already delivered
        }
        setLastSeq(event.seq());
        if (event.has_state()) {
            const auto s = event.state().state();
            sawTerminal = s == v1::JOB_STATE_SUCCEEDED || s == v1::JOB_STATE_FAILED ||
                          s == v1::JOB_STATE_CANCELLED;
        }
        Q_EMIT eventReceived(event);
    }
    pass.status = reader->Finish();
    pass.complete = sawTerminal;
    return pass;
}

void JobWatcher::onReconnecting(quint64 fromSeq, int delayMs, const QString& reason) {
    qCInfo(lcJobs) << "WatchJob stream of" << m_jobId << "broke (" << reason
                   << "); reconnecting from seq" << fromSeq << "in" << delayMs << "ms";
    Q_EMIT reconnecting(fromSeq, delayMs, reason);
}

} // namespace tessera
