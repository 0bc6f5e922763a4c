// How a user program (model.command) is started under mpirun: tessera-rank in front of every
// rank, the variables it needs exported by mpirun, and the layout file's contents.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <string>
#include <vector>

namespace tessera::daemon {

/// The TESSERA_LAYOUT_FILE contents for `request` (tessera.v1.LayoutFile as JSON): the spec's
/// layout resolved to ranks over the peers (an empty layout is pure data parallel over all
/// ranks; no stages = one stage holding every layer, last_layer −1). Errors: InvalidArgument
/// when the layout's world size differs from the peers' slots.
Result<std::string> layoutFileJson(const v1::LaunchJobRequest& request);

/// How mpirun starts a user program.
struct UserProgramLaunch {
    int processes = 0;             ///< mpirun -np: the world size, or the nodes for torchrun
    std::vector<std::string> args; ///< after the common mpirun arguments
};

/// mpirun's part for a user program: `-x NAME=value` for each variable tessera-rank reads
/// (TESSERA_JOB_ID, TESSERA_NODE_RANKS, MASTER_ADDR, MASTER_PORT, TESSERA_LAYOUT_JSON,
/// checkpoint settings, PYTHONUNBUFFERED), then tessera-rank (by name: found in each node's PATH,
/// where its worker put its own folder first) and the command: one process per
/// rank (launcher "mpirun"), or one per node (`--map-by node`, "torchrun", where tessera-rank
/// execs torchrun for the node's ranks). `masterPort` is a free port on this worker, where rank 0
/// runs; `workerDir` this worker's folder (its bundle cache holds the shipped workdir, checked
/// here for rank 0's node and by tessera-rank on the others). Errors: InvalidArgument for an
/// unknown model.launcher, a layout that does not fit the peers, or a layout file over 100 KiB
/// (it travels in the environment); NotFound when the workdir bundle is not here.
Result<UserProgramLaunch> userProgramArgs(const v1::LaunchJobRequest& request,
                                          const std::string& workerDir, int masterPort);

/// The host part of "host:port" ("[::1]:50051" → "::1").
std::string hostOf(const std::string& address);

/// A TCP port that was free on all interfaces of this host a moment ago (bind to port 0), or 0
/// when none could be had.
int freeTcpPort();

} // namespace tessera::daemon
