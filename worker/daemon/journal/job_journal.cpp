// Job journal: delimited JobEvent records appended with one write() each, read back in bounded
// pieces (journal_reader.h) and tolerantly.
#include "worker/daemon/journal/job_journal.h"

#include "worker/daemon/journal/journal_reader.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

std::string osError(const std::string& what, const std::string& path) {
    return what + " journal '" + path + "': " + std::strerror(errno);
}

/// Closes a descriptor when it goes out of scope.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

/// Scans the open file `fd` (of `path`) from its start to its current size.
Result<JournalScan> scanFd(int fd, const std::string& path, const JobJournal::RecordSink& sink) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        return fail(ErrorCode::Io, osError("cannot stat", path));
    }
    JournalScan scan;
    JournalReader reader(fd, 0, static_cast<uint64_t>(st.st_size));
    while (true) {
        v1::JobEvent ev;
        const uint64_t at = reader.position();
        const JournalReader::Step step = reader.next(ev);
        if (step == JournalReader::Step::Record) {
            ++scan.records;
            if (sink) {
                sink(std::move(ev), at);
            }
        } else if (step == JournalReader::Step::Unreadable) {
            ++scan.skipped; // a whole record of another version, or damaged: later ones are kept
        } else if (step == JournalReader::Step::IoError) {
            return fail(ErrorCode::Io, osError("cannot read", path));
        } else {
            scan.tornTail = step == JournalReader::Step::Torn;
            break;
        }
        scan.validBytes = reader.position();
    }
    return scan;
}

} // namespace

JobJournal::JobJournal(JobJournal&& other) noexcept
    : m_fd(other.m_fd), m_path(std::move(other.m_path)), m_size(other.m_size),
      m_opened(other.m_opened) {
    other.m_fd = -1;
}

JobJournal& JobJournal::operator=(JobJournal&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = other.m_fd;
        m_path = std::move(other.m_path);
        m_size = other.m_size;
        m_opened = other.m_opened;
        other.m_fd = -1;
    }
    return *this;
}

JobJournal::~JobJournal() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

Result<JournalScan> JobJournal::scan(const std::string& path, const RecordSink& sink) {
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) {
        if (errno == ENOENT) {
            return JournalScan{};
        }
        return fail(ErrorCode::Io, osError("cannot read", path));
    }
    return scanFd(f.fd, path, sink);
}

Result<JournalContents> JobJournal::read(const std::string& path) {
    JournalContents out;
    auto s = scan(path, [&](v1::JobEvent&& ev, uint64_t) { out.events.push_back(std::move(ev)); });
    if (!s) {
        return relay(s);
    }
    out.validBytes = s->validBytes;
    out.tornTail = s->tornTail;
    out.skipped = s->skipped;
    return out;
}

Result<std::vector<v1::JobEvent>> JobJournal::readFrom(const std::string& path, uint64_t offset,
                                                       uint64_t end, uint64_t fromSeq,
                                                       std::size_t maxEvents,
                                                       std::size_t maxBytes) {
    std::vector<v1::JobEvent> out;
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) {
        return fail(ErrorCode::Io, osError("cannot read", path));
    }
    JournalReader reader(f.fd, offset, end);
    std::size_t bytes = 0;
    while (out.size() < maxEvents && (out.empty() || bytes < maxBytes)) {
        v1::JobEvent ev;
        const JournalReader::Step step = reader.next(ev);
        if (step == JournalReader::Step::IoError) {
            return fail(ErrorCode::Io, osError("cannot read", path));
        }
        if (step == JournalReader::Step::Unreadable) {
            continue;
        }
        if (step != JournalReader::Step::Record) {
            break;
        }
        if (ev.seq() >= fromSeq) {
            bytes += ev.ByteSizeLong();
            out.push_back(std::move(ev));
        }
    }
    return out;
}

Result<JobJournal> JobJournal::open(const std::string& path, const RecordSink& sink) {
    JobJournal j;
    j.m_path = path;
    j.m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (j.m_fd < 0) {
        return fail(ErrorCode::Io, osError("cannot open", path));
    }
    auto scanned = scanFd(j.m_fd, path, sink);
    if (!scanned) {
        return relay(scanned);
    }
    j.m_opened = *scanned;
    j.m_size = scanned->validBytes;
    if (scanned->tornTail && ::ftruncate(j.m_fd, static_cast<off_t>(j.m_size)) != 0) {
        return fail(ErrorCode::Io, osError("cannot cut the torn tail of", path));
    }
    return j;
}

Result<uint64_t> JobJournal::append(const v1::JobEvent& event, bool sync) {
    if (m_fd < 0) {
        return fail(ErrorCode::Internal, "journal '" + m_path + "' is not open");
    }
    std::string buf;
    {
        google::protobuf::io::StringOutputStream out(&buf);
        if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(event, &out)) {
            return fail(ErrorCode::Internal, "cannot serialise an event for '" + m_path + "'");
        }
    }
    size_t done = 0;
    while (done < buf.size()) {
        const ssize_t n = ::write(m_fd, buf.data() + done, buf.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int saved = errno;
            // Cut a partial record so the next one starts where readers expect a record.
            if (done > 0) {
                (void)::ftruncate(m_fd, static_cast<off_t>(m_size));
            }
            errno = saved;
            return fail(ErrorCode::Io, osError("cannot append to", m_path));
        }
        done += static_cast<size_t>(n);
    }
    const uint64_t at = m_size;
    m_size += buf.size();
    if (sync && ::fdatasync(m_fd) != 0) {
        return fail(ErrorCode::Io, osError("cannot sync", m_path));
    }
    return at;
}

Result<void> JobJournal::sync() {
    if (m_fd < 0 || ::fdatasync(m_fd) != 0) {
        return fail(ErrorCode::Io, osError("cannot sync", m_path));
    }
    return {};
}

} // namespace tessera::daemon
