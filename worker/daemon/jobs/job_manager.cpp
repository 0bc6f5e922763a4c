// Job manager: job folders, the mpirun command line, cancellation and restart recovery.
#include "worker/daemon/jobs/job_manager.h"
#include "worker/daemon/jobs/ompi_tmpdir.h"

#include "worker/common/spec_io.h"
#include "worker/daemon/bundles/bundle_store.h"
#include "worker/daemon/jobs/process.h"
#include "worker/daemon/jobs/user_program.h"
#include "worker/daemon/rank/rank_env.h"

#include <google/protobuf/util/json_util.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace tessera::daemon {

namespace fs = std::filesystem;

namespace {

bool isNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

// Writes `text` to `path` (created with `mode`). Errors: Io naming the file.
Result<void> writeFile(const std::string& path, const std::string& text, mode_t mode) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        return fail(ErrorCode::Io, "cannot write '" + path + "': " + std::strerror(errno));
    }
    ::fchmod(fd, mode);
    const ssize_t n = ::write(fd, text.data(), text.size());
    ::close(fd);
    if (n != static_cast<ssize_t>(text.size())) {
        return fail(ErrorCode::Io, "cannot write '" + path + "' completely");
    }
    return {};
}

Failure invalid(const std::string& msg) {
    return fail(ErrorCode::InvalidArgument, msg);
}

// Checks peers and spec; returns the world size. Errors: InvalidArgument saying what is wrong.
Result<int> checkRequest(const v1::LaunchJobRequest& req) {
    if (req.peers().empty()) {
        return invalid("LaunchJob needs peers: the job's workers in rank order, this worker first");
    }
    int world = 0;
    for (int i = 0; i < req.peers_size(); ++i) {
        const auto& p = req.peers(i);
        const std::string where = "peers[" + std::to_string(i) + "]";
        if (p.name().empty() || !std::all_of(p.name().begin(), p.name().end(), isNameChar)) {
            return invalid(where + ".name '" + p.name() +
                           "' must be non-empty [A-Za-z0-9._-] (a hostfile name)");
        }
        if (p.slots() < 1) {
            return invalid(where + ".slots must be >= 1");
        }
        if (p.address().empty()) {
            return invalid(where + ".address (host:port) is empty");
        }
        for (int j = 0; j < i; ++j) {
            if (req.peers(j).name() == p.name()) {
                return invalid(where + ".name '" + p.name() + "' is repeated");
            }
        }
        world += p.slots();
    }
    for (const auto& [k, v] : req.mca()) {
        if (k.empty() || !std::all_of(k.begin(), k.end(), isNameChar) || v.empty()) {
            return invalid("mca parameter '" + k +
                           "' needs a name of [A-Za-z0-9._-] "
                           "and a non-empty value");
        }
    }
    const auto& spec = req.spec();
    if (spec.model().command().empty()) {
        if (auto r = validateJobSpec(spec); !r) {
            return relay(r);
        }
        if (worldSize(spec.layout()) != world) {
            return invalid("the layout needs " + std::to_string(worldSize(spec.layout())) +
                           " ranks but the peers' slots add up to " + std::to_string(world));
        }
    }
    return world;
}

} // namespace

bool isValidJobId(const std::string& id) {
    return !id.empty() && id.size() <= 128 && id[0] != '.' &&
           std::all_of(id.begin(), id.end(), isNameChar);
}

JobManager::JobManager(JobManagerConfig config) : m_config(std::move(config)) {
    m_keeper = std::thread([this] { keepJournals(); });
}

JobManager::~JobManager() {
    {
        std::lock_guard lock(m_keeperMutex);
        m_stopKeeper = true;
    }
    m_keeperCv.notify_all();
    m_keeper.join();
}

void JobManager::keepJournals() {
    std::unique_lock lock(m_keeperMutex);
    while (!m_keeperCv.wait_for(lock, kKeepEvery, [this] { return m_stopKeeper; })) {
        lock.unlock();
        std::vector<std::shared_ptr<Job>> jobs;
        {
            std::lock_guard jobsLock(m_mutex);
            for (const auto& [id, job] : m_jobs) {
                jobs.push_back(job);
            }
        }
        for (const auto& job : jobs) {
            job->retryJournal(); // cheap when the job's journal holds everything
        }
        lock.lock();
    }
}

Result<void> JobManager::recover() {
    const fs::path jobs = fs::path(m_config.workDir) / "jobs";
    std::error_code ec;
    fs::create_directories(jobs, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot create '" + jobs.string() + "': " + ec.message());
    }
    for (const auto& entry : fs::directory_iterator(jobs, ec)) {
        const std::string id = entry.path().filename().string();
        if (!entry.is_directory() || !isValidJobId(id)) {
            continue;
        }
        // A job whose ranks ran here but whose mpirun ran elsewhere has a folder (layout file,
        // checkpoints) and no journal: it is another worker's job.
        std::error_code missing;
        if (!fs::exists(entry.path() / "journal", missing)) {
            continue;
        }
        auto log = EventLog::open((entry.path() / "journal").string());
        if (!log) {
            spdlog::error("[job {}] skipped: {}", id, log.error().message);
            continue;
        }
        if (log->opened().tornTail) {
            spdlog::warn("[job {}] journal had a torn last record; it was dropped", id);
        }
        if (log->opened().skipped) {
            spdlog::warn("[job {}] journal has {} whole record(s) that cannot be decoded; they "
                         "were skipped, the records after them kept",
                         id, log->opened().skipped);
        }
        auto job = std::make_shared<Job>(id, entry.path().string(), std::move(*log));
        if (!job->finished()) {
            (void)job->appendState(v1::JOB_STATE_FAILED,
                                   "worker restarted while the job was running");
        }
        std::lock_guard lock(m_mutex);
        m_jobs[id] = std::move(job);
    }
    if (ec) {
        return fail(ErrorCode::Io, "cannot list '" + jobs.string() + "': " + ec.message());
    }
    spdlog::info("recovered {} job(s) from {}", m_jobs.size(), jobs.string());
    return {};
}

Result<v1::LaunchJobReply> JobManager::launch(const v1::LaunchJobRequest& request) {
    const std::string id = request.spec().job_id();
    if (!isValidJobId(id)) {
        return invalid("spec.job_id '" + id +
                       "' must be 1-128 of [A-Za-z0-9._-], not starting with '.'");
    }
    auto world = checkRequest(request);
    if (!world) {
        return relay(world);
    }
    const fs::path dir = fs::path(m_config.workDir) / "jobs" / id;
    auto job = createJob(id, dir);
    if (!job) {
        return relay(job);
    }
    (void)(*job)->appendState(v1::JOB_STATE_STARTING, "");
    auto files = writeJobFolder(request, dir);
    auto opts = files ? mpirunOptions(request, *world, *files) : Result<SpawnOptions>(relay(files));
    if (!opts) {
        (void)(*job)->appendState(v1::JOB_STATE_FAILED, opts.error().message);
        return relay(opts);
    }
    (*job)->setOutputOptions(outputOptions(request));
    if (auto r = (*job)->run(*opts, "mpirun started with world size " + std::to_string(*world));
        !r) {
        return relay(r);
    }
    v1::LaunchJobReply reply;
    reply.set_job_id(id);
    reply.set_job_dir(dir.string());
    return reply;
}

Job::OutputOptions JobManager::outputOptions(const v1::LaunchJobRequest& request) const {
    Job::OutputOptions out;
    out.rankLogs = m_config.rankLogs;
    out.journalLogBytes = m_config.journalLogBytes;
    out.unjournaledBytes = m_config.unjournaledBytes;
    out.workerName = m_config.workerName;
    if (request.spec().model().command_size() > 0) {
        // Checked before launch (validateJobSpec); a source the worker cannot read charts
        // @tessera records only.
        auto metrics = metricSource(request.spec().model());
        out.metrics = metrics ? *metrics : MetricSource{MetricSource::Kind::None};
    }
    if (const auto& model = request.spec().model(); model.command_size() > 0) {
        // A user program's event files, on rank 0's node (this worker's): points carry rank 0.
        const std::string& sha = model.workdir_sha256();
        out.tensorboardDir =
            tensorboardDir(m_config.workDir + "/jobs/" + request.spec().job_id(),
                           sha.empty() ? std::string() : BundleStore(m_config.workDir).dir(sha),
                           model.tensorboard_dir());
    }
    if (request.spec().model().launcher() == "torchrun" &&
        !request.spec().model().command().empty()) {
        int first = 0; // torchrun's static rendezvous numbers the ranks node by node, in order
        for (const auto& p : request.peers()) {
            out.agentFirstRanks.push_back(first);
            first += p.slots();
        }
    }
    return out;
}

Result<std::shared_ptr<Job>> JobManager::createJob(const std::string& id, const fs::path& dir) {
    std::lock_guard lock(m_mutex);
    if (m_jobs.count(id) || ::mkdir(dir.c_str(), 0700) != 0) {
        if (m_jobs.count(id) || errno == EEXIST) {
            return fail(ErrorCode::AlreadyExists,
                        "job id '" + id + "' is already used on this worker; pick a new one");
        }
        return fail(ErrorCode::Io, "cannot create '" + dir.string() + "': " + std::strerror(errno));
    }
    auto log = EventLog::open((dir / "journal").string());
    if (!log) {
        return relay(log);
    }
    auto job = std::make_shared<Job>(id, dir.string(), std::move(*log));
    m_jobs[id] = job;
    return job;
}

Result<JobManager::JobFiles> JobManager::writeJobFolder(const v1::LaunchJobRequest& request,
                                                        const fs::path& dir) {
    JobFiles files{(dir / "spec.json").string(), (dir / "hostfile").string(),
                   (dir / "peers.json").string()};
    std::string hosts;
    v1::PeerList peers;
    for (const auto& p : request.peers()) {
        hosts += p.name() + " slots=" + std::to_string(p.slots()) + "\n";
        *peers.add_peers() = p;
    }
    std::string peersJson;
    (void)google::protobuf::util::MessageToJsonString(peers, &peersJson);
    for (auto r :
         {writeFile(files.spec, jobSpecToJson(request.spec()), 0644),
          writeFile(files.hostfile, hosts, 0644), writeFile(files.peers, peersJson, 0600)}) {
        if (!r) {
            return relay(r);
        }
    }
    return files;
}

Result<SpawnOptions> JobManager::mpirunOptions(const v1::LaunchJobRequest& request, int world,
                                               const JobFiles& files) const {
    SpawnOptions opts;
    opts.cwd = fs::path(files.spec).parent_path().string();
    // mpirun's stdout/stderr are files, not pipes: mpirun drops queued output at the job's end
    // after one short write to a full pipe (OutputSpool), which lost records on a loaded node.
    opts.spoolDir = opts.cwd;
    opts.cgroup = "job-" + request.spec().job_id(); // the whole tree ends with mpirun
    // argv[0] is the bare name: Open MPI treats an absolute argv[0] as --prefix and then sends
    // `PATH=...; export PATH; ... orted` through the agent, a shell line tessera-rsh refuses.
    opts.program = m_config.mpirun;
    const auto& command = request.spec().model().command();
    Result<UserProgramLaunch> user = UserProgramLaunch{world, {}};
    if (!command.empty()) {
        user = userProgramArgs(request, m_config.workDir, freeTcpPort());
        if (!user) {
            return relay(user);
        }
    }
    opts.argv = {"mpirun", "-np", std::to_string(user->processes), "--hostfile", files.hostfile,
                 "--oversubscribe",
                 // Every piece of output carries its rank: Open MPI forwards a rank's output in
                 // pieces, which cut other ranks' lines; tagged, they are put together again
                 // (Job, tagged_output.h).
                 "--tag-output", "--mca", "plm_rsh_agent", m_config.binDir + "/tessera-rsh",
                 "--mca", "plm_rsh_no_tree_spawn", "1",
                 // Keep orted attached (no --daemonize): it stays the Exec'd process, so ending
                 // the Exec call (cancel, worker stop) really ends orted and its ranks.
                 "--mca", "orte_leave_session_attached", "1",
                 // No hwloc topology in shared memory: orteds of several workers on one host
                 // raced in hwloc_shmem_topology_write and one crashed (SIGSEGV) in ~8% of
                 // launches, which mpirun reported as "ORTE does not know how to route a message".
                 "--mca", "rtc_hwloc_vmhole", "none"};
    for (const auto& [k, v] : request.mca()) {
        opts.argv.insert(opts.argv.end(), {"--mca", k, v});
    }
    // Every rank, on every node (-x exports it through the orteds), numbers GPUs as NVML and the
    // worker's GetInfo do: CUDA's own default order is fastest first.
    opts.argv.insert(opts.argv.end(), {"-x", "CUDA_DEVICE_ORDER=PCI_BUS_ID"});
    std::vector<std::string> env = {"TESSERA_RSH_PEERS=" + files.peers};
    env.insert(env.end(), m_config.rshEnv.begin(), m_config.rshEnv.end());
    if (::geteuid() == 0) {
        opts.argv.push_back("--allow-run-as-root");
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT=1");
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
    }
    for (const std::string& e : ompiTmpdirEnv()) {
        env.push_back(e); // a session-directory tree per worker (see ompi_tmpdir.h)
    }
    if (command.empty()) {
        auto program = rankProgram(request.spec());
        if (!program) {
            return relay(program);
        }
        opts.argv.insert(opts.argv.end(), {*program, "--spec", files.spec});
    } else {
        opts.argv.insert(opts.argv.end(), user->args.begin(), user->args.end());
    }
    opts.env = environmentWith(env);
    return opts;
}

Result<std::string> JobManager::rankProgram(const v1::JobSpec& spec) const {
    const auto& slots = spec.placement().slots();
    const bool cuda = std::any_of(slots.begin(), slots.end(), [](const v1::Placement::Slot& s) {
        return s.device() == "cuda";
    });
    // By name: each node's orted finds its own in PATH (the worker puts its folder first).
    if (!cuda) {
        return std::string("tessera-train");
    }
    const std::string program = m_config.binDir + "/tessera-train-cuda";
    if (::access(program.c_str(), X_OK) != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "the placement asks for device \"cuda\" but this worker has no " + program +
                        " (Tessera was built without CUDA and NCCL); train on \"cpu\" or "
                        "install a build with the GPU backend");
    }
    return std::string("tessera-train-cuda");
}

std::shared_ptr<Job> JobManager::find(const std::string& id) const {
    std::lock_guard lock(m_mutex);
    const auto it = m_jobs.find(id);
    return it == m_jobs.end() ? nullptr : it->second;
}

Result<v1::JobState> JobManager::cancel(const std::string& id, double graceSeconds) {
    auto job = find(id);
    if (!job) {
        return fail(ErrorCode::NotFound, "no job '" + id + "' on this worker");
    }
    const double grace = graceSeconds > 0 ? graceSeconds : 5.0;
    return job->cancel(std::chrono::milliseconds(static_cast<int64_t>(grace * 1000)));
}

void JobManager::stopAll(std::chrono::milliseconds wait) {
    std::vector<std::shared_ptr<Job>> running;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [id, job] : m_jobs) {
            if (!job->finished()) {
                running.push_back(job);
            }
        }
    }
    for (auto& job : running) {
        job->abort("worker stopped while the job was running", wait / 2);
    }
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (auto& job : running) {
        while (!job->finished() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

} // namespace tessera::daemon
