// TensorboardFollower: search (bounded), read (bounded), merge per step, notices (bounded).
#include "worker/daemon/tensorboard/tensorboard_follower.h"

#include "worker/daemon/tensorboard/event_metrics.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <string_view>

namespace tessera::daemon {

namespace {

constexpr std::string_view kPrefix = "events.out.tfevents.";
/// Rounds of reading at the end: enough for kMaxBytesPerPoll × rounds of backlog.
constexpr int kFinishRounds = 64;

std::chrono::system_clock::time_point modified(const struct stat& st) {
    using namespace std::chrono;
    return system_clock::time_point(duration_cast<system_clock::duration>(
        seconds(st.st_mtim.tv_sec) + nanoseconds(st.st_mtim.tv_nsec)));
}

} // namespace

TensorboardFollower::TensorboardFollower(Options options, MetricSink metrics, NoticeSink notices)
    : m_options(std::move(options)), m_metrics(std::move(metrics)), m_notices(std::move(notices)) {}

TensorboardFollower::~TensorboardFollower() {
    stopThread();
}

void TensorboardFollower::start() {
    m_thread = std::thread([this] { run(); });
}

void TensorboardFollower::stopThread() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void TensorboardFollower::run() {
    std::unique_lock lock(m_mutex);
    while (!m_cv.wait_for(lock, m_options.interval, [this] { return m_stop; })) {
        lock.unlock();
        pollOnce();
        lock.lock();
    }
}

void TensorboardFollower::finish() {
    stopThread();
    if (m_finished) {
        return;
    }
    m_finished = true;
    for (int round = 0; round < kFinishRounds && pollOnce() > 0; ++round) {
    }
    for (const std::string& path : m_order) {
        if (auto cut = m_files[path].tail->unfinished()) {
            notice("TensorBoard event file " + *cut);
        }
    }
}

void TensorboardFollower::notice(const std::string& text) {
    if (m_noticesGiven < kMaxNotices) {
        m_notices(text);
    } else if (m_noticesGiven == kMaxNotices) {
        m_notices("more problems with the TensorBoard event files in " + m_options.dir +
                  ": not reported");
    }
    ++m_noticesGiven;
}

void TensorboardFollower::search(const std::string& dir, const std::string& folder, int depth,
                                 std::size_t& entries) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
        return; // not there yet, or gone: the next search looks again
    }
    std::vector<std::pair<std::string, std::string>> subfolders;
    std::vector<std::string> found;
    while (const dirent* e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        if (name == "." || name == "..") {
            continue;
        }
        if (++entries > kMaxEntries) {
            break;
        }
        const std::string path = dir + "/" += name;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) { // links are not followed: no loops, no escapes
            continue;
        }
        const std::string rel = folder.empty() ? std::string(name) : folder + "/" += name;
        if (S_ISDIR(st.st_mode)) {
            if (depth < kMaxDepth) {
                subfolders.emplace_back(path, rel);
            }
            continue;
        }
        if (S_ISREG(st.st_mode) && name.substr(0, kPrefix.size()) == kPrefix &&
            !m_files.count(path) && modified(st) >= m_options.since - kStartSlack) {
            found.push_back(path);
        }
    }
    ::closedir(d);
    std::sort(found.begin(), found.end()); // readdir's order is the file system's
    for (const std::string& path : found) {
        if (m_files.size() >= kMaxFiles) {
            entries = kMaxEntries + 1;
            return;
        }
        m_files[path] = File{folder, std::make_unique<EventFileTail>(path)};
        m_order.push_back(path);
    }
    std::sort(subfolders.begin(), subfolders.end());
    for (const auto& [path, rel] : subfolders) {
        if (entries > kMaxEntries) {
            break;
        }
        search(path, rel, depth + 1, entries);
    }
}

std::uint64_t TensorboardFollower::pollOnce() {
    std::size_t entries = 0;
    search(m_options.dir, "", 0, entries);
    if (entries > kMaxEntries && !m_limitNoted) {
        m_limitNoted = true;
        notice("TensorBoard folder " + m_options.dir + " holds more than " +
               std::to_string(kMaxEntries) + " entries or " + std::to_string(kMaxFiles) +
               " event files: only the first are charted");
    }
    std::uint64_t read = 0;
    std::vector<EventScalar> scalars;
    for (const std::string& path : m_order) {
        File& f = m_files[path];
        if (f.tail->done() || read >= kMaxBytesPerPoll) {
            continue;
        }
        EventStream::Output out;
        read += f.tail->poll(out, kMaxBytesPerPoll - read);
        for (const std::string& p : out.problems) {
            notice("TensorBoard event file " + p);
        }
        for (EventScalar& s : out.scalars) {
            s.tag = tensorboardMetricName(f.folder, s.tag);
            scalars.push_back(std::move(s));
        }
    }
    for (v1::Metric& m : scalarMetrics(scalars, m_options.rank)) {
        m_metrics(std::move(m));
    }
    return read;
}

} // namespace tessera::daemon
