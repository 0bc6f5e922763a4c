// Pipeline timing by simulation: every rank runs its op list from
// tessera::train::pipelineSchedule in order; an op starts when the rank is free and its input
// (the previous virtual stage's forward or the next one's backward, plus the transfer) has
// arrived. For even stages this gives (m + p − 1)·(F + B), i.e. the bubble (p−1)/(m+p−1) of
// GPipe (Huang et al. 2019) and 1F1B (Narayanan et al. 2021), (p−1)/(V·m) of the ideal for
// interleaved 1F1B and (p−1)·(F + B − W) for ZB-H1; for uneven ones the slowest stage rules.
// On shared hosts the same dependencies drive an event-driven processor-sharing simulation.
#include "backend/planner/cost_model.h"

#include <algorithm>
#include <limits>

namespace tessera::planner::detail {

namespace {

using OpLists = std::vector<std::vector<train::PipeOp>>;

/// Compute ops only (Forward, Backward, WeightGradient): sends are asynchronous, a receive is
/// the dependency the simulations model.
OpLists computeOps(train::PipelineKind kind, int p, int m, int v, std::size_t& total) {
    OpLists ops(static_cast<std::size_t>(p));
    total = 0;
    for (auto& list : ops) {
        list.reserve(std::size_t(m) * std::size_t(v) * 3);
    }
    for (int k = 0; k < p; ++k) {
        auto list = train::pipelineSchedule(kind, p, k, m, v);
        if (!list) {
            continue; // the caller checked the shape (evaluate's problems)
        }
        for (const train::PipeOp& op : *list) {
            if (op.kind == train::PipeOp::Forward || op.kind == train::PipeOp::Backward ||
                op.kind == train::PipeOp::WeightGradient) {
                ops[std::size_t(k)].push_back(op);
            }
        }
        total += ops[std::size_t(k)].size();
    }
    return ops;
}

/// What one op of rank k takes: its virtual stage (chunk·p + k) and its duration. Under ZB-H1
/// the backward splits into B and W, W taking kWeightGradientShare of it.
struct OpTimes {
    const std::vector<double>&forward, &backward;
    int p;
    bool split;
    int stageOf(int k, const train::PipeOp& op) const { return op.chunk * p + k; }
    double duration(int k, const train::PipeOp& op) const {
        const std::size_t s = std::size_t(stageOf(k, op));
        switch (op.kind) {
        case train::PipeOp::Forward:
            return forward[s];
        case train::PipeOp::WeightGradient:
            return backward[s] * kWeightGradientShare;
        default:
            return backward[s] * (split ? 1.0 - kWeightGradientShare : 1.0);
        }
    }
};

/// When every virtual stage's forward and backward outputs can leave (-1 = not yet) and when
/// rank k's op can start: its input's time plus the link, or -1 while the input is missing. An
/// output over a `deferred` link leaves only when its rank next enters MPI (a receive, or the
/// end of its ops): Open MPI's TCP path sends a message over its eager limit by rendezvous, and
/// a rank that computes does not progress it (measured: a ViT stage-0 activation of 70 kB sent
/// after its first forward reached stage 1 only when stage 0 blocked for a gradient, 2.5 ms
/// later).
struct Arrivals {
    const OpLists& ops;
    const std::vector<bool>& deferred; ///< per link s → s+1 between virtual stages; empty = none
    int p, stages, m;
    std::vector<double> fEnd, bEnd;
    std::vector<std::vector<std::pair<bool, int>>> waiting; ///< per rank: (forward?, stage·m + mb)
    Arrivals(const OpLists& o, const std::vector<bool>& d, int v, int m_)
        : ops(o), deferred(d), p(int(o.size())), stages(int(o.size()) * v), m(m_),
          fEnd(std::size_t(stages) * std::size_t(m_), -1.0), bEnd(fEnd), waiting(o.size()) {}
    double& end(bool forward, int s, int j) {
        return (forward ? fEnd : bEnd)[std::size_t(s) * std::size_t(m) + std::size_t(j)];
    }
    int stageOf(int k, const train::PipeOp& op) const { return op.chunk * p + k; }
    bool needsInput(int k, const train::PipeOp& op) const {
        const int s = stageOf(k, op);
        return op.kind == train::PipeOp::Forward    ? s > 0
               : op.kind == train::PipeOp::Backward ? s + 1 < stages
                                                    : false;
    }
    double ready(int k, const train::PipeOp& op, const std::vector<double>& link) {
        if (!needsInput(k, op)) {
            return 0.0;
        }
        const bool fwd = op.kind == train::PipeOp::Forward;
        const int s = stageOf(k, op);
        const double in = end(fwd, fwd ? s - 1 : s + 1, op.microBatch);
        return in < 0 ? -1.0 : in + link[std::size_t(fwd ? s - 1 : s)];
    }
    /// Rank k finished its op `i` at `t`.
    void done(int k, std::size_t i, double t) {
        const auto& list = ops[std::size_t(k)];
        const train::PipeOp& op = list[i];
        if (op.kind != train::PipeOp::WeightGradient) {
            const bool fwd = op.kind == train::PipeOp::Forward;
            const int s = stageOf(k, op);
            const int over = fwd ? s : s - 1; // the link its output takes
            const bool hold =
                over >= 0 && over + 1 < stages && !deferred.empty() && deferred[std::size_t(over)];
            if (hold) {
                waiting[std::size_t(k)].emplace_back(fwd, s * m + op.microBatch);
            } else {
                end(fwd, s, op.microBatch) = t;
            }
        }
        if (i + 1 >= list.size() || needsInput(k, list[i + 1])) {
            for (const auto& [f, sj] : waiting[std::size_t(k)]) {
                end(f, sj / m, sj % m) = t;
            }
            waiting[std::size_t(k)].clear();
        }
    }
};

PipelineTimes sweep(const OpLists& ops, std::size_t remaining, int m, int v, const OpTimes& times,
                    const std::vector<double>& link, const std::vector<bool>& deferred) {
    const int p = int(ops.size());
    PipelineTimes out;
    out.end.assign(std::size_t(p), 0.0);
    out.busy.assign(std::size_t(p), 0.0);
    Arrivals arr(ops, deferred, v, m);
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
                const double d = times.duration(k, list[i]);
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

PipelineTimes shared(const OpLists& ops, std::size_t remaining, int m, int v, const OpTimes& times,
                     const std::vector<double>& link, const std::vector<bool>& deferred,
                     const SharedHosts& sh) {
    const int p = int(ops.size());
    const double inf = std::numeric_limits<double>::infinity();
    PipelineTimes out;
    out.end.assign(std::size_t(p), 0.0);
    out.busy.assign(std::size_t(p), 0.0);
    Arrivals arr(ops, deferred, v, m);
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
                left[std::size_t(k)] = times.duration(k, list[i]);
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
                               const std::vector<bool>& deferred, const SharedHosts* sharedHosts,
                               int virtualStages) {
    const int v = std::max(1, virtualStages);
    const int p = int(forward.size()) / v;
    const int m = std::max(1, microBatches);
    if (p == 0) {
        return {};
    }
    // Auto-plan simulates many layouts of one shape in a row (its savers, ZeRO stages and the
    // refinement's boundary moves): the op lists of the last shape are kept per thread.
    thread_local struct {
        train::PipelineKind kind = train::PipelineKind::GPipe;
        int p = 0, m = 0, v = 0;
        std::size_t total = 0;
        OpLists ops;
    } last;
    if (last.kind != kind || last.p != p || last.m != m || last.v != v) {
        last.ops = computeOps(kind, p, m, v, last.total);
        last.kind = kind, last.p = p, last.m = m, last.v = v;
    }
    const OpLists& ops = last.ops;
    const std::size_t total = last.total;
    // The same durations again (a layout's ZeRO stages differ only outside the pipeline, and
    // evaluate() simulates with and without links): the result of one of the last two calls.
    thread_local struct Memo {
        train::PipelineKind kind = train::PipelineKind::GPipe;
        int m = 0, v = 0;
        std::vector<double> forward, backward, link;
        std::vector<bool> deferred;
        PipelineTimes out;
        bool valid = false;
    } memo[2];
    thread_local int next = 0;
    const auto same = [&](const Memo& c) {
        return c.valid && c.kind == kind && c.m == m && c.v == v && c.forward == forward &&
               c.backward == backward && c.link == link && c.deferred == deferred;
    };
    if (!sharedHosts) {
        for (const Memo& c : memo) {
            if (same(c)) {
                return c.out;
            }
        }
    }
    const OpTimes times{forward, backward, p, kind == train::PipelineKind::ZeroBubbleH1};
    PipelineTimes out = sharedHosts ? shared(ops, total, m, v, times, link, deferred, *sharedHosts)
                                    : sweep(ops, total, m, v, times, link, deferred);
    out.makespan = *std::max_element(out.end.begin(), out.end.end());
    if (!sharedHosts) {
        memo[next] = {kind, m, v, forward, backward, link, deferred, out, true};
        next = 1 - next;
    }
    return out;
}

} // namespace tessera::planner::detail
