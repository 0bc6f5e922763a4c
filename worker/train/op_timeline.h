// The measured pipeline timeline of one optimizer step on one rank: start and end of every
// Forward and Backward op of every micro-batch, emitted as one numbers-only `@tessera` record.
#pragma once

#include <chrono>
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
///   {"step":S,"rank":R,"timeline":1,"stage":s,"micro_batches":M,"anchor_us":A,
///    "f0_start_us":..,"f0_end_us":..,"b0_start_us":..,"b0_end_us":..,...,"step_end_us":E}
/// with `timeline` the marker (format version 1), A the wall-clock anchor (µs since epoch,
/// exactly representable as a double), and every other `*_us` an integer µs offset from A.
/// An op that did not run (a step that failed half-way) has no fields.
class OpTimeline {
public:
    using Clock = std::chrono::steady_clock;

    /// Storage for `microBatches` (≥ 1; smaller values count as 1) forwards and backwards.
    explicit OpTimeline(int microBatches = 1);

    /// Starts recording a step: takes the anchors and forgets the previous step's ops.
    void beginStep();
    /// Marks the start / end of Forward (backward = false) or Backward of micro-batch `micro`.
    /// Out-of-range micro-batches and calls outside a recording step are ignored.
    void begin(bool backward, int micro);
    void end(bool backward, int micro);
    /// Ends the step (takes step_end_us) and stops recording.
    void endStep();
    /// True between beginStep() and endStep().
    bool recording() const { return m_recording; }

    int microBatches() const { return m_micro; }
    /// Offsets from the anchor in µs of op (backward, micro): start and end, −1 when not recorded.
    std::int64_t startUs(bool backward, int micro) const;
    std::int64_t endUs(bool backward, int micro) const;
    /// The wall-clock anchor of the last beginStep(), µs since the Unix epoch.
    std::int64_t anchorUs() const { return m_anchorUs; }

    /// The `@tessera` line of the last recorded step (format in the class comment).
    std::string line(std::int64_t step, int rank, int stage) const;

private:
    std::size_t index(bool backward, int micro) const;
    std::int64_t sinceAnchorUs() const;

    int m_micro = 1;
    bool m_recording = false;
    Clock::time_point m_anchor;
    std::int64_t m_anchorUs = 0;
    std::int64_t m_stepEndUs = -1;
    std::vector<std::int64_t> m_start, m_end; // (2 · micro): forwards, then backwards
};

} // namespace tessera::train
