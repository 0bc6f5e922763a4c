// User programs under mpirun: layout file, exported variables, tessera-rank (user_program.h).
#include "worker/daemon/jobs/user_program.h"

#include "worker/common/metric_source.h"
#include "worker/common/spec_io.h"
#include "worker/daemon/bundles/bundle_store.h"
#include "worker/daemon/rank/rank_env.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

constexpr std::size_t kMaxLayoutJsonBytes = 100 * 1024; // one env string: under MAX_ARG_STRLEN

Failure invalid(const std::string& msg) {
    return fail(ErrorCode::InvalidArgument, msg);
}

/// Adds the stages (model chunks under the interleaved schedule) with their ranks, Megatron's
/// order: rank = ((dp·PP + stage)·CP + cp)·TP + tp, chunk j on pipeline stage j mod PP.
void addStages(const v1::Layout& layout, int dp, int tp, int pp, int cp, v1::LayoutFile& file) {
    const int chunks = std::max(1, layout.stages_size());
    for (int j = 0; j < chunks; ++j) {
        auto* st = file.add_stages();
        const int s = j % pp;
        st->set_stage(s);
        st->set_first_layer(layout.stages_size() ? layout.stages(j).first_layer() : 0);
        st->set_last_layer(layout.stages_size() ? layout.stages(j).last_layer() : -1);
        for (int d = 0; d < dp; ++d) {
            for (int c = 0; c < cp; ++c) {
                for (int t = 0; t < tp; ++t) {
                    st->add_ranks(((d * pp + s) * cp + c) * tp + t);
                }
            }
        }
    }
}

} // namespace

Result<std::string> layoutFileJson(const v1::LaunchJobRequest& request) {
    const v1::JobSpec& spec = request.spec();
    const v1::Layout& layout = spec.layout();
    int world = 0;
    for (const auto& p : request.peers()) {
        world += p.slots();
    }
    const int tp = std::max(1, layout.tensor_parallel());
    const int pp = pipelineRanks(layout);
    const int cp = std::max(1, layout.context_parallel());
    const int dp = layout.data_parallel() > 0 ? layout.data_parallel() : world / (tp * pp * cp);
    if (dp * tp * pp * cp != world) {
        return invalid("the layout (DP " + std::to_string(dp) + " × CP " + std::to_string(cp) +
                       " × TP " + std::to_string(tp) + " × PP " + std::to_string(pp) + ") needs " +
                       std::to_string(dp * tp * pp * cp) +
                       " ranks but the peers' slots add up to " + std::to_string(world));
    }
    v1::LayoutFile file;
    file.set_job_id(spec.job_id());
    file.set_world_size(world);
    file.set_data_parallel(dp);
    file.set_tensor_parallel(tp);
    file.set_pipeline_parallel(pp);
    addStages(layout, dp, tp, pp, cp, file);
    file.set_micro_batches(std::max(1, layout.micro_batches()));
    file.set_schedule(scheduleText(layout.schedule()));
    file.set_virtual_stages(std::max(1, layout.virtual_stages()));
    file.set_zero_stage(layout.zero_stage());
    file.set_rank_order(
        "rank = ((dp * pipelineParallel + stage) * contextParallel + cp) * tensorParallel + tp");
    file.set_expert_parallel(std::max(1, layout.expert_parallel()));
    file.set_context_parallel(cp);
    int first = 0;
    for (int i = 0; i < request.peers_size(); ++i) {
        auto* n = file.add_nodes();
        n->set_worker(request.peers(i).name());
        n->set_first_rank(first);
        n->set_ranks(request.peers(i).slots());
        const auto& slots = spec.placement().slots();
        n->set_device(i < slots.size() && !slots[i].device().empty() ? slots[i].device() : "cpu");
        first += request.peers(i).slots();
    }
    *file.mutable_model_config() = spec.model().config();
    *file.mutable_training() = spec.training();
    *file.mutable_dataset() = spec.dataset();
    *file.mutable_checkpoint() = spec.checkpoint();
    google::protobuf::util::JsonPrintOptions opts;
    opts.always_print_primitive_fields = true;
    opts.add_whitespace = true;
    std::string json;
    (void)google::protobuf::util::MessageToJsonString(file, &json, opts);
    return json;
}

namespace {

/// A free port on this worker (rank 0's) for JAX's coordinator, outside MASTER_PORT and the
/// TF_CONFIG ports above it; 0 when none was found.
int coordinatorPort(int masterPort, int tfPorts) {
    for (int tries = 0; tries < 8; ++tries) {
        const int port = freeTcpPort();
        if (port > 0 && (port < masterPort || port > masterPort + tfPorts)) {
            return port;
        }
    }
    return 0;
}

} // namespace

Result<UserProgramLaunch> userProgramArgs(const v1::LaunchJobRequest& request,
                                          const std::string& workerDir, int masterPort) {
    const v1::JobSpec& spec = request.spec();
    const std::string& launcher = spec.model().launcher();
    if (!launcher.empty() && launcher != "mpirun" && launcher != "torchrun") {
        return invalid("model.launcher '" + launcher +
                       "' is not one this worker can start; use \"mpirun\" (the default) or "
                       "\"torchrun\"");
    }
    if (auto metrics = metricSource(spec.model()); !metrics) {
        return relay(metrics); // a pattern RE2 refuses, named, before any rank starts
    }
    const bool torchrun = launcher == "torchrun";
    if (torchrun) {
        const std::vector<std::string> command(spec.model().command().begin(),
                                               spec.model().command().end());
        if (auto r = checkTorchrunCommand(command); !r) {
            return relay(r);
        }
    }
    auto layout = layoutFileJson(request);
    if (!layout) {
        return relay(layout);
    }
    if (layout->size() > kMaxLayoutJsonBytes) {
        return invalid("the layout file with model.config is " + std::to_string(layout->size()) +
                       " bytes; at most " + std::to_string(kMaxLayoutJsonBytes) +
                       " can be handed to the ranks: shorten model.config");
    }
    if (masterPort <= 0) {
        return fail(ErrorCode::Unavailable, "no free TCP port for MASTER_PORT on this worker");
    }
    // Ranks per node, and per node the ranks of every node on the same host (several workers
    // of one machine, e.g. a local cluster): that host's cores are shared by all of them.
    std::string nodeRanks, hostRanks, nodeHosts;
    int mostOnHost = 0;
    for (const auto& p : request.peers()) {
        int onHost = 0;
        for (const auto& q : request.peers()) {
            onHost += hostOf(q.address()) == hostOf(p.address()) ? q.slots() : 0;
        }
        mostOnHost = std::max(mostOnHost, onHost);
        nodeRanks += (nodeRanks.empty() ? "" : ",") + std::to_string(p.slots());
        hostRanks += (hostRanks.empty() ? "" : ",") + std::to_string(onHost);
        nodeHosts += (nodeHosts.empty() ? "" : ",") + hostOf(p.address());
    }
    std::vector<std::string> vars = {
        "TESSERA_JOB_ID=" + spec.job_id(),
        "TESSERA_NODE_RANKS=" + nodeRanks,
        "TESSERA_HOST_RANKS=" + hostRanks,
        "MASTER_ADDR=" + hostOf(request.peers(0).address()),
        "MASTER_PORT=" + std::to_string(masterPort),
        "TESSERA_LAYOUT_JSON=" + *layout,
        "PYTHONUNBUFFERED=1", // records reach the chart as they are printed
        // TF_CONFIG's hosts (rank_env.h); its ports are MASTER_PORT+1 … +mostOnHost.
        "TESSERA_NODE_HOSTS=" + nodeHosts,
    };
    if (const int coordinator = coordinatorPort(masterPort, mostOnHost); coordinator > 0) {
        vars.push_back("TESSERA_COORDINATOR_PORT=" + std::to_string(coordinator));
    }
    if (const std::string& dir = spec.model().tensorboard_dir(); !dir.empty()) {
        vars.push_back("TESSERA_TENSORBOARD_SPEC_DIR=" + dir);
    }
    if (const std::string& sha = spec.model().workdir_sha256(); !sha.empty()) {
        if (!BundleStore::isValidSha256(sha)) {
            return invalid("model.workdirSha256 '" + sha + "' is not a SHA-256 (64 hex digits)");
        }
        if (!BundleStore(workerDir).has(sha)) {
            return fail(ErrorCode::NotFound,
                        "the job's code bundle " + sha.substr(0, 12) +
                            " is not on this worker: ship it with PutBundle first");
        }
        vars.push_back("TESSERA_BUNDLE=" + sha);
    }
    if (!spec.checkpoint().dir().empty()) {
        vars.push_back("TESSERA_CHECKPOINT_SPEC_DIR=" + spec.checkpoint().dir());
    }
    if (!spec.checkpoint().resume_from().empty()) {
        vars.push_back("TESSERA_RESUME_FROM=" + spec.checkpoint().resume_from());
    }
    UserProgramLaunch launch;
    launch.processes = 0;
    for (const auto& p : request.peers()) {
        launch.processes += torchrun ? 1 : p.slots();
    }
    auto& args = launch.args;
    if (torchrun) {
        args.insert(args.end(), {"--map-by", "node"}); // one node agent per node, in order
        vars.push_back("TESSERA_LAUNCHER=torchrun");
    }
    for (auto& v : vars) {
        args.insert(args.end(), {"-x", std::move(v)});
    }
    args.push_back("tessera-rank"); // by name: each node's own, first in its worker's PATH
    args.insert(args.end(), spec.model().command().begin(), spec.model().command().end());
    return launch;
}

std::string hostOf(const std::string& address) {
    if (!address.empty() && address.front() == '[') {
        const auto close = address.find(']');
        return address.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    }
    const auto colon = address.rfind(':');
    return colon == std::string::npos ? address : address.substr(0, colon);
}

int freeTcpPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return 0;
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
        port = ntohs(addr.sin_port);
    }
    ::close(fd);
    return port;
}

} // namespace tessera::daemon
