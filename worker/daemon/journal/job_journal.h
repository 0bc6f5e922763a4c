// Append-only journal of a job's events: length-delimited tessera.v1.JobEvent records
// (protobuf's delimited format). A torn last record, left by a crash mid-write, is ignored and
// cut; a whole record that cannot be decoded is skipped, never cut. Read in bounded pieces, so a
// journal of any size costs the reader only its buffer.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera::daemon {

/// What a pass over a journal found.
struct JournalScan {
    uint64_t records = 0;    ///< intact records read
    uint64_t skipped = 0;    ///< whole records that could not be decoded (and were skipped)
    uint64_t validBytes = 0; ///< bytes up to the end of the last whole record
    bool tornTail = false;   ///< true when bytes after the last whole record were dropped
};

/// Events read back from a journal and the byte length of its intact prefix.
struct JournalContents {
    std::vector<v1::JobEvent> events;
    size_t validBytes = 0; ///< bytes up to the end of the last whole record
    bool tornTail = false; ///< true when bytes after the last whole record were dropped
    uint64_t skipped = 0;  ///< whole records that could not be decoded
};

/// One job's journal file, open for appending. Not thread-safe: the job serialises appends;
/// the static readers may run beside an append (they read only up to a length they are given).
class JobJournal {
public:
    /// Receives each intact record and the byte offset where it starts.
    using RecordSink = std::function<void(v1::JobEvent&& event, uint64_t offset)>;

    JobJournal() = default;
    JobJournal(const JobJournal&) = delete;
    JobJournal& operator=(const JobJournal&) = delete;
    JobJournal(JobJournal&& other) noexcept;
    JobJournal& operator=(JobJournal&& other) noexcept;
    ~JobJournal();

    /// Reads every intact record of `path` into memory (tests and tools; the worker scans).
    /// A missing file is an empty journal. Errors: Io when the file exists but cannot be read.
    static Result<JournalContents> read(const std::string& path);

    /// Passes every intact record of `path`, in order, to `sink`. Errors: Io as read().
    static Result<JournalScan> scan(const std::string& path, const RecordSink& sink);

    /// Up to `maxEvents` records (and about `maxBytes`, at least one record) with seq ≥ `fromSeq`,
    /// read from byte `offset` (a record's start) up to byte `end`. Errors: Io naming the file.
    static Result<std::vector<v1::JobEvent>> readFrom(const std::string& path, uint64_t offset,
                                                      uint64_t end, uint64_t fromSeq,
                                                      std::size_t maxEvents, std::size_t maxBytes);

    /// Opens `path` for appending (created with mode 0600 if missing), passing the records
    /// already there to `sink` (may be empty). A torn tail is cut off first so that new records
    /// follow the last whole one. Errors: Io naming the file.
    static Result<JobJournal> open(const std::string& path, const RecordSink& sink = {});

    /// Appends one record with a single write(); `sync` also fdatasync()s (use for state
    /// changes). Returns the byte offset where the record starts. Errors: Io naming the file
    /// (nothing of the record is then counted in size()).
    Result<uint64_t> append(const v1::JobEvent& event, bool sync);

    /// fdatasync()s the file. Errors: Io naming the file.
    Result<void> sync();

    const std::string& path() const { return m_path; }
    /// Bytes of whole records in the file.
    uint64_t size() const { return m_size; }
    /// What open() found in the file.
    const JournalScan& opened() const { return m_opened; }

private:
    int m_fd = -1;
    std::string m_path;
    uint64_t m_size = 0;
    JournalScan m_opened;
};

} // namespace tessera::daemon
