// The TensorBoard event files of a running job charted live: a thread that finds
// `events.out.tfevents.*` under the job's folder (TESSERA_TENSORBOARD_DIR or model.tensorboard_dir)
// every half second, reads what each file gained, and hands on one Metric per step.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/tensorboard/event_file_tail.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessera::daemon {

/// Follows the event files under one folder. The worker of rank 0 runs one per user-program
/// job, over the folder on its own node: event files on other nodes are not read, and every
/// point carries rank `Options::rank` (0).
class TensorboardFollower {
public:
    using MetricSink = std::function<void(v1::Metric)>;
    using NoticeSink = std::function<void(const std::string&)>;

    struct Options {
        std::string dir; ///< the folder; need not exist yet
        /// The job's start: a file last modified more than kStartSlack before it is another
        /// run's (a relative folder may lie in a code bundle that several jobs share) and is
        /// left alone until it is modified again.
        std::chrono::system_clock::time_point since;
        std::chrono::milliseconds interval{500}; ///< between two polls
        int rank = 0;                            ///< the rank the points carry
    };

    /// Slack for the start time: file-system time stamps are coarse and clocks step.
    static constexpr std::chrono::seconds kStartSlack{2};
    /// Folder levels searched below `dir` (logdir/run/sub/…/events.out.tfevents.*).
    static constexpr int kMaxDepth = 4;
    /// Directory entries looked at per search, and event files followed: past them, one
    /// notice and the rest is left out.
    static constexpr std::size_t kMaxEntries = 20000;
    static constexpr std::size_t kMaxFiles = 1000;
    /// Bytes read per poll over all files (a backlog is read over several polls).
    static constexpr std::uint64_t kMaxBytesPerPoll = std::uint64_t(64) << 20;
    /// Notices per job: a folder of broken files says a few things, not thousands.
    static constexpr std::size_t kMaxNotices = 64;

    /// `metrics` gets one Metric per step read in a poll (event_metrics.h); `notices` a line
    /// for a person per problem ("TensorBoard event file <path>: corrupt record at byte N (its
    /// CRC does not match): skipped"). Both are called from the follower's thread, or from the
    /// caller of pollOnce()/finish(), never at once, and must not call back into this object.
    TensorboardFollower(Options options, MetricSink metrics, NoticeSink notices);
    /// Stops the thread without reading further (finish() reads to the end first).
    ~TensorboardFollower();
    TensorboardFollower(const TensorboardFollower&) = delete;
    TensorboardFollower& operator=(const TensorboardFollower&) = delete;

    /// Starts polling every Options::interval on a thread of its own.
    void start();
    /// Stops the thread, then reads everything the files hold now (new files too) and says
    /// which end inside a record: after it returns, no sink is called again. Idempotent.
    void finish();
    /// One search and read, in the caller's thread: for tests, and only while not started.
    /// Returns the bytes read.
    std::uint64_t pollOnce();

private:
    void run();
    void stopThread();
    /// Adds the event files under `dir` (depth `depth`) not followed yet.
    void search(const std::string& dir, const std::string& folder, int depth, std::size_t& entries);
    void notice(const std::string& text);

    struct File {
        std::string folder; ///< relative to Options::dir, "" when directly in it
        std::unique_ptr<EventFileTail> tail;
    };

    const Options m_options;
    const MetricSink m_metrics;
    const NoticeSink m_notices;

    std::mutex m_mutex; // m_stop
    std::condition_variable m_cv;
    bool m_stop = false;
    std::thread m_thread;
    bool m_finished = false;

    // The follower's state: touched by one thread at a time (the follower's, then finish()'s).
    std::map<std::string, File> m_files; ///< by path
    std::vector<std::string> m_order;    ///< paths in the order found
    std::size_t m_noticesGiven = 0;
    bool m_limitNoted = false;
};

} // namespace tessera::daemon
