// Job: journaled, sequenced events; output lines → Metric/LogLine events; exit → final state.
#include "worker/daemon/job.h"

#include "worker/daemon/metric_parse.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

namespace {

constexpr size_t kStderrTailLines = 12;

bool isTerminal(v1::JobState s) {
    return s == v1::JOB_STATE_SUCCEEDED || s == v1::JOB_STATE_FAILED ||
           s == v1::JOB_STATE_CANCELLED;
}

int64_t nowUnixMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

Job::Job(std::string id, std::string dir, JobJournal journal, std::vector<v1::JobEvent> events)
    : m_id(std::move(id)), m_dir(std::move(dir)), m_journal(std::move(journal)),
      m_events(std::move(events)) {
    for (const auto& ev : m_events) {
        if (ev.has_state()) {
            m_state = ev.state().state();
            m_finished = m_finished || isTerminal(m_state);
        }
    }
}

Result<uint64_t> Job::append(v1::JobEvent event) {
    uint64_t seq = 0;
    {
        std::lock_guard lock(m_eventsMutex);
        if (m_finished) {
            return fail(ErrorCode::InvalidArgument, "job " + m_id + " has already ended");
        }
        seq = m_events.empty() ? 1 : m_events.back().seq() + 1;
        event.set_seq(seq);
        event.set_time_unix_ms(nowUnixMs());
        event.set_job_id(m_id);
        const bool isState = event.has_state();
        if (auto r = m_journal.append(event, isState); !r) {
            // Still deliver the event live: dropping it (a final state above all) would leave
            // every watcher waiting forever. Only a replay after a daemon restart misses it.
            spdlog::error("[job {}] event {} is not on disk: {}", m_id, seq, r.error().message);
        }
        if (isState) {
            m_state = event.state().state();
            m_finished = isTerminal(m_state);
        }
        m_events.push_back(std::move(event));
    }
    std::lock_guard lock(m_listenersMutex);
    for (auto& [id, listener] : m_listeners) {
        listener();
    }
    return seq;
}

Result<uint64_t> Job::appendState(v1::JobState state, const std::string& reason, int exitCode) {
    v1::JobEvent ev;
    ev.mutable_state()->set_state(state);
    ev.mutable_state()->set_reason(reason);
    ev.mutable_state()->set_exit_code(exitCode);
    spdlog::info("[job {}] state {}{}{}", m_id, v1::JobState_Name(state),
                 reason.empty() ? "" : ": ", reason);
    return append(std::move(ev));
}

Job::Snapshot Job::snapshot(uint64_t seq) const {
    std::lock_guard lock(m_eventsMutex);
    Snapshot s;
    s.finished = m_finished;
    s.lastSeq = m_events.empty() ? 0 : m_events.back().seq();
    // Seqs are dense from 1 in a journal this daemon wrote; search to tolerate gaps anyway.
    if (seq >= 1 && seq <= m_events.size() && m_events[seq - 1].seq() == seq) {
        s.event = m_events[seq - 1];
    } else {
        for (const auto& ev : m_events) {
            if (ev.seq() >= seq) {
                s.event = ev;
                break;
            }
        }
    }
    return s;
}

v1::JobState Job::state() const {
    std::lock_guard lock(m_eventsMutex);
    return m_state;
}

bool Job::finished() const {
    std::lock_guard lock(m_eventsMutex);
    return m_finished;
}

int Job::subscribe(Listener listener) {
    std::lock_guard lock(m_listenersMutex);
    const int id = m_nextListener++;
    m_listeners.emplace(id, std::move(listener));
    return id;
}

void Job::unsubscribe(int id) {
    std::lock_guard lock(m_listenersMutex);
    m_listeners.erase(id);
}

Result<void> Job::run(const SpawnOptions& opts, const std::string& runningReason) {
    auto self = shared_from_this(); // the process's threads keep the job alive until exit
    auto started = Process::start(
        opts,
        [self](OutputStream s, std::string_view chunk) {
            self->waitUntilRunning();
            self->onOutput(s, chunk);
        },
        [self](ProcessExit e) {
            self->waitUntilRunning();
            self->onExit(e);
        });
    if (!started) {
        (void)appendState(v1::JOB_STATE_FAILED, started.error().message, 127);
        return relay(started);
    }
    {
        std::lock_guard lock(m_processMutex);
        m_process = *started;
    }
    spdlog::info("[job {}] started {} as pid {}", m_id, opts.argv[0], (*started)->pid());
    // RUNNING goes first; the reader thread holds the process's output back until it is recorded.
    (void)appendState(v1::JOB_STATE_RUNNING, runningReason);
    {
        std::lock_guard lock(m_runningMutex);
        m_runningRecorded = true;
    }
    m_runningCv.notify_all();
    return {};
}

void Job::waitUntilRunning() {
    std::unique_lock lock(m_runningMutex);
    m_runningCv.wait(lock, [this] { return m_runningRecorded; });
}

v1::JobState Job::cancel(std::chrono::milliseconds grace) {
    {
        std::lock_guard lock(m_eventsMutex);
        if (m_finished) {
            return m_state;
        }
    }
    std::lock_guard lock(m_processMutex);
    if (m_stopState == v1::JOB_STATE_UNSPECIFIED) {
        m_stopState = v1::JOB_STATE_CANCELLED;
        m_stopReason = "cancelled on request";
    }
    if (m_process) {
        spdlog::info("[job {}] cancelling: SIGTERM to process group {}, SIGKILL after {} ms", m_id,
                     m_process->pid(), grace.count());
        m_process->terminateGroup(grace);
    }
    return m_stopState;
}

void Job::abort(const std::string& reason, std::chrono::milliseconds grace) {
    std::lock_guard lock(m_processMutex);
    if (m_stopState == v1::JOB_STATE_UNSPECIFIED) {
        m_stopState = v1::JOB_STATE_FAILED;
        m_stopReason = reason;
    }
    if (m_process && !m_process->exited()) {
        m_process->terminateGroup(grace);
    }
}

pid_t Job::processGroup() const {
    std::lock_guard lock(m_processMutex);
    return m_process ? m_process->pid() : 0;
}

void Job::onOutput(OutputStream stream, std::string_view chunk) {
    (stream == OutputStream::Stdout ? m_stdout : m_stderr).feed(chunk);
}

void Job::onLine(OutputStream stream, int rank, const std::string& line) {
    v1::JobEvent ev;
    if (stream == OutputStream::Stdout) {
        if (auto metric = parseMetricLine(line)) {
            *ev.mutable_metric() = std::move(*metric);
            (void)append(std::move(ev));
            return;
        }
    } else {
        m_failure.note(line);
        m_stderrTail.push_back(line);
        if (m_stderrTail.size() > kStderrTailLines) {
            m_stderrTail.pop_front();
        }
    }
    ev.mutable_log()->set_stream(stream == OutputStream::Stdout ? "stdout" : "stderr");
    ev.mutable_log()->set_text(line);
    if (rank >= 0) {
        ev.mutable_log()->set_rank(rank);
    }
    (void)append(std::move(ev));
}

void Job::onExit(ProcessExit exit) {
    m_stdout.finish();
    m_stderr.finish();
    v1::JobState stopState;
    std::string stopReason;
    {
        std::lock_guard lock(m_processMutex);
        stopState = m_stopState;
        stopReason = m_stopReason;
    }
    std::string how = exit.signal ? "killed by signal " + std::to_string(exit.signal)
                                  : "exit code " + std::to_string(exit.code);
    if (stopState != v1::JOB_STATE_UNSPECIFIED) {
        (void)appendState(stopState, stopReason + " (" + how + ")", exit.code);
    } else if (exit.code == 0) {
        (void)appendState(v1::JOB_STATE_SUCCEEDED, "", 0);
    } else {
        (void)appendState(v1::JOB_STATE_FAILED, m_failure.explain(how, m_stderrTail), exit.code);
    }
}

} // namespace tessera::daemon
