// The jobs of one worker by id: LaunchJob (job folder, hostfile, peers file, mpirun), cancel,
// and restart recovery from the journals under <work-dir>/jobs/.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"
#include "worker/daemon/jobs/job.h"
#include "worker/daemon/jobs/process.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessera::daemon {

/// Settings the job manager needs from the daemon's command line.
struct JobManagerConfig {
    std::string workDir; ///< jobs live in workDir/jobs/<job_id>/
    std::string binDir;  ///< folder of tessera-train(-cuda) and tessera-rsh
    std::string mpirun;  ///< absolute path of Open MPI's mpirun
    /// Per-rank log files of each job and the journal's log-line budget (Job::OutputOptions).
    RankLogs::Limits rankLogs;
    std::int64_t journalLogBytes = std::int64_t(64) << 20;
    /// Bytes of a job's events kept in memory while its journal cannot be written (a full
    /// disk); past them the job is stopped rather than lose any (0 = no limit).
    std::size_t unjournaledBytes = EventLog::kDefaultUnjournaledBytes;
    /// The worker's name, in the notices a job gives ("worker-1: disk full in …").
    std::string workerName = "worker";
    /// "NAME=VALUE" entries added to mpirun's environment for tessera-rsh: the worker's TLS
    /// identity (TESSERA_TLS_CERT/KEY/CA, tls_files.h) when it serves mutual TLS, else none.
    std::vector<std::string> rshEnv;
};

/// Owns every job of the worker. Thread-safe.
class JobManager {
public:
    /// Starts the thread that retries journals a full disk refused (every kKeepEvery).
    explicit JobManager(JobManagerConfig config);
    ~JobManager();
    JobManager(const JobManager&) = delete;
    JobManager& operator=(const JobManager&) = delete;

    /// How often events kept in memory are offered to their journals again.
    static constexpr std::chrono::seconds kKeepEvery{2};

    /// Loads every job under workDir/jobs (folders without a journal hold another worker's job's
    /// files for this node and are left alone); a journal without a terminal state gets
    /// FAILED "worker restarted while the job was running". Errors: Io for the folder.
    Result<void> recover();

    /// Validates the request, writes the job folder and starts mpirun (see the shared contract)
    /// with tessera-train on every rank, tessera-train-cuda when a placement slot asks for
    /// device "cuda", or the spec's model.command. Errors: InvalidArgument (bad id, peers, spec,
    /// no GPU backend for a cuda placement), AlreadyExists (job id in use), Io (job folder),
    /// and the process manager's errors for mpirun.
    Result<v1::LaunchJobReply> launch(const v1::LaunchJobRequest& request);

    /// The job `id`, or nullptr.
    std::shared_ptr<Job> find(const std::string& id) const;

    /// Stops the job's process group (TERM, KILL after `graceSeconds`, 0 = 5 s).
    /// Errors: NotFound naming the job.
    Result<v1::JobState> cancel(const std::string& id, double graceSeconds);

    /// Stops every running job (FAILED "worker stopped") and waits up to `wait` for them.
    void stopAll(std::chrono::milliseconds wait);

private:
    /// The files of a job folder that mpirun and tessera-rsh read.
    struct JobFiles {
        std::string spec;     ///< spec.json
        std::string hostfile; ///< one "name slots=N" line per peer
        std::string peers;    ///< peers.json for tessera-rsh (0600)
    };
    /// The job's rank logs and journal budget from the config; torchrun's agent ranks.
    Job::OutputOptions outputOptions(const v1::LaunchJobRequest& request) const;
    /// Creates `dir` and its journal and registers the job. Errors: AlreadyExists, Io.
    Result<std::shared_ptr<Job>> createJob(const std::string& id, const std::filesystem::path& dir);
    /// Writes spec.json, hostfile and peers.json into `dir`. Errors: Io naming the file.
    static Result<JobFiles> writeJobFolder(const v1::LaunchJobRequest& request,
                                           const std::filesystem::path& dir);
    /// mpirun's command line and environment for `world` ranks.
    Result<SpawnOptions> mpirunOptions(const v1::LaunchJobRequest& request, int world,
                                       const JobFiles& files) const;
    /// The rank program of a built-in job: tessera-train, or tessera-train-cuda for GPU ranks.
    Result<std::string> rankProgram(const v1::JobSpec& spec) const;

    /// The keeper thread: Job::retryJournal on every job each kKeepEvery until stopped.
    void keepJournals();

    JobManagerConfig m_config;
    mutable std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<Job>> m_jobs;
    std::mutex m_keeperMutex;
    std::condition_variable m_keeperCv;
    bool m_stopKeeper = false;
    std::thread m_keeper;
};

/// True for a job id usable as a folder name: 1–128 of [A-Za-z0-9._-], not starting with '.'.
bool isValidJobId(const std::string& id);

} // namespace tessera::daemon
