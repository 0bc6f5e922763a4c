// A job's events: all of them on disk in its journal, the newest also in memory for live
// watchers, and a sparse index of journal offsets, so the worker's memory does not grow with
// the jobs it has run (the journal is the store, memory only a cache of its end).
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"
#include "worker/daemon/journal/job_journal.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace tessera::daemon {

/// Sequenced events of one job over its journal. Not thread-safe (Job locks around it), except
/// that a DiskRead taken from plan() may be carried out outside that lock.
///
/// A journal that cannot be written (a full disk, issue 45) loses nothing: the events it refused
/// and every later one are kept in memory in order ("unjournaled"), served to readers from there,
/// and written out, oldest first, as soon as an append or retry() finds the journal writable
/// again (tried at most once per kRetryEvery). Their bytes are bounded by a limit the owner sets;
/// past it append() says so (the job is then stopped) but still keeps what comes.
class EventLog {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kRetryEvery{1000}; ///< journal retries, at most
    static constexpr std::size_t kDefaultUnjournaledBytes = std::size_t(256) << 20;

    /// What an append (or retry) did to the journal.
    struct Journaled {
        bool onDisk = true;      ///< the event is in the journal (after any kept before it)
        bool justFailed = false; ///< the journal refused a write after it last took one
        uint64_t caughtUp = 0;   ///< events kept in memory that this call wrote out, all of them
        bool overLimit = false;  ///< the kept events now hold more than the limit
        std::string error;       ///< the journal's error when !onDisk
    };

    static constexpr std::size_t kTailEvents = 1024;   ///< newest events kept in memory, at most
    static constexpr std::size_t kTailBytes = 1 << 20; ///< and about this many bytes of them
    static constexpr uint64_t kIndexEvery = 64;        ///< a journal offset every this many records
    static constexpr std::size_t kReadBytes = 1 << 20; ///< a disk read returns about this much

    /// Opens (or creates) the journal at `path` and scans it once: last seq, last state, the
    /// index and the newest events. Errors: Io naming the file.
    static Result<EventLog> open(const std::string& path);

    /// Appends `event`, whose seq the caller set to lastSeq() + 1: journaled (fdatasync()ed when
    /// `sync`) after any events still kept in memory, then kept in the in-memory tail. When the
    /// journal cannot be written the event is kept as unjournaled (readers still get it).
    Journaled append(v1::JobEvent event, bool sync, Clock::time_point now = Clock::now());
    /// Writes out the unjournaled events if the journal takes them now (and kRetryEvery has
    /// passed since the last try, unless `force`). Journaled::caughtUp counts them.
    Journaled retry(Clock::time_point now = Clock::now(), bool force = false);

    /// Bytes of unjournaled events beyond which append() reports overLimit (0 = no limit).
    void setUnjournaledLimit(std::size_t bytes) { m_unjournaledLimit = bytes; }
    std::size_t unjournaledLimit() const { return m_unjournaledLimit; }
    /// Events kept only in memory now, and their bytes.
    std::size_t unjournaledEvents() const { return m_unjournaled.size(); }
    std::size_t unjournaledBytes() const { return m_unjournaledBytes; }
    /// The journal's file.
    const std::string& path() const { return m_journal.path(); }

    uint64_t lastSeq() const { return m_lastSeq; }
    /// The newest StateChange, if any.
    const std::optional<v1::StateChange>& lastState() const { return m_lastState; }
    /// What open() found in the journal (torn tail, skipped records).
    const JournalScan& opened() const { return m_journal.opened(); }
    /// Events held in memory now.
    std::size_t memoryEvents() const { return m_tail.size(); }
    /// Seq of the oldest event in memory, 0 when none.
    uint64_t firstInMemory() const { return m_tail.empty() ? 0 : m_tail.front().seq(); }

    /// Frees the in-memory tail (the job has ended; readers go to the journal). Unjournaled
    /// events stay: memory is their only copy until retry() writes them.
    void dropTail();

    /// Part of the journal to read for events from a seq on, outside any lock.
    struct DiskRead {
        std::string path;
        uint64_t offset = 0; ///< a record's start at or before the wanted seq
        uint64_t end = 0;    ///< the journal's length of whole records when planned
    };
    /// Up to `max` events with seq ≥ `fromSeq`: from memory when it has them (the tail or the
    /// unjournaled events; into `out`, returns nullopt), else what to read from the journal.
    std::optional<DiskRead> plan(uint64_t fromSeq, std::size_t max,
                                 std::vector<v1::JobEvent>& out) const;
    /// Carries out a DiskRead. Errors: Io naming the journal.
    static Result<std::vector<v1::JobEvent>> read(const DiskRead& disk, uint64_t fromSeq,
                                                  std::size_t max);

private:
    void keep(v1::JobEvent event);
    void index(uint64_t seq, uint64_t offset);
    /// Writes unjournaled events oldest first until one fails; true when none is left.
    bool writeUnjournaled(std::string& error);

    JobJournal m_journal;
    uint64_t m_lastSeq = 0;
    uint64_t m_records = 0; ///< records on disk
    std::optional<v1::StateChange> m_lastState;
    std::deque<v1::JobEvent> m_tail; ///< newest events, seqs ascending
    std::size_t m_tailBytes = 0;
    std::vector<std::pair<uint64_t, uint64_t>> m_index; ///< (seq, offset), ascending
    std::deque<v1::JobEvent> m_unjournaled;             ///< not in the journal yet, seqs ascending
    std::size_t m_unjournaledBytes = 0;
    std::size_t m_unjournaledLimit = kDefaultUnjournaledBytes;
    Clock::time_point m_lastTry{};
};

} // namespace tessera::daemon
