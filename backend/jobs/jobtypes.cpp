// Job state names and meta-type registration (see jobtypes.h).
#include "backend/jobs/jobtypes.h"

// Qt defines `slots` as a macro; protobuf's generated code has slots() accessors.
#pragma push_macro("slots")
#undef slots
#include "tessera/v1/worker.pb.h"
#pragma pop_macro("slots")
#include "backend/cluster/workernode.h"

namespace tessera {

QString jobStateName(JobState state) {
    switch (state) {
    case JobState::Queued:
        return QStringLiteral("queued");
    case JobState::Starting:
        return QStringLiteral("starting");
    case JobState::Running:
        return QStringLiteral("running");
    case JobState::Succeeded:
        return QStringLiteral("succeeded");
    case JobState::Failed:
        return QStringLiteral("failed");
    case JobState::Cancelled:
        return QStringLiteral("cancelled");
    }
    return QStringLiteral("failed");
}

JobState jobStateFromName(const QString& name) {
    for (JobState s : {JobState::Queued, JobState::Starting, JobState::Running, JobState::Succeeded,
                       JobState::Failed, JobState::Cancelled}) {
        if (jobStateName(s) == name) {
            return s;
        }
    }
    return JobState::Failed;
}

bool isTerminal(JobState state) {
    return state == JobState::Succeeded || state == JobState::Failed ||
           state == JobState::Cancelled;
}

void registerBackendMetaTypes() {
    qRegisterMetaType<tessera::JobState>("tessera::JobState");
    qRegisterMetaType<tessera::MetricPoint>("tessera::MetricPoint");
    qRegisterMetaType<tessera::JobRecord>("tessera::JobRecord");
    qRegisterMetaType<tessera::NodeState>("tessera::NodeState");
    qRegisterMetaType<tessera::WorkerNode>("tessera::WorkerNode");
    qRegisterMetaType<tessera::v1::JobEvent>("tessera::v1::JobEvent");
}

} // namespace tessera
