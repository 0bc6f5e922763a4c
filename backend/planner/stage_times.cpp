// stageTimes(): per virtual stage, the seconds of one micro-batch's forward and backward on its
// slowest replica (compute, TP all-reduces, EP all-to-alls, CP ring exchange), the pipeline
// send/recv, the data-parallel gradient reduction left exposed and the optimizer step.
#include "backend/planner/estimate_parts.h"

#include <algorithm>
#include <cmath>

namespace tessera::planner::detail {

namespace {

/// The data-parallel gradient all-reduce of `bytes` over `n` ranks: one ring formula over all of
/// it, or, where the node has measured costs, one measured call per gradient bucket.
double dpAllReduce(const NodeLinks& l, double bytes, int n, double bucket, double bw,
                   double alpha) {
    if (l.measured.empty()) {
        return ringAllReduce(bytes, n, bw, alpha);
    }
    const double full = std::floor(bytes / bucket);
    const double rest = bytes - full * bucket;
    return full * allReduceSeconds(l, bucket, n, bw, alpha, true) +
           (rest > 0 ? allReduceSeconds(l, rest, n, bw, alpha, true) : 0.0);
}

/// The link a group of ranks talks over: the first's node's NVLink / shared memory when all are
/// on it, else the slowest member's network share.
struct GroupLink {
    double bw = 0, alpha = 0;
    const NodeLinks* lead = nullptr;
    bool oneNode = true;
};

template <typename RankAt> GroupLink groupLink(const Context& ctx, int n, RankAt rankAt) {
    const int node0 = ctx.slots[std::size_t(rankAt(0))].node;
    bool oneNode = true;
    double minBw = 1e300;
    for (int i = 0; i < n; ++i) {
        const Slot& sl = ctx.slots[std::size_t(rankAt(i))];
        oneNode = oneNode && sl.node == node0;
        minBw = std::min(minBw, ctx.nodes[std::size_t(sl.node)].interBw);
    }
    const NodeLinks& nl = ctx.nodes[std::size_t(node0)];
    return {oneNode ? nl.intraBw : minBw, oneNode ? nl.latencyIntra : nl.latencyInter, &nl,
            oneNode};
}

/// The bus bandwidth of a ring collective (all-reduce, reduce-scatter, all-gather) over a group
/// that spans nodes: NCCL runs one ring per NIC (channel), each crossing every node boundary
/// once with 1/channels of the data, so a node's group members together use their NICs: the
/// bus bandwidth is the smallest node's members × their per-device network share, at most the
/// NVLink / PCIe bandwidth inside the node (nccl-tests PERFORMANCE.md: busbw across nodes ≈ the
/// NICs' aggregate). A group inside one node: that node's link.
template <typename RankAt> GroupLink ringLink(const Context& ctx, int n, RankAt rankAt) {
    GroupLink l = groupLink(ctx, n, rankAt);
    if (n <= 1 || l.oneNode) {
        return l;
    }
    std::vector<int> members(ctx.nodes.size(), 0);
    for (int i = 0; i < n; ++i) {
        ++members[std::size_t(ctx.slots[std::size_t(rankAt(i))].node)];
    }
    double bw = 1e300;
    for (std::size_t k = 0; k < members.size(); ++k) {
        if (members[k] > 0) {
            const NodeLinks& nl = ctx.nodes[k];
            bw = std::min(bw, std::min(nl.intraBw, members[k] * nl.interBw));
        }
    }
    l.bw = bw;
    return l;
}

/// One all-to-all in which each of `n` ranks sends `bytes` spread evenly over the group: the
/// (n − 1)/n that leave the rank at the link's bandwidth, one message per peer (NCCL's
/// all-to-all as n − 1 send/recv pairs, nccl-tests PERFORMANCE.md: busbw = algbw·(n−1)/n).
double allToAll(double bytes, int n, const GroupLink& l) {
    return n <= 1 || bytes <= 0 ? 0.0 : bytes * (n - 1) / n / l.bw + (n - 1) * l.alpha;
}

/// The forward and backward of one micro-batch of `b` samples on one replica of a stage: the
/// slowest of its TP × 1 ranks, split into what computes and what communicates.
struct PassTimes {
    double fc = 0, bc = 0, tp = 0, ep = 0, cp = 0, fwd = 0, bwd = 0;
};

/// One micro-batch of `b` samples of stage sum `s` on slot `sl`: from the shapes on a GPU timed
/// so, else the FLOPs at the slot's (calibrated) rate.
ShapeSeconds slotCompute(const Context& ctx, const Slot& sl, const StageSum& s, double b) {
    if (!sl.shapeTimed) {
        return {s.fwdFlops * b / sl.flops, s.bwdFlops * b / sl.flops, s.attnFwd * b / sl.flops,
                s.attnBwd * b / sl.flops};
    }
    if (s.shapeType != sl.type || s.shapeSamples != b) {
        s.shapeSeconds = stageShapeSeconds(ctx, *sl.type, s, b);
        s.shapeType = sl.type, s.shapeSamples = b;
    }
    ShapeSeconds x = s.shapeSeconds;
    // What a CP ring overlaps: the fused attention, or the unfused scores at the GEMM rate.
    const double rate = sl.peak * sl.type->kernels.gemmBf16;
    x.attnFwd = s.attnExec > 0 ? x.attnFwd : s.attnFwd * b / rate;
    x.attnBwd = s.attnExec > 0 ? x.attnBwd : s.attnBwd * b / rate;
    return x;
}

PassTimes replicaPass(const Context& ctx, const Degrees& g, const StageSum& s, double b, int r,
                      int k, int cp, const std::vector<double>& slow) {
    double overhead = 0, load = 0;
    ShapeSeconds c; // the slowest TP rank's
    for (int tp = 0; tp < g.t; ++tp) {
        const Slot& sl = ctx.slots[std::size_t(rankOf(g, r, k, tp, cp))];
        const ShapeSeconds x = slotCompute(ctx, sl, s, b);
        if (x.fwd + x.bwd > c.fwd + c.bwd) {
            c = x;
        }
        overhead = std::max(overhead, sl.layerOverhead);
        load = std::max(load, sl.host >= 0 ? slow[std::size_t(sl.host)] : 1.0);
    }
    const GroupLink tpLink = groupLink(ctx, g.t, [&](int i) { return rankOf(g, r, k, i, cp); });
    // TP all-reduces (Shoeybi et al. 2019, 2 per block each way): per call the ring formula or
    // the node's measured cost for that group size and message.
    const auto tpTime = [&](double bytes, double calls) {
        return g.t > 1 && calls > 0 ? calls * allReduceSeconds(*tpLink.lead, bytes * b / calls, g.t,
                                                               tpLink.bw, tpLink.alpha)
                                    : 0.0;
    };
    PassTimes p;
    double tpFwd = tpTime(s.tpFwd, s.tpFwdCalls), tpBwd = tpTime(s.tpBwd, s.tpBwdCalls);
    if (ctx.options.tpCommOverlap && ctx.options.sequenceParallel && g.t > 1) {
        // Overlapped with the pass's GEMMs (PlanOptions::tpCommOverlap): what they cannot cover,
        // and at least the one chunk of t whose exchange nothing hides.
        const auto exposed = [&](double comm, double cover) {
            return std::max(comm / g.t, comm - cover);
        };
        tpFwd = exposed(tpFwd, load * (c.fwd - c.attnFwd));
        tpBwd = exposed(tpBwd, load * (c.bwd - c.attnBwd));
    }
    // Calibrated fixed cost per layer and micro-batch, split as the FLOPs are (1 : 2).
    p.fc = load * (c.fwd + s.layers * overhead / 3.0);
    p.bc = load * (c.bwd + s.layers * overhead * 2.0 / 3.0);
    p.tp = tpFwd + tpBwd;
    if (g.e > 1 && s.a2aCalls > 0 && (g.d * g.c) % g.e == 0) { // else a problem says so
        // The EP group of this rank: e consecutive data indices q = r·c + cp.
        const int q0 = (r * g.c + cp) / g.e * g.e;
        const GroupLink l = groupLink(ctx, g.e, [&](int i) { return rankOfData(g, q0 + i, k, 0); });
        // Dispatch and combine in each pass; the backward sends the gradients the same way.
        p.ep = 2.0 * s.a2aCalls * allToAll(s.a2aBytes / s.a2aCalls * b, g.e, l);
    }
    double cpFwd = 0, cpBwd = 0;
    if (g.c > 1 && s.cpSteps > 0) {
        // The CP ring: the c ranks of this replica; each step's transfer overlaps that step's
        // attention, so only what the attention cannot cover is exposed.
        const GroupLink l = groupLink(ctx, g.c, [&](int i) { return rankOf(g, r, k, 0, i); });
        const double move = s.cpBytes * b / l.bw + s.cpSteps * l.alpha;
        cpFwd = std::max(0.0, move - load * c.attnFwd);
        cpBwd = std::max(0.0, 2.0 * move - load * c.attnBwd);
        p.cp = cpFwd + cpBwd;
    }
    p.fwd = p.fc + tpFwd + p.ep / 2 + cpFwd;
    p.bwd = p.bc + tpBwd + p.ep / 2 + cpBwd;
    return p;
}

/// Send/recv of virtual stage `vs`'s output to the next one for replica (r, cp): with TP each
/// rank sends 1/t (Narayanan et al. 2021 §4.1, scatter/gather), over NVLink/shared memory or the
/// NIC; the engine's TP ranks each send the whole (replicated) stage output. CPU ranks send over
/// Open MPI (rendezvous past the eager limit: `deferred`); GPUs over NCCL.
double linkTime(const Context& ctx, const Degrees& g, const StageSum& s, double b, int r, int cp,
                int vs, bool& deferred) {
    const Slot& a = ctx.slots[std::size_t(rankOf(g, r, vs % g.p, 0, cp))];
    const Slot& c = ctx.slots[std::size_t(rankOf(g, r, (vs + 1) % g.p, 0, cp))];
    const NodeLinks& la = ctx.nodes[std::size_t(a.node)];
    const NodeLinks& lc = ctx.nodes[std::size_t(c.node)];
    const bool same = a.node == c.node;
    const double lbw = same ? la.intraBw : std::min(la.interBw, lc.interBw);
    const double bytes = s.outBytes * b / (ctx.model->builtin ? 1 : g.t);
    if (!a.type->gpu && !c.type->gpu && bytes > kMpiEagerBytes) {
        deferred = true;
    }
    return bytes / lbw + (same ? la.latencyIntra : la.latencyInter);
}

/// Seconds of one ring all-gather (or reduce-scatter) of `perParam` bytes of each of stage k's
/// parameters over the data ranks: the dense ones over DP × CP, the routed experts' over the
/// DP × CP / EP ranks that hold the same experts — (n − 1)/n of the bytes at the ring's bus
/// bandwidth, n − 1 hops.
double zeroGather(const Context& ctx, const Degrees& g, const StageSum& s, int k, double perParam) {
    const int n = g.d * g.c, en = n / g.e;
    const auto ring = [](double bytes, int ranks, const GroupLink& l) {
        return ringAllReduce(bytes, ranks, l.bw, l.alpha) / 2; // one of its two halves
    };
    double seconds = ring((s.params - s.expertParams) * perParam, n,
                          ringLink(ctx, n, [&](int q) { return rankOfData(g, q, k, 0); }));
    if (en > 1 && s.expertParams > 0) {
        seconds += ring(s.expertParams * perParam, en,
                        ringLink(ctx, en, [&](int i) { return rankOfData(g, i * g.e, k, 0); }));
    }
    return seconds;
}

/// The rings stage k's gradients are reduced over: the data ranks (DP × CP; Megatron-LM reduces
/// over the data-parallel group with context parallelism) for the dense parameters, for the
/// routed experts only the ranks that hold the same experts (DP × CP / EP).
struct DataRings {
    int n = 1, en = 1;
    GroupLink dense, experts;

    DataRings(const Context& ctx, const Degrees& g, const StageSum& s, int k)
        : n(g.d * g.c), en(s.expertParams > 0 ? n / g.e : 1) {
        if (n > 1) {
            dense = ringLink(ctx, n, [&](int q) { return rankOfData(g, q, k, 0); });
        }
        if (en > 1) {
            experts = ringLink(ctx, en, [&](int i) { return rankOfData(g, i * g.e, k, 0); });
        }
    }

    /// Seconds of an all-reduce of `perParam` bytes of each of `s`'s parameters.
    double allReduce(const StageSum& s, double perParam, double bucket) const {
        double seconds = 0;
        if (n > 1) {
            seconds += dpAllReduce(*dense.lead, (s.params - s.expertParams) * perParam, n, bucket,
                                   dense.bw, dense.alpha);
        }
        if (en > 1) {
            seconds += dpAllReduce(*experts.lead, s.expertParams * perParam, en, bucket, experts.bw,
                                   experts.alpha);
        }
        return seconds;
    }
};

/// The data-parallel traffic of stage k per step, and what of it the step's compute cannot
/// hide. Without ZeRO the gradients' all-reduce (Context::gradBytes each), its buckets
/// overlapping the last micro-batch's backward (Li et al. 2020, PyTorch DDP), the last bucket
/// always exposed. ZeRO-1/2 (distributed optimizer): the gradients' reduce-scatter under that
/// backward, and the updated 16-bit parameters' all-gather (half an all-reduce each) — for
/// imported models under the next step's first forward, as Megatron-LM's
/// --overlap-param-gather and FSDP prefetch it; the engine gathers after its optimizer step.
double exposedDataTraffic(const Context& ctx, const Degrees& g, const StageSum& s, int k,
                          double bucket, double fwd, double bwd) {
    const auto exposed = [&](double seconds, double under, double perParam) {
        const double bytes = std::max(1.0, s.params * perParam);
        return std::max(seconds - under, seconds * std::min(1.0, bucket / bytes));
    };
    const DataRings rings(ctx, g, s, k);
    if (g.zero < 1) {
        return exposed(rings.allReduce(s, ctx.gradBytes, bucket), bwd, ctx.gradBytes);
    }
    const double reduce = rings.allReduce(s, ctx.gradBytes, bucket) / 2;
    const double gather = rings.allReduce(s, ctx.elemBytes, bucket) / 2;
    return exposed(reduce, bwd, ctx.gradBytes) +
           (ctx.model->builtin ? gather : exposed(gather, fwd, ctx.elemBytes));
}

} // namespace

StageTimes stageTimes(const Context& ctx, const v1::Layout& layout, const Degrees& g,
                      const std::vector<StageSum>& st, double b, const std::vector<double>& slow) {
    // Per virtual stage (chunk c of pipeline rank k is c·p + k).
    const int chunks = g.p * g.v;
    StageTimes out;
    for (auto* v : {&out.fwd, &out.bwd, &out.compute, &out.tp, &out.ep, &out.cp, &out.gather,
                    &out.dpExposed, &out.opt}) {
        v->assign(std::size_t(chunks), 0.0);
    }
    out.link.assign(std::size_t(std::max(0, chunks - 1)), 0.0);
    out.deferred.assign(out.link.size(), false);
    const double bucket = layout.bucket_mb() > 0 ? layout.bucket_mb() * 1e6 : kDefaultBucketBytes;
    for (int vs = 0; vs < chunks; ++vs) {
        const int k = vs % g.p; // the pipeline rank holding it
        const std::size_t i = std::size_t(vs);
        const StageSum& s = st[i];
        double fc = 0, bc = 0;                // the slowest replica's compute of each pass
        for (int q = 0; q < g.d * g.c; ++q) { // every data replica: its slowest TP rank
            const int r = q / g.c, cp = q % g.c;
            const PassTimes p = replicaPass(ctx, g, s, b, r, k, cp, slow);
            if (p.fwd + p.bwd > out.fwd[i] + out.bwd[i]) {
                out.fwd[i] = p.fwd, out.bwd[i] = p.bwd;
                out.compute[i] = p.fc + p.bc, out.tp[i] = p.tp, out.ep[i] = p.ep, out.cp[i] = p.cp;
                fc = p.fc, bc = p.bc;
            }
            if (vs + 1 < chunks) {
                bool deferred = false;
                out.link[i] = std::max(out.link[i], linkTime(ctx, g, s, b, r, cp, vs, deferred));
                out.deferred[i] = out.deferred[i] || deferred;
            }
        }
        if (g.zero >= 3) {
            // ZeRO-3 / FSDP: every micro-batch gathers the stage's parameters before its forward
            // and again before its backward, and reduce-scatters its gradients after it
            // (Rajbhandari et al. 2020 §5.3; PyTorch FSDP with reshard_after_forward), each
            // layer's gather prefetched under the previous layer's compute: only what the
            // pass's compute cannot cover is exposed, in the pass itself.
            // The gradients leave in fp32 (Context::gradBytes), the parameters come in 16-bit.
            const double move = zeroGather(ctx, g, s, k, ctx.elemBytes);
            const double reduce = zeroGather(ctx, g, s, k, ctx.gradBytes);
            const double exposedF = std::max(0.0, move - fc);
            const double exposedB = std::max(0.0, move + reduce - bc);
            out.fwd[i] += exposedF, out.bwd[i] += exposedB;
            out.gather[i] = exposedF + exposedB;
        } else {
            out.dpExposed[i] = exposedDataTraffic(ctx, g, s, k, bucket, out.fwd[i], out.bwd[i]);
        }
        // Optimizer step: memory-bound; reads/writes weights and state, reads gradients.
        double memBw = 1e300;
        for (int tp = 0; tp < g.t; ++tp) {
            memBw = std::min(memBw, ctx.slots[std::size_t(rankOf(g, 0, k, tp))].memoryBw);
        }
        const double held = heldForOptimizer(g, s);
        out.opt[i] = held * (2.0 * (ctx.elemBytes + ctx.optimizerBytes) + ctx.gradBytes) / memBw;
    }
    return out;
}

double heldForOptimizer(const Degrees& g, const StageSum& s) {
    if (g.zero < 1) {
        return s.params;
    }
    const double dense = s.params - s.expertParams;
    return dense / (g.d * g.c) + s.expertParams * g.e / (g.d * g.c);
}

} // namespace tessera::planner::detail
