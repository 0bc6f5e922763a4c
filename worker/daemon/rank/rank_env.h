// torchrun's environment for one rank of a user program started by mpirun: what tessera-rank
// sets before it execs the program (README "User programs").
#pragma once

#include "worker/common/error.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::daemon {

/// Reads one environment variable; nullptr when unset.
using EnvLookup = std::function<const char*(const char* name)>;

/// What a rank's environment becomes, and the files tessera-rank writes for it.
struct RankEnvironment {
    std::vector<std::pair<std::string, std::string>> set; ///< variables to set, in order
    std::string nodeDir;    ///< this node's folder of the job (<worker dir>/jobs/<id>)
    std::string layoutPath; ///< TESSERA_LAYOUT_FILE: written from TESSERA_LAYOUT_JSON
    std::string layoutJson;
    std::string checkpointDir; ///< TESSERA_CHECKPOINT_DIR, to be created
    std::string workDir; ///< the shipped model.workdir to chdir into (TESSERA_BUNDLE), or empty
    std::string tensorboardDir; ///< TESSERA_TENSORBOARD_DIR, to be created
};

/// The folder of a job's TensorBoard event files on one node (TESSERA_TENSORBOARD_DIR, also
/// TENSORBOARD_LOGDIR): `specDir` (model.tensorboardDir) when absolute; relative, under the ranks'
/// working directory: `bundleDir` (the shipped model.workdir) when there is one, else `nodeDir`
/// (<worker dir>/jobs/<job id>); empty: <nodeDir>/tensorboard. The worker of rank 0 charts the
/// event files it finds there (README "TensorBoard event files").
std::string tensorboardDir(const std::string& nodeDir, const std::string& bundleDir,
                           const std::string& specDir);

/// The CPUs this process may run on: its affinity mask (what taskset, a Slurm allocation's
/// cgroup cpuset or a container's limits to), else the online CPUs, at least 1. Not the machine's
/// count: a rank on 8 of 64 cores must not start 64 threads.
long usableCpus();

/// torchrun's variables from Open MPI's and Tessera's: RANK, WORLD_SIZE, LOCAL_RANK,
/// LOCAL_WORLD_SIZE (OMPI_COMM_WORLD_*), GROUP_RANK / GROUP_WORLD_SIZE (the node's index among
/// the job's nodes, from TESSERA_NODE_RANKS "2,2": ranks per node in rank order), ROLE_*,
/// TORCHELASTIC_RUN_ID (= TESSERA_JOB_ID), OMP_NUM_THREADS (the `cpus` it may use, usableCpus(),
/// shared by the ranks on that host, TESSERA_HOST_RANKS "4,4" when several nodes share one, at
/// least 1), TESSERA_LAYOUT_FILE / TESSERA_CHECKPOINT_DIR under TESSERA_WORKER_DIR (the node's
/// worker folder), TESSERA_RESUME_FROM when set, and PYTHONPATH with `pythonDir` first (then the
/// shipped workdir, <worker dir>/bundles/<TESSERA_BUNDLE>, when there is one),
/// TESSERA_TENSORBOARD_DIR and TENSORBOARD_LOGDIR (tensorboardDir(), from
/// TESSERA_TENSORBOARD_SPEC_DIR), and for TensorFlow and JAX on the same launch: TF_CONFIG
/// (MultiWorkerMirroredStrategy's {"cluster":{"worker":[…]},"task":{"type":"worker","index":
/// RANK}}, one worker per rank at host:MASTER_PORT+1+i, i its index among the ranks on its host,
/// hosts from TESSERA_NODE_HOSTS "h0,h1" in node order) and JAX_COORDINATOR_ADDRESS
/// (MASTER_ADDR:TESSERA_COORDINATOR_PORT), JAX_NUM_PROCESSES, JAX_PROCESS_ID (when those two
/// variables are given). MASTER_ADDR and MASTER_PORT arrive set. Errors: InvalidArgument naming
/// the variable that is missing or malformed, or a rank that mpirun placed off its hostfile
/// node.
Result<RankEnvironment> rankEnvironment(const EnvLookup& env, long cpus,
                                        const std::string& pythonDir);

/// Checks that `command` can be started by torchrun: `PYTHON SCRIPT [ARGS]`, `PYTHON -m MODULE
/// [ARGS]` (PYTHON: a program named python*), or any other program (run with --no_python).
/// Errors: InvalidArgument saying what form is expected.
Result<void> checkTorchrunCommand(const std::vector<std::string>& command);

/// What tessera-rank execs, with which environment changes.
struct RankExec {
    RankEnvironment env;
    std::vector<std::string> unset; ///< variables to remove
    std::vector<std::string> argv;
};

/// TF_CONFIG for rank `rank` of a job whose node `n` runs `nodeRanks[n]` ranks on host
/// `hosts[n]`: each rank's port is `basePort` + its index among the ranks on its host (nodes
/// that share a host count on). Empty when the sizes differ or a port would pass 65535.
std::string tfConfig(const std::vector<std::string>& hosts, const std::vector<long>& nodeRanks,
                     long rank, long basePort);

/// The node agent of launcher "torchrun" (started by mpirun once per node, --map-by node):
/// the same Tessera variables as rankEnvironment() for the node's ranks (not TF_CONFIG and
/// JAX's, which are per rank: torchrun starts PyTorch programs) and, in `argv`,
/// `PYTHON -m tessera.torchrun --nnodes N --node_rank R --nproc_per_node P --master_addr A
/// --master_port PORT --rdzv_id JOB --max_restarts 0 --monitor_interval 1 SCRIPT ARGS`.
/// torchrun itself then sets RANK, LOCAL_RANK, WORLD_SIZE, GROUP_RANK, … for each rank.
/// Open MPI's per-process variables (the agent's, not a rank's) are unset. Errors: as
/// rankEnvironment() and checkTorchrunCommand().
Result<RankExec> torchrunAgent(const EnvLookup& env, long cpus, const std::string& pythonDir,
                               const std::vector<std::string>& command);

} // namespace tessera::daemon
