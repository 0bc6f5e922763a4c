// Job: journaled, sequenced events; output lines and TensorBoard event files → Metric/LogLine
// events; exit → final state.
#include "worker/daemon/jobs/job.h"

#include "worker/daemon/log/repeat_limiter.h"
#include "worker/daemon/output/metric_parse.h"
#include "worker/daemon/output/utf8_text.h"

#include <spdlog/spdlog.h>

#include <filesystem>

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

Job::Job(std::string id, std::string dir, EventLog log)
    : m_id(std::move(id)), m_dir(std::move(dir)), m_log(std::move(log)) {
    if (m_log.lastState()) {
        m_state = m_log.lastState()->state();
        m_finished = isTerminal(m_state);
    }
    if (m_finished) {
        m_log.dropTail();
    }
}

Result<uint64_t> Job::append(v1::JobEvent event) {
    uint64_t seq = 0;
    EventLog::Journaled journaled;
    {
        std::lock_guard lock(m_eventsMutex);
        if (m_finished) {
            return fail(ErrorCode::InvalidArgument, "job " + m_id + " has already ended");
        }
        seq = m_log.lastSeq() + 1;
        event.set_seq(seq);
        event.set_time_unix_ms(nowUnixMs());
        event.set_job_id(m_id);
        const bool isState = event.has_state();
        if (isState) {
            m_state = event.state().state();
            m_finished = isTerminal(m_state);
        }
        // Not journaled (a full disk) is not lost: EventLog keeps it, watchers still get it.
        journaled = m_log.append(std::move(event), isState);
        if (m_finished) {
            m_log.dropTail(); // the ended job's events are read from its journal from now on
        }
    }
    {
        std::lock_guard lock(m_listenersMutex);
        for (auto& [id, listener] : m_listeners) {
            listener();
        }
    }
    noteJournal(journaled);
    return seq;
}

std::size_t Job::retryJournal(bool force) {
    EventLog::Journaled journaled;
    std::size_t left = 0;
    {
        std::lock_guard lock(m_eventsMutex);
        journaled = m_log.retry(EventLog::Clock::now(), force);
        left = m_log.unjournaledEvents();
    }
    noteJournal(journaled);
    return left;
}

std::string Job::diskFullText(const std::string& error) const {
    // The journal's error ends with strerror's words ("No space left on device").
    const std::size_t colon = error.rfind(": ");
    const std::string why = colon == std::string::npos ? error : error.substr(colon + 2);
    return m_output.workerName + ": disk full in " + m_dir + " (" + why + ")";
}

void Job::appendNotice(const std::string& text) {
    spdlog::warn("[job {}] {}", m_id, text);
    v1::JobEvent ev;
    ev.mutable_log()->set_stream("worker");
    ev.mutable_log()->set_text(text);
    (void)append(std::move(ev)); // refused only after the job's end: the daemon log has it
}

void Job::noteJournal(const EventLog::Journaled& what) {
    std::size_t kept = 0, keptBytes = 0, limit = 0;
    {
        std::lock_guard lock(m_eventsMutex);
        kept = m_log.unjournaledEvents();
        keptBytes = m_log.unjournaledBytes();
        limit = m_log.unjournaledLimit();
    }
    const auto mib = [](std::size_t bytes) {
        return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
    };
    if (what.caughtUp > 0 && m_diskFullNoted.exchange(false)) {
        appendNotice(m_output.workerName + ": disk space is back in " + m_dir + ": the " +
                     withThousands(what.caughtUp) + " events kept in memory are journaled");
    }
    if (!what.onDisk) {
        RepeatLimiter::shared().log(spdlog::level::err, "[job " + m_id + "] events not journaled",
                                    "[job " + m_id + "] events kept in memory only (" +
                                        withThousands(kept) + " now): " + what.error);
    }
    if (what.justFailed && !m_diskFullNoted.exchange(true)) {
        appendNotice(diskFullText(what.error) + ": the job's events are kept in memory (at most " +
                     (limit ? mib(limit) : std::string("without limit")) +
                     ") and still streamed; free space there to journal them");
    }
    if (what.overLimit && !m_stoppedForMemory.exchange(true)) {
        const std::string reason =
            diskFullText(what.error.empty() ? "no space left" : what.error) + ": " +
            withThousands(kept) + " events (" + mib(keptBytes) +
            ") kept in memory, the most this worker keeps (--unjournaled-mib); the job is "
            "stopped so that nothing more is lost: free space there and launch it again";
        appendNotice(reason);
        abort(reason, std::chrono::seconds(10));
    }
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

Job::Batch Job::read(uint64_t fromSeq, std::size_t max) const {
    Batch b;
    std::optional<EventLog::DiskRead> disk;
    {
        std::lock_guard lock(m_eventsMutex);
        b.finished = m_finished;
        b.lastSeq = m_log.lastSeq();
        if (fromSeq > b.lastSeq) {
            return b;
        }
        disk = m_log.plan(fromSeq, max, b.events);
    }
    if (disk) {
        // Outside the lock: appends go on while a late watcher reads the journal.
        auto events = EventLog::read(*disk, fromSeq, max);
        if (!events) {
            spdlog::error("[job {}] {}", m_id, events.error().message);
        } else {
            b.events = std::move(*events);
        }
        if (b.events.empty()) {
            // Those events never reached the disk (it was full): go on with what memory has.
            std::lock_guard lock(m_eventsMutex);
            if (const uint64_t first = m_log.firstInMemory(); first > fromSeq) {
                (void)m_log.plan(first, max, b.events);
            }
        }
    }
    return b;
}

std::size_t Job::memoryEvents() const {
    std::lock_guard lock(m_eventsMutex);
    return m_log.memoryEvents();
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
    const auto startedAt = std::chrono::system_clock::now();
    const std::string tensorboardProblem = createTensorboardDir();
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
    startTensorboard(startedAt, tensorboardProblem); // before onExit may run (it waits on this)
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

void Job::setOutputOptions(OutputOptions options) {
    m_output = std::move(options);
    {
        std::lock_guard lock(m_eventsMutex);
        m_log.setUnjournaledLimit(m_output.unjournaledBytes);
    }
    m_rankLogs = std::make_unique<RankLogs>(m_dir + "/logs", m_output.rankLogs);
    m_plainMetrics = std::make_unique<PlainMetrics>(m_output.metrics);
    if (!m_output.agentFirstRanks.empty()) {
        m_failure.setProcessWord("torchrun's node agent");
    }
}

int Job::attributeAgentLine(int agent, std::string_view& line) const {
    const std::vector<int>& first = m_output.agentFirstRanks;
    if (first.empty()) {
        return agent;
    }
    if (agent < 0 || agent >= int(first.size())) {
        return -1;
    }
    // torchrun's --tee prefix: "[" role local_rank "]:"; Tessera's agents keep the role
    // "default" (torch/distributed/elastic/multiprocessing/tail_log.py, TailLog.start).
    constexpr std::string_view kRole = "[default";
    if (line.substr(0, kRole.size()) != kRole) {
        return -1;
    }
    std::size_t i = kRole.size();
    long local = 0;
    while (i < line.size() && i < kRole.size() + 7 && line[i] >= '0' && line[i] <= '9') {
        local = local * 10 + (line[i] - '0');
        ++i;
    }
    if (i == kRole.size() || line.substr(i, 2) != "]:") {
        return -1;
    }
    line.remove_prefix(i + 2);
    return first[std::size_t(agent)] + int(local);
}

void Job::takePlainMetrics(int rank, std::string_view line, bool cutBefore, bool cutAfter) {
    if (!m_plainMetrics) {
        return;
    }
    PlainMetrics::Taken taken = m_plainMetrics->take(rank, line, cutBefore, cutAfter);
    for (const std::string& notice : taken.notices) {
        appendNotice(notice);
    }
    for (v1::Metric& metric : taken.metrics) {
        v1::JobEvent ev;
        *ev.mutable_metric() = std::move(metric);
        (void)append(std::move(ev));
    }
}

bool Job::journalBudgetAllows(std::size_t bytes) {
    const std::int64_t budget = m_output.journalLogBytes;
    if (budget <= 0 || m_journaledLogBytes + std::int64_t(bytes) <= budget) {
        m_journaledLogBytes += std::int64_t(bytes);
        return true;
    }
    if (!m_journalBudgetNoted) {
        m_journalBudgetNoted = true;
        v1::JobEvent ev;
        ev.mutable_log()->set_stream("worker");
        ev.mutable_log()->set_text(
            "the job has printed more than " + std::to_string(budget >> 20) +
            " MiB of log lines: later lines are not journaled, streamed or kept in the history "
            "(metrics and states still are); each rank's newest output is kept in " +
            m_dir + "/logs/rank-R.log on this worker");
        (void)append(std::move(ev));
    }
    return false;
}

void Job::onLine(OutputStream stream, int agent, const std::string& received) {
    // A line of exactly the piece size is a piece of a longer one (TaggedOutput cuts it there).
    const bool piece = received.size() == kMaxLineBytes;
    std::string_view view = received;
    const int rank = attributeAgentLine(agent, view);
    if (m_rankLogs) {
        m_rankLogs->write(rank, stream == OutputStream::Stderr, view, piece,
                          std::chrono::system_clock::now());
    }
    const std::string bytes(view);
    v1::JobEvent ev;
    v1::LogLine* log = ev.mutable_log();
    bool record = false; // an @tessera record, taken or refused
    if (stream == OutputStream::Stdout) {
        ParsedLine parsed = parseRecordLine(bytes);
        record = parsed.kind != ParsedLine::Kind::NotARecord;
        if (parsed.kind == ParsedLine::Kind::Metric) {
            if (auto notice = m_plainMetrics ? m_plainMetrics->recordSeen() : std::nullopt) {
                appendNotice(*notice);
            }
            *ev.mutable_metric() = std::move(parsed.metric);
            (void)append(std::move(ev));
            return;
        }
        if (parsed.kind == ParsedLine::Kind::Refused) {
            // A program can print refused records at will: a few lines and a count per window.
            RepeatLimiter::shared().log(spdlog::level::warn,
                                        "[job " + m_id + "] @tessera records refused",
                                        fmt::format("[job {}] rank {}: @tessera record refused: {}",
                                                    m_id, rank, logSafe(parsed.refusal)));
            log->set_refused(std::move(parsed.refusal));
        }
    }
    if (!record) {
        // A line longer than a piece (a progress bar's epoch of '\r' redraws) is read piece by
        // piece; the redraws cut at a piece's edges are left out.
        bool& open = m_pieceOpen[{int(stream), rank}];
        takePlainMetrics(rank, view, open, piece);
        open = piece;
    }
    // protobuf's string fields must be UTF-8 (a client cannot decode, and a journal cannot read
    // back, an event that is not): other bytes are shown escaped and kept exactly in `raw`.
    const bool utf8 = isValidUtf8(bytes);
    const std::string text = utf8 ? bytes : escapeInvalidUtf8(bytes);
    if (!utf8) {
        log->set_raw(bytes);
    }
    if (stream == OutputStream::Stderr) {
        // Open MPI's banner names mpirun's process: under torchrun the node agent, whose tail
        // then holds its ranks' lines (a traceback); torchrun's own lines (its failure summary,
        // as long as the tail) go with mpirun's.
        m_failure.note(text, m_output.agentFirstRanks.empty() || rank < 0 ? rank : agent);
        m_stderrTail.push_back(text);
        if (m_stderrTail.size() > kStderrTailLines) {
            m_stderrTail.pop_front();
        }
    }
    if (!journalBudgetAllows(text.size() + log->raw().size())) {
        return;
    }
    log->set_stream(stream == OutputStream::Stdout ? "stdout" : "stderr");
    log->set_text(text);
    if (rank >= 0) {
        log->set_rank(rank);
    }
    (void)append(std::move(ev));
}

void Job::onExit(ProcessExit exit) {
    m_stdout.finish();
    m_stderr.finish();
    if (m_rankLogs) {
        m_rankLogs->close();
    }
    finishTensorboard(); // the files' last scalars come before the final state
    v1::JobState stopState;
    std::string stopReason;
    {
        std::lock_guard lock(m_processMutex);
        stopState = m_stopState;
        stopReason = m_stopReason;
    }
    std::string how = exit.signal ? "killed by signal " + std::to_string(exit.signal)
                                  : "exit code " + std::to_string(exit.code);
    // Space may be back since the last try: journal what memory holds before the end state.
    const std::size_t kept = retryJournal(true);
    if (stopState != v1::JOB_STATE_UNSPECIFIED) {
        (void)appendState(stopState, stopReason + " (" + how + ")", exit.code);
    } else if (exit.code == 0 && kept > 0) {
        // Nothing is lost (every event was streamed), but the worker holds the only copy.
        (void)appendState(v1::JOB_STATE_SUCCEEDED,
                          m_output.workerName + " holds " + withThousands(kept) +
                              " of the job's events in memory only (disk full in " + m_dir +
                              "): they reach its journal once space is back; a restart of the "
                              "worker before then loses them there",
                          0);
    } else if (exit.code == 0) {
        (void)appendState(v1::JOB_STATE_SUCCEEDED, "", 0);
    } else {
        (void)appendState(v1::JOB_STATE_FAILED, m_failure.explain(how, m_stderrTail), exit.code);
    }
}

std::string Job::createTensorboardDir() const {
    if (m_output.tensorboardDir.empty()) {
        return {};
    }
    std::error_code ec;
    std::filesystem::create_directories(m_output.tensorboardDir, ec);
    if (ec) {
        return m_output.workerName + ": cannot create the TensorBoard folder " +
               m_output.tensorboardDir + " (" + ec.message() +
               "): event files the program writes elsewhere are not charted; name a writable "
               "folder in model.tensorboardDir";
    }
    return {};
}

void Job::startTensorboard(std::chrono::system_clock::time_point since,
                           const std::string& problem) {
    if (m_output.tensorboardDir.empty()) {
        return;
    }
    if (!problem.empty()) {
        appendNotice(problem);
    }
    TensorboardFollower::Options options;
    options.dir = m_output.tensorboardDir;
    options.since = since;
    options.rank = 0; // the worker of rank 0 follows the folder on its own node
    auto follower = std::make_unique<TensorboardFollower>(
        std::move(options),
        [this](v1::Metric metric) {
            v1::JobEvent ev;
            *ev.mutable_metric() = std::move(metric);
            (void)append(std::move(ev));
        },
        [this](const std::string& text) { appendNotice(text); });
    follower->start();
    std::lock_guard lock(m_tensorboardMutex);
    m_tensorboard = std::move(follower);
}

void Job::finishTensorboard() {
    std::unique_ptr<TensorboardFollower> follower;
    {
        std::lock_guard lock(m_tensorboardMutex);
        follower = std::move(m_tensorboard);
    }
    if (follower) {
        follower->finish();
    }
}

} // namespace tessera::daemon
