// Recording and formatting of one step's op timeline (see op_timeline.h).
#include "worker/train/op_timeline.h"

#include "worker/train/metric_line.h"

#include <algorithm>

namespace tessera::train {

OpTimeline::OpTimeline(int microBatches)
    : m_micro(std::max(1, microBatches)), m_start(std::size_t(2 * m_micro), -1),
      m_end(std::size_t(2 * m_micro), -1) {}

void OpTimeline::beginStep() {
    std::fill(m_start.begin(), m_start.end(), -1);
    std::fill(m_end.begin(), m_end.end(), -1);
    m_stepEndUs = -1;
    m_anchor = Clock::now();
    m_anchorUs = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
    m_recording = true;
}

std::size_t OpTimeline::index(bool backward, int micro) const {
    return std::size_t(backward ? m_micro + micro : micro);
}

std::int64_t OpTimeline::sinceAnchorUs() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m_anchor).count();
}

void OpTimeline::begin(bool backward, int micro) {
    if (m_recording && micro >= 0 && micro < m_micro) {
        m_start[index(backward, micro)] = sinceAnchorUs();
    }
}

void OpTimeline::end(bool backward, int micro) {
    if (m_recording && micro >= 0 && micro < m_micro) {
        m_end[index(backward, micro)] = sinceAnchorUs();
    }
}

void OpTimeline::endStep() {
    if (m_recording) {
        m_stepEndUs = sinceAnchorUs();
        m_recording = false;
    }
}

std::int64_t OpTimeline::startUs(bool backward, int micro) const {
    return micro >= 0 && micro < m_micro ? m_start[index(backward, micro)] : -1;
}

std::int64_t OpTimeline::endUs(bool backward, int micro) const {
    return micro >= 0 && micro < m_micro ? m_end[index(backward, micro)] : -1;
}

std::string OpTimeline::line(std::int64_t step, int rank, int stage) const {
    MetricLine out(step, rank);
    out.addInt("timeline", 1).addInt("stage", stage).addInt("micro_batches", m_micro);
    out.addInt("anchor_us", m_anchorUs);
    std::string key;
    for (const bool backward : {false, true}) {
        for (int m = 0; m < m_micro; ++m) {
            const std::int64_t s = startUs(backward, m), e = endUs(backward, m);
            if (s < 0 || e < 0) {
                continue;
            }
            key.assign(1, backward ? 'b' : 'f');
            key += std::to_string(m);
            out.addInt(key + "_start_us", s).addInt(key + "_end_us", e);
        }
    }
    if (m_stepEndUs >= 0) {
        out.addInt("step_end_us", m_stepEndUs);
    }
    return out.line();
}

} // namespace tessera::train
