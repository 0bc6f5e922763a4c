// A job's events: all of them on disk in its journal, the newest also in memory for live
// watchers, and a sparse index of journal offsets, so the worker's memory does not grow with
// the jobs it has run (the journal is the store, memory only a cache of its end).
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"
#include "worker/daemon/journal/job_journal.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace tessera::daemon {

/// Sequenced events of one job over its journal. Not thread-safe (Job locks around it), except
/// that a DiskRead taken from plan() may be carried out outside that lock.
class EventLog {
public:
    static constexpr std::size_t kTailEvents = 1024;   ///< newest events kept in memory, at most
    static constexpr std::size_t kTailBytes = 1 << 20; ///< and about this many bytes of them
    static constexpr uint64_t kIndexEvery = 64;        ///< a journal offset every this many records
    static constexpr std::size_t kReadBytes = 1 << 20; ///< a disk read returns about this much

    /// Opens (or creates) the journal at `path` and scans it once: last seq, last state, the
    /// index and the newest events. Errors: Io naming the file.
    static Result<EventLog> open(const std::string& path);

    /// Appends `event`, whose seq the caller set to lastSeq() + 1: journaled (fdatasync()ed when
    /// `sync`), then kept in memory. When the journal cannot be written the event is still kept
    /// in memory (live watchers see it) and the error is returned.
    Result<void> append(v1::JobEvent event, bool sync);

    uint64_t lastSeq() const { return m_lastSeq; }
    /// The newest StateChange, if any.
    const std::optional<v1::StateChange>& lastState() const { return m_lastState; }
    /// What open() found in the journal (torn tail, skipped records).
    const JournalScan& opened() const { return m_journal.opened(); }
    /// Events held in memory now.
    std::size_t memoryEvents() const { return m_tail.size(); }
    /// Seq of the oldest event in memory, 0 when none.
    uint64_t firstInMemory() const { return m_tail.empty() ? 0 : m_tail.front().seq(); }

    /// Frees the in-memory events (the job has ended; readers go to the journal). Kept when an
    /// event could not be journaled, since memory is then its only copy.
    void dropTail();

    /// Part of the journal to read for events from a seq on, outside any lock.
    struct DiskRead {
        std::string path;
        uint64_t offset = 0; ///< a record's start at or before the wanted seq
        uint64_t end = 0;    ///< the journal's length of whole records when planned
    };
    /// Up to `max` events with seq ≥ `fromSeq`: from memory when it has them (into `out`,
    /// returns nullopt), else what to read from the journal.
    std::optional<DiskRead> plan(uint64_t fromSeq, std::size_t max,
                                 std::vector<v1::JobEvent>& out) const;
    /// Carries out a DiskRead. Errors: Io naming the journal.
    static Result<std::vector<v1::JobEvent>> read(const DiskRead& disk, uint64_t fromSeq,
                                                  std::size_t max);

private:
    void keep(v1::JobEvent event);
    void index(uint64_t seq, uint64_t offset);

    JobJournal m_journal;
    uint64_t m_lastSeq = 0;
    uint64_t m_records = 0; ///< records on disk
    std::optional<v1::StateChange> m_lastState;
    std::deque<v1::JobEvent> m_tail; ///< newest events, seqs ascending
    std::size_t m_tailBytes = 0;
    std::vector<std::pair<uint64_t, uint64_t>> m_index; ///< (seq, offset), ascending
    bool m_unjournaled = false;                         ///< some event is only in memory
};

} // namespace tessera::daemon
