// Display names of job, worker and lease states (jobStateText() in jobtypes.h, nodeStateText()
// in workernode.h, leaseStateText() in lease.h): QT_TRANSLATE_NOOP3 tables, so that lupdate
// collects them, translated at run time. The comment tells translators which kind of state a word
// is
// ("ready" of a worker and of a lease may read differently).
#include "backend/cluster/workernode.h"
#include "backend/jobs/jobtypes.h"
#include "backend/provision/lease.h"
#include "backend/provision/provider.h"

#include <QCoreApplication>

#include <array>
#include <cstddef>

namespace tessera {

namespace {

constexpr const char* kContext = "tessera::StateText";

struct Noop {
    const char* source;
    const char* comment;
};

constexpr std::array<Noop, 6> kJob = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "queued", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "starting", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "running", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "succeeded", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "failed", "job state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "cancelled", "job state"),
}};

constexpr std::array<Noop, 4> kNode = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "connecting", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "ready", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "unreachable", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "stopped", "worker state"),
}};

constexpr std::array<Noop, 7> kLease = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "requested", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "booting", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "installing", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "registering", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "ready", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "failed", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "released", "lease state"),
}};

template <std::size_t N> QString text(const std::array<Noop, N>& table, std::size_t i) {
    const Noop& n = table[i < N ? i : N - 1];
    return QCoreApplication::translate(kContext, n.source, n.comment);
}

} // namespace

QString providerText(const QString& providerId) {
    // "ssh" and "slurm" name the tools; code and tests match them in the offer table.
    if (providerId == QLatin1String("local")) {
        return QCoreApplication::translate(kContext, "local", "provider of local workers");
    }
    return providerId;
}

QString deviceKindText(const QString& kind) {
    return kind == QLatin1String("cpu") ? QStringLiteral("CPU") : kind;
}

QString jobStateText(JobState state) {
    return text(kJob, std::size_t(state));
}

QString nodeStateText(NodeState state) {
    return text(kNode, std::size_t(state));
}

QString leaseStateText(LeaseState state) {
    return text(kLease, std::size_t(state));
}

} // namespace tessera
