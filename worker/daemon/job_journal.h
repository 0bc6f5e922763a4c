// Append-only journal of a job's events: length-delimited tessera.v1.JobEvent records
// (protobuf's delimited format). A torn last record, left by a crash mid-write, is ignored.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <string>
#include <vector>

namespace tessera::daemon {

/// Events read back from a journal and the byte length of its intact prefix.
struct JournalContents {
    std::vector<v1::JobEvent> events;
    size_t validBytes = 0; ///< bytes up to the end of the last intact record
    bool tornTail = false; ///< true when bytes after the last intact record were dropped
};

/// One job's journal file, open for appending. Not thread-safe: the job serialises appends.
class JobJournal {
public:
    JobJournal() = default;
    JobJournal(const JobJournal&) = delete;
    JobJournal& operator=(const JobJournal&) = delete;
    JobJournal(JobJournal&& other) noexcept;
    JobJournal& operator=(JobJournal&& other) noexcept;
    ~JobJournal();

    /// Reads every intact record of `path`. A missing file is an empty journal.
    /// Errors: Io when the file exists but cannot be read.
    static Result<JournalContents> read(const std::string& path);

    /// Opens `path` for appending (created with mode 0600 if missing). A torn tail is cut off
    /// first so that new records follow the last intact one. Errors: Io naming the file.
    static Result<JobJournal> open(const std::string& path);

    /// Appends one record with a single write(); `sync` also fdatasync()s (use for state changes).
    /// Errors: Io naming the file.
    Result<void> append(const v1::JobEvent& event, bool sync);

    const std::string& path() const { return m_path; }

private:
    int m_fd = -1;
    std::string m_path;
};

} // namespace tessera::daemon
