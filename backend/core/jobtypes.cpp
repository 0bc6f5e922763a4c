// Job state names and texts, and meta-type registration (see jobtypes.h).
#include "backend/core/jobtypes.h"

#include "backend/core/statetext.h"
#include "backend/core/workernode.h"
#include "tessera/v1/worker.pb.h"

#include <QCoreApplication>

#include <array>
#include <cstddef>

namespace tessera {

namespace {

constexpr std::array<StateWord, 6> kJobStates = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "queued", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "starting", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "running", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "succeeded", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "failed", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "cancelled", "job state"),
}};

} // namespace

QString jobStateName(JobState state) {
    return QString::fromLatin1(stateWord(kJobStates, std::size_t(state)).source);
}

QString jobStateText(JobState state) {
    return stateText(stateWord(kJobStates, std::size_t(state)));
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
