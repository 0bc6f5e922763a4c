// Exec reactor: allow-list check, spawn, stdin/signal forwarding, ordered output writes.
#include "worker/daemon/service/exec_session.h"

#include "worker/common/tsan_handoff.h"
#include "worker/daemon/jobs/ompi_tmpdir.h"
#include "worker/daemon/jobs/program_paths.h"
#include "worker/daemon/log/repeat_limiter.h"
#include "worker/daemon/output/utf8_text.h"
#include "worker/daemon/security/exec_env.h"
#include "worker/daemon/security/request_limits.h"
#include "worker/daemon/service/grpc_status.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <filesystem>
#include <unistd.h>

namespace tessera::daemon {

namespace {
constexpr auto kKillGrace = std::chrono::seconds(3);

} // namespace

ExecSession::ExecSession(const AllowList& allow, const std::string& workDir, grpc::Status refusal)
    : m_allow(allow), m_workDir(workDir), m_shared(std::make_shared<Shared>()) {
    m_shared->reactor = this;
    std::lock_guard lock(m_shared->mutex);
    if (!refusal.ok()) {
        finishLocked(refusal);
        return;
    }
    tsanHandedOver(this);
    StartRead(&m_in);
}

void ExecSession::finishLocked(const grpc::Status& status) {
    if (!m_shared->finished) {
        m_shared->finished = true;
        tsanHandedOver(this);
        Finish(status);
    }
}

void ExecSession::OnReadDone(bool ok) {
    tsanReceived(this);
    std::shared_ptr<Process> process;
    {
        std::lock_guard lock(m_processMutex);
        process = m_process;
    }
    if (!ok) {
        // The client half-closed (or the call ended): the program keeps running until it exits.
        if (!process) {
            std::lock_guard lock(m_shared->mutex);
            finishLocked({grpc::StatusCode::INVALID_ARGUMENT,
                          "Exec needs an ExecInput with `start` as its first message"});
        }
        return;
    }
    if (!process) {
        if (!m_in.has_start()) {
            std::lock_guard lock(m_shared->mutex);
            finishLocked({grpc::StatusCode::INVALID_ARGUMENT,
                          "Exec's first message must be `start` (argv, env, cwd)"});
            return;
        }
        handleStart(m_in.start());
    } else if (m_in.kind_case() == v1::ExecInput::kStdin) {
        if (auto r = process->writeStdin(m_in.stdin()); !r) {
            spdlog::warn("exec {} (pid {}): {}", m_program, process->pid(), r.error().message);
        }
    } else if (m_in.kind_case() == v1::ExecInput::kCloseStdin) {
        process->closeStdin();
    } else if (m_in.kind_case() == v1::ExecInput::kSignal) {
        const int sig = m_in.signal();
        if (sig > 0 && sig < NSIG) {
            process->signalGroup(sig);
        }
    }
    std::lock_guard lock(m_shared->mutex);
    if (!m_shared->finished) {
        tsanHandedOver(this);
        StartRead(&m_in);
    }
}

void ExecSession::handleStart(const v1::ExecStart& start) {
    if (start.argv().empty()) {
        std::lock_guard lock(m_shared->mutex);
        finishLocked({grpc::StatusCode::INVALID_ARGUMENT, "ExecStart.argv is empty"});
        return;
    }
    if (Result<void> bounded = checkExecStart(start); !bounded) {
        std::lock_guard lock(m_shared->mutex);
        finishLocked(toGrpcStatus(bounded.error()));
        return;
    }
    auto path = m_allow.resolve(start.argv(0));
    if (!path) {
        const std::string line = "exec refused: " + logSafe(path.error().message);
        RepeatLimiter::shared().log(spdlog::level::warn, line, line);
        std::lock_guard lock(m_shared->mutex);
        finishLocked(toGrpcStatus(path.error()));
        return;
    }
    m_program = *path;
    SpawnOptions opts;
    opts.argv.assign(start.argv().begin(), start.argv().end());
    opts.argv[0] = *path;
    opts.cwd = start.cwd().empty() ? m_workDir : start.cwd();
    std::error_code ec;
    if (!std::filesystem::is_directory(opts.cwd, ec)) {
        std::lock_guard lock(m_shared->mutex);
        finishLocked({grpc::StatusCode::INVALID_ARGUMENT,
                      "ExecStart.cwd '" + opts.cwd + "' is not a folder on this worker"});
        return;
    }
    opts.pipeStdin = true;
    opts.cgroup = "exec"; // an orted's ranks end with it, on this node as on mpirun's
    // The worker's own environment, and from the caller only what Open MPI's launcher sets.
    Result<std::vector<std::string>> callerEnv = callerEnvironment(start.env());
    if (!callerEnv) {
        const std::string line =
            fmt::format("Exec of {} refused: {}", *path, logSafe(callerEnv.error().message));
        RepeatLimiter::shared().log(spdlog::level::warn, line, line);
        std::lock_guard lock(m_shared->mutex);
        finishLocked(toGrpcStatus(callerEnv.error()));
        return;
    }
    std::vector<std::string> env = std::move(*callerEnv);
    // The folder of the worker this process runs on: tessera-rank puts a job's files of this
    // node (layout file, default checkpoint folder) under it.
    env.push_back("TESSERA_WORKER_DIR=" + m_workDir);
    if (::geteuid() == 0) {
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT=1");
        env.push_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
    }
    for (const std::string& e : ompiTmpdirEnv()) {
        env.push_back(e); // a session-directory tree per worker (see ompi_tmpdir.h)
    }
    if (baseName(*path) == "orted") {
        // mpirun passes its own node's paths: this worker's session folder and rsh agent are
        // elsewhere (another home folder, remote folder or bundle). An orted whose plm_rsh_agent
        // does not exist on its node crashes in orte_init (SIGSEGV in orte_errmgr_base_abort).
        if (const std::string dir = ompiTmpdir(); !dir.empty()) {
            replaceOrteTmpdir(opts.argv, dir);
        }
        replaceMcaParam(opts.argv, "plm_rsh_agent", binDir() + "/tessera-rsh");
    }
    opts.env = environmentWith(env);

    std::weak_ptr<Shared> weak = m_shared;
    auto onOutput = [weak](OutputStream s, std::string_view chunk) {
        auto shared = weak.lock();
        if (!shared) {
            return;
        }
        v1::ExecOutput out;
        if (s == OutputStream::Stdout) {
            out.set_stdout(std::string(chunk));
        } else {
            out.set_stderr(std::string(chunk));
        }
        std::lock_guard lock(shared->mutex);
        if (shared->reactor) {
            shared->queue.push_back(std::move(out));
            shared->reactor->pumpLocked();
        }
    };
    const std::string program = m_program;
    auto onExit = [weak, program](ProcessExit e) {
        spdlog::info("exec {} ended with code {} (signal {})", program, e.code, e.signal);
        auto shared = weak.lock();
        if (!shared) {
            return;
        }
        v1::ExecOutput out;
        out.mutable_exit()->set_code(e.code);
        out.mutable_exit()->set_signal(e.signal);
        std::lock_guard lock(shared->mutex);
        shared->exited = true;
        if (shared->reactor) {
            shared->queue.push_back(std::move(out));
            shared->reactor->pumpLocked();
        }
    };
    auto started = Process::start(opts, onOutput, onExit);
    if (!started) {
        spdlog::error("exec: {}", started.error().message);
        std::lock_guard lock(m_shared->mutex);
        finishLocked(toGrpcStatus(started.error()));
        return;
    }
    spdlog::info("exec {} as pid {} ({} args)", m_program, (*started)->pid(), opts.argv.size());
    spdlog::debug("exec argv: {}", fmt::join(opts.argv, " "));
    std::lock_guard lock(m_processMutex);
    m_process = *started;
}

void ExecSession::pumpLocked() {
    if (m_shared->finished || m_shared->writing) {
        return;
    }
    if (!m_shared->queue.empty()) {
        m_shared->writing = true;
        tsanHandedOver(this);
        StartWrite(&m_shared->queue.front());
    } else if (m_shared->exited) {
        finishLocked(grpc::Status::OK);
    }
}

void ExecSession::OnWriteDone(bool ok) {
    tsanReceived(this);
    std::lock_guard lock(m_shared->mutex);
    m_shared->writing = false;
    if (!m_shared->queue.empty()) {
        m_shared->queue.pop_front();
    }
    if (!ok) {
        finishLocked({grpc::StatusCode::CANCELLED, "the Exec client went away"});
        return;
    }
    pumpLocked();
}

void ExecSession::OnCancel() {
    tsanReceived(this);
    {
        std::lock_guard lock(m_processMutex);
        if (m_process && !m_process->exited()) {
            spdlog::info("exec {} (pid {}): call cancelled, stopping its process group", m_program,
                         m_process->pid());
            m_process->terminateGroup(kKillGrace);
        }
    }
    std::lock_guard lock(m_shared->mutex);
    finishLocked({grpc::StatusCode::CANCELLED, "Exec call cancelled"});
}

void ExecSession::OnDone() {
    tsanReceived(this);
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->reactor = nullptr;
        m_shared->queue.clear();
    }
    {
        std::lock_guard lock(m_processMutex);
        if (m_process && !m_process->exited()) {
            m_process->terminateGroup(kKillGrace);
        }
    }
    delete this;
}

} // namespace tessera::daemon
