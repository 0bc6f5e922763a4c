// The jobs of one worker by id: LaunchJob (job folder, hostfile, peers file, mpirun), cancel,
// and restart recovery from the journals under <work-dir>/jobs/.
#pragma once

#include "error.h"
#include "job.h"
#include "tessera/v1/worker.pb.h"

#include <grpcpp/support/status.h>

#include <expected>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tessera::daemon {

/// Settings the job manager needs from the daemon's command line.
struct JobManagerConfig {
    std::string workDir; ///< jobs live in workDir/jobs/<job_id>/
    std::string binDir;  ///< folder of tessera-train and tessera-rsh
    std::string mpirun;  ///< absolute path of Open MPI's mpirun
};

/// Owns every job of the worker. Thread-safe.
class JobManager {
public:
    explicit JobManager(JobManagerConfig config) : m_config(std::move(config)) {}

    /// Loads every job under workDir/jobs; a journal without a terminal state gets
    /// FAILED "worker restarted while the job was running". Errors: Io for the folder.
    Result<void> recover();

    /// Validates the request, writes the job folder and starts mpirun (see the shared contract).
    /// Errors as gRPC statuses: INVALID_ARGUMENT (bad id, peers, spec), ALREADY_EXISTS (job id
    /// in use), INTERNAL (folder or process failure).
    std::expected<v1::LaunchJobReply, grpc::Status> launch(const v1::LaunchJobRequest& request);

    /// The job `id`, or nullptr.
    std::shared_ptr<Job> find(const std::string& id) const;

    /// Stops the job's process group (TERM, KILL after `graceSeconds`, 0 = 5 s).
    /// Errors: NotFound naming the job.
    Result<v1::JobState> cancel(const std::string& id, double graceSeconds);

    /// Stops every running job (FAILED "worker stopped") and waits up to `wait` for them.
    void stopAll(std::chrono::milliseconds wait);

private:
    JobManagerConfig m_config;
    mutable std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<Job>> m_jobs;
};

/// True for a job id usable as a folder name: 1–128 of [A-Za-z0-9._-], not starting with '.'.
bool isValidJobId(const std::string& id);

} // namespace tessera::daemon
