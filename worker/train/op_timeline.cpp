// Recording and formatting of one step's op timeline (see op_timeline.h).
#include "worker/train/op_timeline.h"

#include "worker/train/metric_line.h"

#include <algorithm>

namespace tessera::train {

OpTimeline::OpTimeline(int microBatches, int chunks, bool weightGrads)
    : m_micro(std::max(1, microBatches)), m_chunks(std::max(1, chunks)),
      m_kinds(weightGrads ? 3 : 2), m_start(std::size_t(m_kinds * m_chunks * m_micro), -1),
      m_end(m_start.size(), -1) {}

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

std::ptrdiff_t OpTimeline::index(Op op, int micro, int chunk) const {
    const int kind = int(op);
    if (kind >= m_kinds || micro < 0 || micro >= m_micro || chunk < 0 || chunk >= m_chunks) {
        return -1;
    }
    return (std::ptrdiff_t(kind) * m_chunks + chunk) * m_micro + micro;
}

std::int64_t OpTimeline::sinceAnchorUs() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m_anchor).count();
}

void OpTimeline::begin(Op op, int micro, int chunk) {
    const auto i = index(op, micro, chunk);
    if (m_recording && i >= 0) {
        m_start[std::size_t(i)] = sinceAnchorUs();
    }
}

void OpTimeline::end(Op op, int micro, int chunk) {
    const auto i = index(op, micro, chunk);
    if (m_recording && i >= 0) {
        m_end[std::size_t(i)] = sinceAnchorUs();
    }
}

void OpTimeline::endStep() {
    if (m_recording) {
        m_stepEndUs = sinceAnchorUs();
        m_recording = false;
    }
}

std::int64_t OpTimeline::startUs(Op op, int micro, int chunk) const {
    const auto i = index(op, micro, chunk);
    return i >= 0 ? m_start[std::size_t(i)] : -1;
}

std::int64_t OpTimeline::endUs(Op op, int micro, int chunk) const {
    const auto i = index(op, micro, chunk);
    return i >= 0 ? m_end[std::size_t(i)] : -1;
}

std::string OpTimeline::line(std::int64_t step, int rank, int stage) const {
    MetricLine out(step, rank);
    out.addInt("timeline", 1).addInt("stage", stage).addInt("micro_batches", m_micro);
    if (m_chunks > 1) {
        out.addInt("chunks", m_chunks);
    }
    if (m_kinds > 2) {
        out.addInt("weight_grads", 1);
    }
    out.addInt("anchor_us", m_anchorUs);
    static constexpr char kLetter[] = {'f', 'b', 'w'};
    std::string key;
    int written = 0;
    bool truncated = false;
    for (int kind = 0; kind < m_kinds; ++kind) {
        for (int c = 0; c < m_chunks; ++c) {
            for (int m = 0; m < m_micro; ++m) {
                const Op op = Op(kind);
                const std::int64_t s = startUs(op, m, c), e = endUs(op, m, c);
                if (s < 0 || e < 0) {
                    continue;
                }
                if (written == kMaxOps) {
                    truncated = true;
                    continue;
                }
                key.assign(1, kLetter[kind]);
                key += std::to_string(m);
                if (c > 0) {
                    key += 'c' + std::to_string(c);
                }
                out.addInt(key + "_start_us", s).addInt(key + "_end_us", e);
                ++written;
            }
        }
    }
    if (truncated) {
        out.addInt("truncated", 1);
    }
    if (m_stepEndUs >= 0) {
        out.addInt("step_end_us", m_stepEndUs);
    }
    return out.line();
}

} // namespace tessera::train
