// Local or remote workers for one job (see jobsides.h).
#include "backend/jobs/jobsides.h"

#include <QCoreApplication>

#include <algorithm>

namespace tessera {

namespace {

QString trSides(const char* text) {
    return QCoreApplication::translate("tessera::JobController", text);
}

int slotsOf(const QList<WorkerNode>& nodes, const std::string& device) {
    int sum = 0;
    for (const WorkerNode& n : nodes) {
        sum += usableSlots(n, device);
    }
    return sum;
}

} // namespace

int usableSlots(const WorkerNode& n, const std::string& device) {
    return device == "cuda" ? std::min(n.slots, n.cudaDevices) : n.slots;
}

bool isLoopbackAddress(const QString& address) {
    const QString host = address.section(QLatin1Char(':'), 0, -2);
    return host.startsWith(QLatin1String("127.")) || host == QLatin1String("localhost") ||
           host == QLatin1String("[::1]");
}

Result<QList<WorkerNode>> oneSideOfTheCluster(const QList<WorkerNode>& ready, int world,
                                              const std::string& device) {
    QList<WorkerNode> local, remote;
    for (const WorkerNode& n : ready) {
        (isLoopbackAddress(n.address) ? local : remote).append(n);
    }
    if (local.isEmpty() || remote.isEmpty()) {
        return ready;
    }
    const bool localFirst = isLoopbackAddress(ready.first().address);
    const QList<WorkerNode>& first = localFirst ? local : remote;
    const QList<WorkerNode>& second = localFirst ? remote : local;
    if (slotsOf(first, device) >= world) {
        return first;
    }
    if (slotsOf(second, device) >= world) {
        return second;
    }
    return fail(ErrorCode::Unavailable,
                trSides("the job needs %1 ranks: the local workers have %2 slots and the "
                        "machines reached over the network %3, and one job cannot span both "
                        "(local workers listen on loopback, which other machines cannot reach): "
                        "rent more machines, or make the job smaller")
                    .arg(world)
                    .arg(slotsOf(local, device))
                    .arg(slotsOf(remote, device))
                    .toStdString());
}

QString mixedSidesProblem(const QList<WorkerNode>& drawn) {
    const auto local = std::find_if(drawn.begin(), drawn.end(), [](const WorkerNode& n) {
        return isLoopbackAddress(n.address);
    });
    const auto remote = std::find_if(drawn.begin(), drawn.end(), [](const WorkerNode& n) {
        return !isLoopbackAddress(n.address);
    });
    if (local == drawn.end() || remote == drawn.end()) {
        return {};
    }
    return trSides("the drawn layout puts ranks on the local worker '%1' and on '%2', reached "
                   "over the network; one job cannot span both (local workers listen on "
                   "loopback): redraw it on one side of the cluster")
        .arg(local->name, remote->name);
}

} // namespace tessera
