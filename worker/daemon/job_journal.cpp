// Job journal: delimited JobEvent records appended with one write() each, read back tolerantly.
#include "worker/daemon/job_journal.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {
std::string osError(const std::string& what, const std::string& path) {
    return what + " journal '" + path + "': " + std::strerror(errno);
}
} // namespace

JobJournal::JobJournal(JobJournal&& other) noexcept
    : m_fd(other.m_fd), m_path(std::move(other.m_path)) {
    other.m_fd = -1;
}

JobJournal& JobJournal::operator=(JobJournal&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = other.m_fd;
        m_path = std::move(other.m_path);
        other.m_fd = -1;
    }
    return *this;
}

JobJournal::~JobJournal() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

Result<JournalContents> JobJournal::read(const std::string& path) {
    JournalContents out;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (errno == ENOENT) {
            return out;
        }
        return fail(ErrorCode::Io, osError("cannot read", path));
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    google::protobuf::io::ArrayInputStream stream(data.data(), static_cast<int>(data.size()));
    while (true) {
        v1::JobEvent ev;
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&ev, &stream, nullptr)) {
            break;
        }
        out.validBytes = static_cast<size_t>(stream.ByteCount());
        out.events.push_back(std::move(ev));
    }
    // Anything after the last intact record is a torn (or corrupt) tail.
    out.tornTail = out.validBytes < data.size();
    return out;
}

Result<JobJournal> JobJournal::open(const std::string& path) {
    auto contents = read(path);
    if (!contents) {
        return relay(contents);
    }
    JobJournal j;
    j.m_path = path;
    j.m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (j.m_fd < 0) {
        return fail(ErrorCode::Io, osError("cannot open", path));
    }
    if (contents->tornTail && ::ftruncate(j.m_fd, static_cast<off_t>(contents->validBytes)) != 0) {
        return fail(ErrorCode::Io, osError("cannot cut the torn tail of", path));
    }
    return j;
}

Result<void> JobJournal::append(const v1::JobEvent& event, bool sync) {
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
            return fail(ErrorCode::Io, osError("cannot append to", m_path));
        }
        done += static_cast<size_t>(n);
    }
    if (sync && ::fdatasync(m_fd) != 0) {
        return fail(ErrorCode::Io, osError("cannot sync", m_path));
    }
    return {};
}

} // namespace tessera::daemon
