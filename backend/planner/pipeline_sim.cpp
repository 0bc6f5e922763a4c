// Pipeline timing by simulation: every stage runs its op list from
// tessera::train::pipelineSchedule in order; an op starts when the stage is free and its input
// (the previous stage's forward or the next stage's backward, plus the transfer) has arrived.
// For even stages this gives (m + p − 1)·(F + B), i.e. the bubble (p−1)/(m+p−1) of GPipe
// (Huang et al. 2019) and 1F1B (Narayanan et al. 2021); for uneven ones the slowest stage rules.
#include "cost_model.h"

#include <algorithm>

namespace tessera::planner::detail {

PipelineTimes simulatePipeline(train::PipelineKind kind, int microBatches,
                               const std::vector<double>& forward,
                               const std::vector<double>& backward,
                               const std::vector<double>& link) {
    const int p = int(forward.size());
    const int m = std::max(1, microBatches);
    PipelineTimes out;
    out.end.assign(std::size_t(p), 0.0);
    if (p == 0) {
        return out;
    }
    // Compute ops only: sends are asynchronous, a receive is the dependency modelled below.
    std::vector<std::vector<train::PipeOp>> ops(static_cast<std::size_t>(p));
    std::size_t remaining = 0;
    for (int k = 0; k < p; ++k) {
        auto list = train::pipelineSchedule(kind, p, k, m);
        if (!list) {
            return out; // unreachable: p >= 1, m >= 1
        }
        for (const train::PipeOp& op : *list) {
            if (op.kind == train::PipeOp::Forward || op.kind == train::PipeOp::Backward) {
                ops[std::size_t(k)].push_back(op);
            }
        }
        remaining += ops[std::size_t(k)].size();
    }
    const auto at = [m](int k, int j) {
        return std::size_t(k) * std::size_t(m) + std::size_t(j);
    };
    std::vector<double> fEnd(std::size_t(p) * std::size_t(m), -1.0), bEnd(fEnd);
    std::vector<std::size_t> pos(std::size_t(p), 0);
    std::vector<double> clock(static_cast<std::size_t>(p), 0.0);
    bool progress = true;
    while (remaining > 0 && progress) {
        progress = false;
        for (int k = 0; k < p; ++k) {
            auto& list = ops[std::size_t(k)];
            std::size_t& i = pos[std::size_t(k)];
            while (i < list.size()) {
                const train::PipeOp& op = list[i];
                const int j = op.microBatch;
                double ready = 0.0;
                if (op.kind == train::PipeOp::Forward) {
                    if (k > 0) {
                        ready = fEnd[at(k - 1, j)];
                        if (ready < 0) {
                            break;
                        }
                        ready += link[std::size_t(k) - 1];
                    }
                } else if (k + 1 < p) {
                    ready = bEnd[at(k + 1, j)];
                    if (ready < 0) {
                        break;
                    }
                    ready += link[std::size_t(k)];
                }
                const double start = std::max(clock[std::size_t(k)], ready);
                const bool fwd = op.kind == train::PipeOp::Forward;
                const double end = start + (fwd ? forward : backward)[std::size_t(k)];
                (fwd ? fEnd : bEnd)[at(k, j)] = end;
                clock[std::size_t(k)] = end;
                ++i;
                --remaining;
                progress = true;
            }
        }
    }
    for (int k = 0; k < p; ++k) {
        out.end[std::size_t(k)] = clock[std::size_t(k)];
        out.makespan = std::max(out.makespan, clock[std::size_t(k)]);
    }
    return out;
}

} // namespace tessera::planner::detail
