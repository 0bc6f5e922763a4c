// Which workers one job may span: the local cluster's workers listen on loopback (other machines
// cannot reach them, and they hold no certificate to reach workers that serve mutual TLS), so a
// job runs either on local workers or on machines reached over the network, never on both.
#pragma once

#include "backend/core/workernode.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

#include <string>

namespace tessera {

/// Ranks node `n` can take for a layout whose device is `device` ("cuda": one per GPU, at most
/// its slots; "cpu" or "": its slots).
int usableSlots(const WorkerNode& n, const std::string& device);

/// True when `address` ("host:port") is this machine's loopback (127.0.0.0/8, localhost, [::1]).
bool isLoopbackAddress(const QString& address);

/// The workers of `ready` (in order) a job of `world` ranks on `device` runs on: all of them
/// when they are all local or all remote; else the side of the first ready worker when it has
/// slots enough, else the other side when it has. Errors: Unavailable saying that neither side
/// alone has `world` slots, with each side's count and what to do.
Result<QList<WorkerNode>> oneSideOfTheCluster(const QList<WorkerNode>& ready, int world,
                                              const std::string& device);

/// Empty when the drawn workers `drawn` are all local or all remote; else why the drawing
/// cannot run (names a worker of each side).
QString mixedSidesProblem(const QList<WorkerNode>& drawn);

} // namespace tessera
