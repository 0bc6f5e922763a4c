// EventLog: journal as the store, a bounded tail in memory, a sparse offset index.
#include "worker/daemon/journal/event_log.h"

#include <algorithm>

namespace tessera::daemon {

Result<EventLog> EventLog::open(const std::string& path) {
    EventLog log;
    auto journal = JobJournal::open(path, [&log](v1::JobEvent&& ev, uint64_t offset) {
        log.index(ev.seq(), offset);
        log.m_lastSeq = std::max(log.m_lastSeq, ev.seq());
        if (ev.has_state()) {
            log.m_lastState = ev.state();
        }
        log.keep(std::move(ev));
    });
    if (!journal) {
        return relay(journal);
    }
    log.m_journal = std::move(*journal);
    return log;
}

void EventLog::index(uint64_t seq, uint64_t offset) {
    if (m_records++ % kIndexEvery == 0) {
        m_index.emplace_back(seq, offset);
    }
}

void EventLog::keep(v1::JobEvent event) {
    m_tailBytes += event.ByteSizeLong();
    m_tail.push_back(std::move(event));
    while (m_tail.size() > 1 && (m_tail.size() > kTailEvents || m_tailBytes > kTailBytes)) {
        m_tailBytes -= m_tail.front().ByteSizeLong();
        m_tail.pop_front();
    }
}

Result<void> EventLog::append(v1::JobEvent event, bool sync) {
    auto offset = m_journal.append(event, sync);
    if (offset) {
        index(event.seq(), *offset);
    } else {
        m_unjournaled = true;
    }
    m_lastSeq = event.seq();
    if (event.has_state()) {
        m_lastState = event.state();
    }
    keep(std::move(event));
    if (!offset) {
        return relay(offset);
    }
    return {};
}

void EventLog::dropTail() {
    if (!m_unjournaled) {
        m_tail.clear();
        m_tail.shrink_to_fit();
        m_tailBytes = 0;
    }
}

std::optional<EventLog::DiskRead> EventLog::plan(uint64_t fromSeq, std::size_t max,
                                                 std::vector<v1::JobEvent>& out) const {
    if (!m_tail.empty() && fromSeq >= m_tail.front().seq()) {
        auto it =
            std::lower_bound(m_tail.begin(), m_tail.end(), fromSeq,
                             [](const v1::JobEvent& ev, uint64_t seq) { return ev.seq() < seq; });
        for (; it != m_tail.end() && out.size() < max; ++it) {
            out.push_back(*it);
        }
        return std::nullopt;
    }
    if (m_index.empty()) {
        return std::nullopt;
    }
    // The last indexed record at or before fromSeq.
    auto it = std::upper_bound(m_index.begin(), m_index.end(), fromSeq,
                               [](uint64_t seq, const auto& entry) { return seq < entry.first; });
    const uint64_t offset = it == m_index.begin() ? m_index.front().second : std::prev(it)->second;
    return DiskRead{m_journal.path(), offset, m_journal.size()};
}

Result<std::vector<v1::JobEvent>> EventLog::read(const DiskRead& disk, uint64_t fromSeq,
                                                 std::size_t max) {
    return JobJournal::readFrom(disk.path, disk.offset, disk.end, fromSeq, max, kReadBytes);
}

} // namespace tessera::daemon
