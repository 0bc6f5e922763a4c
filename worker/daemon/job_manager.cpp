// Job manager: job folders, the mpirun command line, cancellation and restart recovery.
#include "job_manager.h"
#include "ompi_tmpdir.h"

#include "process.h"
#include "spec_io.h"

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

grpc::Status invalid(const std::string& msg) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg);
}

// Checks peers and spec; returns the world size.
std::expected<int, grpc::Status> checkRequest(const v1::LaunchJobRequest& req) {
    if (req.peers().empty()) {
        return std::unexpected(
            invalid("LaunchJob needs peers: the job's workers in rank order, this worker first"));
    }
    int world = 0;
    for (int i = 0; i < req.peers_size(); ++i) {
        const auto& p = req.peers(i);
        const std::string where = "peers[" + std::to_string(i) + "]";
        if (p.name().empty() || !std::all_of(p.name().begin(), p.name().end(), isNameChar)) {
            return std::unexpected(invalid(where + ".name '" + p.name() +
                                           "' must be non-empty [A-Za-z0-9._-] (a hostfile name)"));
        }
        if (p.slots() < 1) {
            return std::unexpected(invalid(where + ".slots must be >= 1"));
        }
        if (p.address().empty()) {
            return std::unexpected(invalid(where + ".address (host:port) is empty"));
        }
        for (int j = 0; j < i; ++j) {
            if (req.peers(j).name() == p.name()) {
                return std::unexpected(invalid(where + ".name '" + p.name() + "' is repeated"));
            }
        }
        world += p.slots();
    }
    for (const auto& [k, v] : req.mca()) {
        if (k.empty() || !std::all_of(k.begin(), k.end(), isNameChar) || v.empty()) {
            return std::unexpected(invalid("mca parameter '" + k +
                                           "' needs a name of [A-Za-z0-9._-] "
                                           "and a non-empty value"));
        }
    }
    const auto& spec = req.spec();
    if (spec.model().command().empty()) {
        if (auto r = validateJobSpec(spec); !r) {
            return std::unexpected(invalid(r.error().message));
        }
        if (worldSize(spec.layout()) != world) {
            return std::unexpected(
                invalid("the layout needs " + std::to_string(worldSize(spec.layout())) +
                        " ranks but the peers' slots add up to " + std::to_string(world)));
        }
    }
    return world;
}

} // namespace

bool isValidJobId(const std::string& id) {
    return !id.empty() && id.size() <= 128 && id[0] != '.' &&
           std::all_of(id.begin(), id.end(), isNameChar);
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
        const std::string journalPath = (entry.path() / "journal").string();
        auto contents = JobJournal::read(journalPath);
        auto journal = JobJournal::open(journalPath);
        if (!contents || !journal) {
            spdlog::error("[job {}] skipped: {}", id,
                          (!contents ? contents.error() : journal.error()).message);
            continue;
        }
        auto job = std::make_shared<Job>(id, entry.path().string(), std::move(*journal),
                                         std::move(contents->events));
        if (contents->tornTail) {
            spdlog::warn("[job {}] journal had a torn last record; it was dropped", id);
        }
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

std::expected<v1::LaunchJobReply, grpc::Status>
JobManager::launch(const v1::LaunchJobRequest& request) {
    const std::string id = request.spec().job_id();
    if (!isValidJobId(id)) {
        return std::unexpected(invalid("spec.job_id '" + id +
                                       "' must be 1-128 of [A-Za-z0-9._-], not starting with '.'"));
    }
    auto world = checkRequest(request);
    if (!world) {
        return std::unexpected(world.error());
    }
    const fs::path dir = fs::path(m_config.workDir) / "jobs" / id;
    std::shared_ptr<Job> job;
    {
        std::lock_guard lock(m_mutex);
        if (m_jobs.count(id) || ::mkdir(dir.c_str(), 0700) != 0) {
            if (m_jobs.count(id) || errno == EEXIST) {
                return std::unexpected(
                    grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "job id '" + id +
                                                                       "' is already used on this "
                                                                       "worker; pick a new one"));
            }
            return std::unexpected(
                grpc::Status(grpc::StatusCode::INTERNAL,
                             "cannot create '" + dir.string() + "': " + std::strerror(errno)));
        }
        auto journal = JobJournal::open((dir / "journal").string());
        if (!journal) {
            return std::unexpected(
                grpc::Status(grpc::StatusCode::INTERNAL, journal.error().message));
        }
        job = std::make_shared<Job>(id, dir.string(), std::move(*journal),
                                    std::vector<v1::JobEvent>{});
        m_jobs[id] = job;
    }
    (void)job->appendState(v1::JOB_STATE_STARTING, "");

    // Job folder: spec.json, hostfile (one line per peer), peers file for tessera-rsh (0600).
    const std::string specPath = (dir / "spec.json").string();
    const std::string hostfile = (dir / "hostfile").string();
    const std::string peersPath = (dir / "peers.json").string();
    std::string hosts;
    v1::PeerList peers;
    for (const auto& p : request.peers()) {
        hosts += p.name() + " slots=" + std::to_string(p.slots()) + "\n";
        *peers.add_peers() = p;
    }
    std::string peersJson;
    (void)google::protobuf::util::MessageToJsonString(peers, &peersJson);
    for (auto r : {writeFile(specPath, jobSpecToJson(request.spec()), 0644),
                   writeFile(hostfile, hosts, 0644), writeFile(peersPath, peersJson, 0600)}) {
        if (!r) {
            (void)job->appendState(v1::JOB_STATE_FAILED, r.error().message);
            return std::unexpected(grpc::Status(grpc::StatusCode::INTERNAL, r.error().message));
        }
    }

    SpawnOptions opts;
    opts.cwd = dir.string();
    // argv[0] is the bare name: Open MPI treats an absolute argv[0] as --prefix and then sends
    // `PATH=...; export PATH; ... orted` through the agent, a shell line tessera-rsh refuses.
    opts.program = m_config.mpirun;
    opts.argv = {"mpirun", "-np", std::to_string(*world), "--hostfile", hostfile, "--oversubscribe",
                 "--mca", "plm_rsh_agent", m_config.binDir + "/tessera-rsh", "--mca",
                 "plm_rsh_no_tree_spawn", "1",
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
    std::vector<std::string> env = {"TESSERA_RSH_PEERS=" + peersPath};
    if (::geteuid() == 0) {
        opts.argv.push_back("--allow-run-as-root");
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT=1");
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
    }
    for (const std::string& e : ompiTmpdirEnv()) {
        env.push_back(e); // a session-directory tree per worker (see ompi_tmpdir.h)
    }
    if (request.spec().model().command().empty()) {
        opts.argv.insert(opts.argv.end(), {m_config.binDir + "/tessera-train", "--spec", specPath});
    } else {
        opts.argv.insert(opts.argv.end(), request.spec().model().command().begin(),
                         request.spec().model().command().end());
    }
    opts.env = environmentWith(env);
    if (auto r = job->run(opts, "mpirun started with world size " + std::to_string(*world)); !r) {
        return std::unexpected(grpc::Status(grpc::StatusCode::INTERNAL, r.error().message));
    }
    v1::LaunchJobReply reply;
    reply.set_job_id(id);
    reply.set_job_dir(dir.string());
    return reply;
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
