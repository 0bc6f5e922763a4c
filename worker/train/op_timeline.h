// The measured pipeline timeline of one optimizer step on one rank: start and end of every
// Forward and Backward op of every micro-batch, emitted as one numbers-only `@tessera` record.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::train {

/// Records the compute ops of one step into storage allocated once (no allocation per op).
///
/// Times: durations come from std::chrono::steady_clock; beginStep() also takes one wall-clock
/// anchor (std::chrono::system_clock, µs since the Unix epoch) so that records of ranks on one
/// host line up exactly (they share the clock). Across hosts the alignment is only as good as the
/// hosts' clock synchronisation (NTP: typically 0.1–10 ms), which can be larger than an op.
///
/// The record (see line()):
///   {"step":S,"rank":R,"timeline":1,"stage":s,"micro_batches":M,["chunks":V,]
///    ["weight_grads":1,]"anchor_us":A,"f0_start_us":..,"f0_end_us":..,"b0_start_us":..,
///    "b0_end_us":..,...,"step_end_us":E}
/// with `timeline` the marker (format version 1), A the wall-clock anchor (µs since epoch,
/// exactly representable as a double), and every other `*_us` an integer µs offset from A.
/// Ops: `f<m>` forward, `b<m>` backward (the input gradient only under ZB-H1), `w<m>` the
/// weight gradient (ZB-H1, with "weight_grads":1) of micro-batch m; of model chunk c > 0
/// (interleaved, with "chunks":V) `f<m>c<c>`, `b<m>c<c>`. An op that did not run (a step that
/// failed half-way) has no fields; neither has any op beyond the first kMaxOps in record order
/// (forwards, backwards, weight gradients; chunk, then micro-batch), which keeps the record
/// within the `@tessera` limit of 128 numeric fields ("truncated":1 then says so).
class OpTimeline {
public:
    using Clock = std::chrono::steady_clock;
    /// The compute ops a step records.
    enum class Op { Forward, Backward, WeightGradient };
    /// Ops one record carries at most (2 fields each).
    static constexpr int kMaxOps = 58;

    /// Storage for `microBatches` (≥ 1; smaller values count as 1) micro-batches of `chunks`
    /// model chunks (≥ 1), with weight-gradient ops when `weightGrads`.
    explicit OpTimeline(int microBatches = 1, int chunks = 1, bool weightGrads = false);

    /// Starts recording a step: takes the anchors and forgets the previous step's ops.
    void beginStep();
    /// Marks the start / end of `op` of micro-batch `micro` of chunk `chunk`. Out-of-range
    /// micro-batches or chunks, weight gradients without storage for them, and calls outside a
    /// recording step are ignored.
    void begin(Op op, int micro, int chunk = 0);
    void end(Op op, int micro, int chunk = 0);
    /// One-chunk shorthand: Forward (backward = false) or Backward of micro-batch `micro`.
    void begin(bool backward, int micro) { begin(backward ? Op::Backward : Op::Forward, micro); }
    void end(bool backward, int micro) { end(backward ? Op::Backward : Op::Forward, micro); }
    /// Ends the step (takes step_end_us) and stops recording.
    void endStep();
    /// True between beginStep() and endStep().
    bool recording() const { return m_recording; }

    int microBatches() const { return m_micro; }
    int chunks() const { return m_chunks; }
    /// Offsets from the anchor in µs of op (kind, micro, chunk): start and end, −1 when not
    /// recorded.
    std::int64_t startUs(Op op, int micro, int chunk = 0) const;
    std::int64_t endUs(Op op, int micro, int chunk = 0) const;
    std::int64_t startUs(bool backward, int micro) const {
        return startUs(backward ? Op::Backward : Op::Forward, micro);
    }
    std::int64_t endUs(bool backward, int micro) const {
        return endUs(backward ? Op::Backward : Op::Forward, micro);
    }
    /// The wall-clock anchor of the last beginStep(), µs since the Unix epoch.
    std::int64_t anchorUs() const { return m_anchorUs; }

    /// The `@tessera` line of the last recorded step (format in the class comment).
    std::string line(std::int64_t step, int rank, int stage) const;

private:
    /// Storage index of (op, micro, chunk), or -1 when out of range.
    std::ptrdiff_t index(Op op, int micro, int chunk) const;
    std::int64_t sinceAnchorUs() const;

    int m_micro = 1;
    int m_chunks = 1;
    int m_kinds = 2; // Forward, Backward[, WeightGradient]
    bool m_recording = false;
    Clock::time_point m_anchor;
    std::int64_t m_anchorUs = 0;
    std::int64_t m_stepEndUs = -1;
    std::vector<std::int64_t> m_start, m_end; // (kind, chunk, micro)
};

} // namespace tessera::train
