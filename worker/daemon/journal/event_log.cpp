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

bool EventLog::writeUnjournaled(std::string& error) {
    bool sync = false;
    while (!m_unjournaled.empty()) {
        v1::JobEvent& ev = m_unjournaled.front();
        auto offset = m_journal.append(ev, false);
        if (!offset) {
            error = offset.error().message;
            break;
        }
        index(ev.seq(), *offset);
        sync = sync || ev.has_state();
        m_unjournaledBytes -= ev.ByteSizeLong();
        m_unjournaled.pop_front();
    }
    if (sync) {
        (void)m_journal.sync(); // a state among them: as durable as if written at its time
    }
    return m_unjournaled.empty();
}

EventLog::Journaled EventLog::retry(Clock::time_point now, bool force) {
    Journaled out;
    if (m_unjournaled.empty()) {
        return out;
    }
    if (!force && now - m_lastTry < kRetryEvery) {
        out.onDisk = false;
        return out;
    }
    m_lastTry = now;
    const std::size_t before = m_unjournaled.size();
    if (writeUnjournaled(out.error)) {
        out.caughtUp = before;
    } else {
        out.onDisk = false;
    }
    return out;
}

EventLog::Journaled EventLog::append(v1::JobEvent event, bool sync, Clock::time_point now) {
    Journaled out = retry(now);
    if (out.onDisk) {
        auto offset = m_journal.append(event, sync);
        if (offset) {
            index(event.seq(), *offset);
        } else {
            out.onDisk = false;
            out.justFailed = true;
            out.error = offset.error().message;
            m_lastTry = now;
        }
    }
    m_lastSeq = event.seq();
    if (event.has_state()) {
        m_lastState = event.state();
    }
    if (!out.onDisk) {
        m_unjournaledBytes += event.ByteSizeLong();
        m_unjournaled.push_back(event);
        out.overLimit = m_unjournaledLimit > 0 && m_unjournaledBytes > m_unjournaledLimit;
    }
    keep(std::move(event));
    return out;
}

void EventLog::dropTail() {
    m_tail.clear();
    m_tail.shrink_to_fit();
    m_tailBytes = 0;
}

std::optional<EventLog::DiskRead> EventLog::plan(uint64_t fromSeq, std::size_t max,
                                                 std::vector<v1::JobEvent>& out) const {
    const auto fromMemory = [&](const std::deque<v1::JobEvent>& events) {
        auto it =
            std::lower_bound(events.begin(), events.end(), fromSeq,
                             [](const v1::JobEvent& ev, uint64_t seq) { return ev.seq() < seq; });
        for (; it != events.end() && out.size() < max; ++it) {
            out.push_back(*it);
        }
        return std::nullopt;
    };
    if (!m_tail.empty() && fromSeq >= m_tail.front().seq()) {
        return fromMemory(m_tail);
    }
    if (!m_unjournaled.empty() && fromSeq >= m_unjournaled.front().seq()) {
        return fromMemory(m_unjournaled); // memory is their only copy
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
