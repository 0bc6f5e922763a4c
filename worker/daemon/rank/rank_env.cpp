// torchrun's variables for a rank under mpirun (see rank_env.h).
#include "worker/daemon/rank/rank_env.h"

#include <algorithm>
#include <charconv>
#include <map>

#include <sched.h>
#include <unistd.h>

namespace tessera::daemon {

long usableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
        return CPU_COUNT(&set);
    }
    return std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
}

std::string tensorboardDir(const std::string& nodeDir, const std::string& bundleDir,
                           const std::string& specDir) {
    if (specDir.empty()) {
        return nodeDir + "/tensorboard";
    }
    if (specDir.front() == '/') {
        return specDir;
    }
    return (bundleDir.empty() ? nodeDir : bundleDir) + "/" + specDir;
}

namespace {

Failure invalid(const std::string& msg) {
    return fail(ErrorCode::InvalidArgument, msg);
}

Result<std::vector<long>> counts(const EnvLookup& env, const char* name);

Result<std::vector<long>> nodeRanks(const EnvLookup& env) {
    return counts(env, "TESSERA_NODE_RANKS");
}

/// Ranks sharing the host of node `node`: TESSERA_HOST_RANKS when given, else the node's own.
long hostRanks(const EnvLookup& env, const std::vector<long>& nodes, std::size_t node) {
    if (env("TESSERA_HOST_RANKS")) {
        auto host = counts(env, "TESSERA_HOST_RANKS");
        if (host && host->size() == nodes.size()) {
            return std::max((*host)[node], nodes[node]);
        }
    }
    return nodes[node];
}

Result<long> number(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    if (!v || !*v) {
        return invalid(std::string(name) + " is not set: tessera-rank runs only as a rank "
                                           "started by Tessera's mpirun");
    }
    long out = 0;
    const char* end = v + std::char_traits<char>::length(v);
    const auto [p, ec] = std::from_chars(v, end, out);
    if (ec != std::errc() || p != end || out < 0) {
        return invalid(std::string(name) + "='" + v + "' is not a whole number");
    }
    return out;
}

Result<std::vector<long>> counts(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    if (!v || !*v) {
        return invalid(std::string(name) + " is not set (ranks per node, e.g. \"2,2\")");
    }
    std::vector<long> out;
    std::string_view rest(v);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        long n = 0;
        const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
        if (ec != std::errc() || p != part.data() + part.size() || n < 1) {
            return invalid(std::string(name) + "='" + v +
                           "' must be positive counts separated by commas");
        }
        out.push_back(n);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return out;
}

std::string get(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    return v ? v : "";
}

/// The variables and files of one node of the job, shared by ranks and torchrun's node agent.
RankEnvironment nodeEnvironment(const EnvLookup& env, const std::string& jobId,
                                const std::string& workerDir, long cpus, long hostRanks,
                                const std::string& pythonDir) {
    RankEnvironment out;
    out.nodeDir = workerDir + "/jobs/" + jobId;
    out.layoutPath = out.nodeDir + "/layout.json";
    out.layoutJson = get(env, "TESSERA_LAYOUT_JSON");
    const std::string specDir = get(env, "TESSERA_CHECKPOINT_SPEC_DIR");
    out.checkpointDir = specDir.empty() ? out.nodeDir + "/checkpoints" : specDir;
    if (const std::string bundle = get(env, "TESSERA_BUNDLE"); !bundle.empty()) {
        out.workDir = workerDir + "/bundles/" + bundle;
    }
    std::string py = pythonDir;
    for (const std::string& more : {out.workDir, get(env, "PYTHONPATH")}) {
        if (!more.empty()) {
            py += ":" + more;
        }
    }
    out.tensorboardDir =
        tensorboardDir(out.nodeDir, out.workDir, get(env, "TESSERA_TENSORBOARD_SPEC_DIR"));
    out.set = {{"OMP_NUM_THREADS", std::to_string(std::max(1L, cpus / std::max(1L, hostRanks)))},
               {"TESSERA_LAYOUT_FILE", out.layoutPath},
               {"TESSERA_CHECKPOINT_DIR", out.checkpointDir},
               {"TESSERA_TENSORBOARD_DIR", out.tensorboardDir},
               {"TENSORBOARD_LOGDIR", out.tensorboardDir},
               {"PYTHONPATH", py}};
    if (const std::string resume = get(env, "TESSERA_RESUME_FROM"); !resume.empty()) {
        out.set.emplace_back("TESSERA_RESUME_FROM", resume);
    }
    return out;
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size() && !text.empty()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        out.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

/// "host:port" with IPv6 hosts in brackets.
std::string hostPort(const std::string& host, long port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

/// TF_CONFIG and JAX's variables for `rank` of `world`, when the worker gave what they need.
void frameworkVariables(const EnvLookup& env, const std::vector<long>& nodes, long rank, long world,
                        std::vector<std::pair<std::string, std::string>>& set) {
    long masterPort = 0;
    const std::string port = get(env, "MASTER_PORT");
    const auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), masterPort);
    if (ec != std::errc() || p != port.data() + port.size() || masterPort <= 0) {
        return;
    }
    const std::vector<std::string> hosts = splitList(get(env, "TESSERA_NODE_HOSTS"));
    if (std::string tf = tfConfig(hosts, nodes, rank, masterPort + 1); !tf.empty()) {
        set.emplace_back("TF_CONFIG", std::move(tf));
    }
    const std::string coordinator = get(env, "TESSERA_COORDINATOR_PORT");
    const std::string master = get(env, "MASTER_ADDR");
    if (!coordinator.empty() && !master.empty()) {
        long c = 0;
        const auto [q, e] =
            std::from_chars(coordinator.data(), coordinator.data() + coordinator.size(), c);
        if (e == std::errc() && q == coordinator.data() + coordinator.size() && c > 0 &&
            c < 65536) {
            set.emplace_back("JAX_COORDINATOR_ADDRESS", hostPort(master, c));
            set.emplace_back("JAX_NUM_PROCESSES", std::to_string(world));
            set.emplace_back("JAX_PROCESS_ID", std::to_string(rank));
        }
    }
}

Result<std::pair<std::string, std::string>> jobAndWorker(const EnvLookup& env) {
    const std::string jobId = get(env, "TESSERA_JOB_ID");
    const std::string workerDir = get(env, "TESSERA_WORKER_DIR");
    if (jobId.empty() || workerDir.empty()) {
        return invalid(std::string(jobId.empty() ? "TESSERA_JOB_ID" : "TESSERA_WORKER_DIR") +
                       " is not set: tessera-rank runs only as a rank started by a Tessera worker");
    }
    return std::pair{jobId, workerDir};
}

bool isPython(const std::string& program) {
    const auto slash = program.rfind('/');
    return program.compare(slash == std::string::npos ? 0 : slash + 1, 6, "python") == 0;
}

} // namespace

Result<RankEnvironment> rankEnvironment(const EnvLookup& env, long cpus,
                                        const std::string& pythonDir) {
    auto rank = number(env, "OMPI_COMM_WORLD_RANK");
    auto world = rank ? number(env, "OMPI_COMM_WORLD_SIZE") : Result<long>(relay(rank));
    auto local = world ? number(env, "OMPI_COMM_WORLD_LOCAL_RANK") : Result<long>(relay(world));
    auto localSize = local ? number(env, "OMPI_COMM_WORLD_LOCAL_SIZE") : Result<long>(relay(local));
    if (!localSize) {
        return relay(localSize);
    }
    auto nodes = nodeRanks(env);
    if (!nodes) {
        return relay(nodes);
    }
    auto ids = jobAndWorker(env);
    if (!ids) {
        return relay(ids);
    }
    const auto& [jobId, workerDir] = *ids;
    long first = 0;
    std::size_t node = 0;
    while (node < nodes->size() && *rank >= first + (*nodes)[node]) {
        first += (*nodes)[node++];
    }
    if (node == nodes->size() || *local != *rank - first || *localSize != (*nodes)[node]) {
        return invalid("rank " + std::to_string(*rank) + " (local rank " + std::to_string(*local) +
                       " of " + std::to_string(*localSize) +
                       ") is not where the hostfile puts it (TESSERA_NODE_RANKS=" +
                       get(env, "TESSERA_NODE_RANKS") +
                       "): mpirun mapped ranks by another "
                       "policy than by slot");
    }
    RankEnvironment out =
        nodeEnvironment(env, jobId, workerDir, cpus, hostRanks(env, *nodes, node), pythonDir);
    auto& s = out.set;
    s.insert(s.begin(), {{"RANK", std::to_string(*rank)},
                         {"WORLD_SIZE", std::to_string(*world)},
                         {"LOCAL_RANK", std::to_string(*local)},
                         {"LOCAL_WORLD_SIZE", std::to_string(*localSize)},
                         {"GROUP_RANK", std::to_string(node)},
                         {"GROUP_WORLD_SIZE", std::to_string(nodes->size())},
                         {"ROLE_RANK", std::to_string(*rank)},
                         {"ROLE_WORLD_SIZE", std::to_string(*world)},
                         {"ROLE_NAME", "default"},
                         {"TORCHELASTIC_RUN_ID", jobId},
                         {"TORCHELASTIC_RESTART_COUNT", "0"},
                         {"TORCHELASTIC_MAX_RESTARTS", "0"}});
    frameworkVariables(env, *nodes, *rank, *world, s);
    return out;
}

std::string tfConfig(const std::vector<std::string>& hosts, const std::vector<long>& nodeRanks,
                     long rank, long basePort) {
    if (hosts.size() != nodeRanks.size() || hosts.empty()) {
        return {};
    }
    std::string workers;
    std::map<std::string, long> usedOnHost; // ranks placed on each host so far
    for (std::size_t n = 0; n < hosts.size(); ++n) {
        for (long l = 0; l < nodeRanks[n]; ++l) {
            const long port = basePort + usedOnHost[hosts[n]]++;
            if (hosts[n].empty() || port > 65535 ||
                hosts[n].find_first_of("\"\\") != std::string::npos) {
                return {};
            }
            workers += (workers.empty() ? "\"" : ",\"") + hostPort(hosts[n], port) + "\"";
        }
    }
    return "{\"cluster\":{\"worker\":[" + workers +
           "]},\"task\":{\"type\":\"worker\",\"index\":" + std::to_string(rank) + "}}";
}

Result<void> checkTorchrunCommand(const std::vector<std::string>& command) {
    if (command.empty() || command[0].empty()) {
        return invalid("model.command is empty: name the program torchrun should start");
    }
    if (isPython(command[0])) {
        const bool module = command.size() >= 3 && command[1] == "-m";
        if (!module && (command.size() < 2 || command[1].empty() || command[1][0] == '-')) {
            return invalid("with launcher \"torchrun\", model.command is [\"" + command[0] +
                           "\", SCRIPT, ARGS...] or [\"" + command[0] +
                           "\", \"-m\", MODULE, ARGS...]: torchrun takes no interpreter "
                           "options");
        }
    }
    return {};
}

Result<RankExec> torchrunAgent(const EnvLookup& env, long cpus, const std::string& pythonDir,
                               const std::vector<std::string>& command) {
    if (auto r = checkTorchrunCommand(command); !r) {
        return relay(r);
    }
    auto node = number(env, "OMPI_COMM_WORLD_RANK");
    auto nodeCount = node ? number(env, "OMPI_COMM_WORLD_SIZE") : Result<long>(relay(node));
    if (!nodeCount) {
        return relay(nodeCount);
    }
    auto nodes = nodeRanks(env);
    if (!nodes) {
        return relay(nodes);
    }
    if (static_cast<long>(nodes->size()) != *nodeCount || *node >= *nodeCount) {
        return invalid("torchrun's node agent " + std::to_string(*node) + " of " +
                       std::to_string(*nodeCount) + " does not match TESSERA_NODE_RANKS=" +
                       get(env, "TESSERA_NODE_RANKS") + " (one agent per node expected)");
    }
    auto ids = jobAndWorker(env);
    if (!ids) {
        return relay(ids);
    }
    const auto& [jobId, workerDir] = *ids;
    const long nproc = (*nodes)[static_cast<std::size_t>(*node)];
    RankExec agent;
    agent.env = nodeEnvironment(env, jobId, workerDir, cpus,
                                hostRanks(env, *nodes, static_cast<std::size_t>(*node)), pythonDir);
    agent.unset = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
                   "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_NODE_RANK"};
    const bool python = isPython(command[0]);
    agent.argv = {python ? command[0] : "python3", "-m", "tessera.torchrun", "--nnodes",
                  std::to_string(*nodeCount), "--node_rank", std::to_string(*node),
                  "--nproc_per_node", std::to_string(nproc), "--master_addr",
                  get(env, "MASTER_ADDR"), "--master_port", get(env, "MASTER_PORT"), "--rdzv_id",
                  jobId, "--max_restarts", "0", "--monitor_interval", "1",
                  // Each rank's output to a file in the node's job folder and, prefixed
                  // "[default<local rank>]:", to the agent's own output: the worker tells the
                  // ranks apart by that prefix (Job::attributeAgentLine). tessera.torchrun makes
                  // torchrun's tailer carry bytes that are not UTF-8.
                  "--tee", "3", "--log_dir", agent.env.nodeDir + "/torchrun"};
    if (!python) {
        agent.argv.push_back("--no_python");
    }
    agent.argv.insert(agent.argv.end(), command.begin() + (python ? 1 : 0), command.end());
    return agent;
}

} // namespace tessera::daemon
