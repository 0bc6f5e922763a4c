// Pipeline timing by simulation: every stage runs its op list from
// tessera::train::pipelineSchedule in order; an op starts when the stage is free and its input
// (the previous stage's forward or the next stage's backward, plus the transfer) has arrived.
// For even stages this gives (m + p − 1)·(F + B), i.e. the bubble (p−1)/(m+p−1) of GPipe
// (Huang et al. 2019) and 1F1B (Narayanan et al. 2021); for uneven ones the slowest stage rules.
// On shared hosts the same dependencies drive an event-driven processor-sharing simulation.
#include "backend/planner/cost_model.h"

#include <algorithm>
#include <limits>

namespace tessera::planner::detail {

namespace {

using OpLists = std::vector<std::vector<train::PipeOp>>;

/// Compute ops only: sends are asynchronous, a receive is the dependency the simulations model.
OpLists computeOps(train::PipelineKind kind, int p, int m, std::size_t& total) {
    OpLists ops(static_cast<std::size_t>(p));
    total = 0;
    for (int k = 0; k < p; ++k) {
        auto list = train::pipelineSchedule(kind, p, k, m);
        if (!list) {
            continue; // unreachable: p >= 1, m >= 1
        }
        for (const train::PipeOp& op : *list) {
            if (op.kind == train::PipeOp::Forward || op.kind == train::PipeOp::Backward) {
                ops[std::size_t(k)].push_back(op);
            }
        }
        total += ops[std::size_t(k)].size();
    }
    return ops;
}

/// When every stage's forward and backward outputs can leave (-1 = not yet) and when stage k's
/// op can start: its input's time plus the link, or -1 while the input is missing. An output
/// over a `deferred` link leaves only when its stage next enters MPI (a receive, or the end of
/// its ops): Open MPI's TCP path sends a message over its eager limit by rendezvous, and a rank
/// that computes does not progress it (measured: a ViT stage-0 activation of 70 kB sent after
/// its first forward reached stage 1 only when stage 0 blocked for a gradient, 2.5 ms later).
struct Arrivals {
    const OpLists& ops;
    const std::vector<bool>& deferred; ///< per link k → k+1; empty = none
    int p, m;
    std::vector<double> fEnd, bEnd;
    std::vector<std::vector<std::pair<bool, int>>> waiting; ///< per stage: (forward?, micro-batch)
    Arrivals(const OpLists& o, const std::vector<bool>& d, int m_)
        : ops(o), deferred(d), p(int(o.size())), m(m_),
          fEnd(std::size_t(p) * std::size_t(m_), -1.0), bEnd(fEnd), waiting(o.size()) {}
    double& end(bool forward, int k, int j) {
        return (forward ? fEnd : bEnd)[std::size_t(k) * std::size_t(m) + std::size_t(j)];
    }
    bool needsInput(int k, const train::PipeOp& op) const {
        return op.kind == train::PipeOp::Forward ? k > 0 : k + 1 < p;
    }
    double ready(int k, const train::PipeOp& op, const std::vector<double>& link) {
        if (!needsInput(k, op)) {
            return 0.0;
        }
        const bool fwd = op.kind == train::PipeOp::Forward;
        const double in = end(fwd, fwd ? k - 1 : k + 1, op.microBatch);
        return in < 0 ? -1.0 : in + link[std::size_t(fwd ? k - 1 : k)];
    }
    /// Stage k finished its op `i` at `t`.
    void done(int k, std::size_t i, double t) {
        const auto& list = ops[std::size_t(k)];
        const bool fwd = list[i].kind == train::PipeOp::Forward;
        const int over = fwd ? k : k - 1; // the link its output takes
        const bool hold =
            over >= 0 && over + 1 < p && !deferred.empty() && deferred[std::size_t(over)];
        if (hold) {
            waiting[std::size_t(k)].emplace_back(fwd, list[i].microBatch);
        } else {
            end(fwd, k, list[i].microBatch) = t;
        }
        if (i + 1 >= list.size() || needsInput(k, list[i + 1])) {
            for (const auto& [f, j] : waiting[std::size_t(k)]) {
                end(f, k, j) = t;
            }
            waiting[std::size_t(k)].clear();
        }
    }
};

PipelineTimes sweep(const OpLists& ops, std::size_t remaining, int m,
                    const std::vector<double>& forward, const std::vector<double>& backward,
                    const std::vector<double>& link, const std::vector<bool>& deferred) {
    const int p = int(ops.size());
    PipelineTimes out;
    out.end.assign(std::size_t(p), 0.0);
    out.busy.assign(std::size_t(p), 0.0);
    Arrivals arr(ops, deferred, m);
    std::vector<std::size_t> pos(std::size_t(p), 0);
    bool progress = true;
    while (remaining > 0 && progress) {
        progress = false;
        for (int k = 0; k < p; ++k) {
            const auto& list = ops[std::size_t(k)];
            std::size_t& i = pos[std::size_t(k)];
            for (; i < list.size(); ++i, --remaining, progress = true) {
                const double ready = arr.ready(k, list[i], link);
                if (ready < 0) {
                    break;
                }
                const bool fwd = list[i].kind == train::PipeOp::Forward;
                const double d = (fwd ? forward : backward)[std::size_t(k)];
                double& clock = out.end[std::size_t(k)];
                clock = std::max(clock, ready) + d;
                out.busy[std::size_t(k)] += d;
                arr.done(k, i, clock);
            }
        }
    }
    return out;
}

/// Speed of every stage at an instant: `running[k]` says whether stage k is in an op.
std::vector<double> stageRates(const SharedHosts& sh, const std::vector<bool>& running) {
    const std::size_t hosts = sh.cores.size(), p = running.size();
    std::vector<double> full(hosts, 0.0), now(hosts, 0.0), rate(p, 1.0);
    for (std::size_t k = 0; k < p; ++k) {
        for (std::size_t h = 0; h < hosts; ++h) {
            const double n = sh.stageRanks[k][h];
            full[h] += n;
            now[h] += running[k] ? n : n * sh.waitShare[h];
        }
    }
    for (std::size_t k = 0; k < p; ++k) {
        bool first = true; // a stage with no rank on a shared host runs at its durations
        for (std::size_t h = 0; h < hosts; ++h) {
            if (sh.stageRanks[k][h] > 0 && sh.cores[h] > 0) {
                const double c = sh.cores[h];
                const double r = std::max(1.0, full[h] / c) / std::max(1.0, now[h] / c);
                rate[k] = first ? r : std::min(rate[k], r);
                first = false;
            }
        }
    }
    return rate;
}

PipelineTimes shared(const OpLists& ops, std::size_t remaining, int m,
                     const std::vector<double>& forward, const std::vector<double>& backward,
                     const std::vector<double>& link, const std::vector<bool>& deferred,
                     const SharedHosts& sh) {
    const int p = int(ops.size());
    const double inf = std::numeric_limits<double>::infinity();
    PipelineTimes out;
    out.end.assign(std::size_t(p), 0.0);
    out.busy.assign(std::size_t(p), 0.0);
    Arrivals arr(ops, deferred, m);
    std::vector<std::size_t> pos(std::size_t(p), 0);
    std::vector<double> left(std::size_t(p), 0.0); // work left in the running op, s at full load
    std::vector<bool> running(std::size_t(p), false);
    double now = 0;
    const std::size_t rounds = 4 * remaining + 16; // each round ends an op or starts one
    for (std::size_t round = 0; remaining > 0 && round < rounds; ++round) {
        double next = inf; // the next arrival of a waiting stage's input
        for (int k = 0; k < p; ++k) {
            const auto& list = ops[std::size_t(k)];
            const std::size_t i = pos[std::size_t(k)];
            if (running[std::size_t(k)] || i >= list.size()) {
                continue;
            }
            const double ready = arr.ready(k, list[i], link);
            if (ready >= 0 && ready <= now) {
                running[std::size_t(k)] = true;
                left[std::size_t(k)] =
                    (list[i].kind == train::PipeOp::Forward ? forward : backward)[std::size_t(k)];
            } else if (ready >= 0) {
                next = std::min(next, ready);
            }
        }
        const std::vector<double> rate = stageRates(sh, running);
        double dt = next - now;
        for (int k = 0; k < p; ++k) {
            if (running[std::size_t(k)]) {
                dt = std::min(dt, left[std::size_t(k)] / rate[std::size_t(k)]);
            }
        }
        if (dt == inf) {
            break; // nothing runs and nothing arrives: a schedule that cannot finish
        }
        now += dt;
        for (int k = 0; k < p; ++k) {
            if (!running[std::size_t(k)]) {
                continue;
            }
            out.busy[std::size_t(k)] += dt;
            double& l = left[std::size_t(k)];
            l -= dt * rate[std::size_t(k)];
            if (l <= 1e-12 * std::max(1e-9, now)) {
                arr.done(k, pos[std::size_t(k)]++, now);
                out.end[std::size_t(k)] = now;
                running[std::size_t(k)] = false;
                --remaining;
            }
        }
    }
    return out;
}

} // namespace

PipelineTimes simulatePipeline(train::PipelineKind kind, int microBatches,
                               const std::vector<double>& forward,
                               const std::vector<double>& backward, const std::vector<double>& link,
                               const std::vector<bool>& deferred, const SharedHosts* sharedHosts) {
    const int p = int(forward.size());
    const int m = std::max(1, microBatches);
    if (p == 0) {
        return {};
    }
    std::size_t total = 0;
    const OpLists ops = computeOps(kind, p, m, total);
    PipelineTimes out = sharedHosts
                            ? shared(ops, total, m, forward, backward, link, deferred, *sharedHosts)
                            : sweep(ops, total, m, forward, backward, link, deferred);
    out.makespan = *std::max_element(out.end.begin(), out.end.end());
    return out;
}

} // namespace tessera::planner::detail
