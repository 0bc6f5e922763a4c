// One job on this worker: its event log (journal, newest events in memory), listeners, and its
// process tree.
// Events get seq 1, 2, 3, … and are journaled before listeners hear of them.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"
#include "worker/daemon/jobs/process.h"
#include "worker/daemon/journal/event_log.h"
#include "worker/daemon/output/launch_failure.h"
#include "worker/daemon/output/plain_metrics.h"
#include "worker/daemon/output/rank_logs.h"
#include "worker/daemon/output/tagged_output.h"
#include "worker/daemon/tensorboard/tensorboard_follower.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tessera::daemon {

/// A job's events and process. Thread-safe.
class Job : public std::enable_shared_from_this<Job> {
public:
    /// Called (without arguments) after each appended event; must not block.
    using Listener = std::function<void()>;

    /// What a watcher sees from one sequence number on: the next events that exist yet, whether
    /// the job has ended, and the last sequence number so far.
    struct Batch {
        std::vector<v1::JobEvent> events;
        bool finished = false;
        uint64_t lastSeq = 0;
    };

    /// A job over its event log (new, or recovered from its journal after a restart).
    Job(std::string id, std::string dir, EventLog log);

    const std::string& id() const { return m_id; }
    const std::string& dir() const { return m_dir; }

    /// Stamps `event` with the next seq, the time and the job id, journals it, then tells the
    /// listeners. Refused (InvalidArgument) after the terminal state. When the journal cannot be
    /// written (a full disk) the event is kept in memory and streamed all the same (EventLog);
    /// the job then says so in a "worker" log line ("worker-1: disk full in …: N events kept in
    /// memory, free space to keep them"), says again when they reach the disk, and is stopped
    /// (FAILED, with that reason) once they pass OutputOptions::unjournaledBytes.
    Result<uint64_t> append(v1::JobEvent event);
    /// Writes the events kept in memory to the journal if it takes them now (called every few
    /// seconds by the JobManager, so an ended job's events reach the disk once space is back).
    /// Returns how many are still kept in memory. `force`: try now, not at most once a second.
    std::size_t retryJournal(bool force = false);
    /// Shorthand: append a StateChange.
    Result<uint64_t> appendState(v1::JobState state, const std::string& reason, int exitCode = 0);

    /// Up to `max` events with seq ≥ `fromSeq` (1-based), read from memory or the journal, with
    /// the finished flag and last seq as they were when the read was planned. A journal that
    /// cannot be read gives no events (logged).
    Batch read(uint64_t fromSeq, std::size_t max) const;
    /// Events of this job held in memory now (bounded, see EventLog).
    std::size_t memoryEvents() const;
    /// The latest state recorded (UNSPECIFIED before the first StateChange).
    v1::JobState state() const;
    bool finished() const;

    /// Adds a listener; returns its id for unsubscribe().
    int subscribe(Listener listener);
    /// Removes a listener; once this returns, it is not running and will not be called.
    void unsubscribe(int id);

    /// Where a job's output goes besides its events; set before run().
    struct OutputOptions {
        /// Each rank's lines in <job dir>/logs (RankLogs).
        RankLogs::Limits rankLogs;
        /// Bytes of log-line text journaled per job; past it, further lines are kept only in
        /// the rank logs (the newest of them) and one "worker" line says so. Metrics and
        /// states are always journaled. 0 = no limit.
        std::int64_t journalLogBytes = std::int64_t(64) << 20;
        /// This worker's name, for the job's own notices ("worker-1: disk full in …").
        std::string workerName = "worker";
        /// Bytes of events kept in memory while the journal cannot be written; past them the
        /// job is stopped rather than lose anything (0 = no limit).
        std::size_t unjournaledBytes = EventLog::kDefaultUnjournaledBytes;
        /// torchrun launcher: the first global rank of each node agent (mpirun rank) in order;
        /// an agent's line "[default<L>]:text" is then rank first + L's "text", its other lines
        /// the launcher's. Empty: mpirun's rank is the line's rank.
        std::vector<int> agentFirstRanks;
        /// Which plain stdout/stderr lines become metrics besides `@tessera` records (a user
        /// program's model.metrics; the built-in trainer prints records only).
        MetricSource metrics{MetricSource::Kind::None};
        /// The folder whose TensorBoard event files are charted (TESSERA_TENSORBOARD_DIR on
        /// this, rank 0's, node; TensorboardFollower): created before the process starts,
        /// followed while it runs, read to the end before the final state. Points carry rank
        /// 0. Empty: none (the built-in trainer).
        std::string tensorboardDir;
    };
    void setOutputOptions(OutputOptions options);

    /// Starts the job's process tree and routes its output into events: `@tessera` stdout lines
    /// become Metric events, other lines LogLine events (with the rank that printed them when
    /// the output is mpirun's --tag-output, see tagged_output.h); the exit becomes the terminal
    /// state.
    /// RUNNING (with `runningReason`) is recorded before any output event.
    /// Errors: as Process::start (a FAILED state is then recorded).
    Result<void> run(const SpawnOptions& opts, const std::string& runningReason);
    /// Asks the process group to stop (TERM, KILL after `grace`); the job ends CANCELLED.
    /// Returns the state the job will end in (the recorded one when it has already ended).
    v1::JobState cancel(std::chrono::milliseconds grace);
    /// Like cancel(), but the job ends FAILED with `reason` (used when the daemon stops).
    void abort(const std::string& reason, std::chrono::milliseconds grace);
    /// Process-group id of the running process tree, 0 when none.
    pid_t processGroup() const;

private:
    void waitUntilRunning();
    void onOutput(OutputStream stream, std::string_view chunk);
    void onLine(OutputStream stream, int agent, const std::string& received);
    /// The rank that printed an agent's line and the line without torchrun's prefix.
    int attributeAgentLine(int agent, std::string_view& line) const;
    /// Records the metrics of a plain output line (PlainMetrics) and its notices; `cutBefore` /
    /// `cutAfter`: the line is a piece of a longer one, cut there.
    void takePlainMetrics(int rank, std::string_view line, bool cutBefore, bool cutAfter);
    /// Whether a log line of `bytes` may still be journaled (OutputOptions::journalLogBytes).
    bool journalBudgetAllows(std::size_t bytes);
    void onExit(ProcessExit exit);
    /// Creates OutputOptions::tensorboardDir (mkdir -p); the problem in words, or "".
    std::string createTensorboardDir() const;
    /// Starts following the event files modified since `since` (and says `problem` first).
    void startTensorboard(std::chrono::system_clock::time_point since, const std::string& problem);
    /// Stops following them after reading what they hold (before the final state).
    void finishTensorboard();
    /// The job's notices about its journal after an append or retry that did `what`.
    void noteJournal(const EventLog::Journaled& what);
    /// "worker-1: disk full in /var/…/jobs/J (No space left on device)".
    std::string diskFullText(const std::string& error) const;
    /// Appends a "worker" log line.
    void appendNotice(const std::string& text);

    const std::string m_id;
    const std::string m_dir;

    mutable std::mutex m_eventsMutex; // m_log, m_finished, m_state
    EventLog m_log;
    bool m_finished = false;
    v1::JobState m_state = v1::JOB_STATE_UNSPECIFIED;

    std::mutex m_listenersMutex;
    std::map<int, Listener> m_listeners;
    int m_nextListener = 1;

    mutable std::mutex m_processMutex; // m_process, m_stopState, m_stopReason
    std::shared_ptr<Process> m_process;
    v1::JobState m_stopState = v1::JOB_STATE_UNSPECIFIED;
    std::string m_stopReason;

    std::mutex m_runningMutex;
    std::condition_variable m_runningCv;
    bool m_runningRecorded = false;

    /// Longer output lines are passed on in pieces of this size: an event stays far below gRPC's
    /// 4 MiB message limit even when every byte is escaped (4×) and kept raw (1×).
    static constexpr std::size_t kMaxLineBytes = 64 * 1024;

    // Touched only from the process's reader thread.
    TaggedOutput m_stdout{"stdout", kMaxLineBytes, [this](int rank, const std::string& line) {
                              onLine(OutputStream::Stdout, rank, line);
                          }};
    TaggedOutput m_stderr{"stderr", kMaxLineBytes, [this](int rank, const std::string& line) {
                              onLine(OutputStream::Stderr, rank, line);
                          }};
    OutputOptions m_output;
    std::unique_ptr<RankLogs> m_rankLogs;
    std::unique_ptr<PlainMetrics> m_plainMetrics; ///< from setOutputOptions(); reader thread only
    std::map<std::pair<int, int>, bool> m_pieceOpen; ///< (stream, rank) → last line was a piece
    std::int64_t m_journaledLogBytes = 0;
    std::atomic<bool> m_diskFullNoted{false}; ///< a disk-full notice is out, no "back" one yet
    std::atomic<bool> m_stoppedForMemory{false};
    bool m_journalBudgetNoted = false;
    std::deque<std::string> m_stderrTail;
    LaunchFailure m_failure; ///< the stderr lines that explain a failed launch

    // Last: destroyed first, so that its thread stops before what it appends to goes.
    std::mutex m_tensorboardMutex;
    std::unique_ptr<TensorboardFollower> m_tensorboard;
};

} // namespace tessera::daemon
