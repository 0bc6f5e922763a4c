// autoPlan()'s search (see auto_plan_parts.h): every layout over the cluster with cost-balanced
// stages, each saver combination, estimated; the ones that fit kept.
#include "backend/planner/auto_plan_parts.h"
#include "backend/planner/estimate_parts.h"
#include "backend/planner/partition.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace tessera::planner::detail {

namespace {

/// Forward + backward seconds of one sample of layer cost `c` on slot `sl`: from its shapes on
/// a GPU timed so, else its FLOPs at the slot's rate.
double layerCompute(const Context& ctx, const Slot& sl, const LayerCost& c) {
    if (!sl.shapeTimed) {
        return (c.fwdFlops + c.bwdFlops) / sl.flops;
    }
    StageSum one;
    one.gemms = c.gemms, one.recomputeGemms = c.recomputeGemms;
    one.kernelBytes = c.kernelBytes, one.kernelBwdBytes = c.kernelBwdBytes;
    one.attnExec = c.attnExec;
    one.recomputeBytes = c.recomputeBytes;
    const ShapeSeconds x = stageShapeSeconds(ctx, *sl.type, one, 1.0);
    return x.fwd + x.bwd;
}

/// Per-layer weight for balancing: forward + backward time per sample on the first device,
/// with TP traffic over its intra-node link.
std::vector<double> layerWeights(const Context& ctx, const std::vector<LayerCost>& costs) {
    const double bw = ctx.nodes.front().intraBw;
    std::vector<double> w;
    for (const LayerCost& c : costs) {
        w.push_back(layerCompute(ctx, ctx.slots.front(), c) + (c.tpFwdBytes + c.tpBwdBytes) / bw);
    }
    return w;
}

void setStages(v1::Layout& l, const std::vector<std::pair<int, int>>& ranges) {
    l.clear_stages();
    if (ranges.size() > 1) {
        for (const auto& [a, b] : ranges) {
            auto* s = l.add_stages();
            s->set_first_layer(a);
            s->set_last_layer(b);
        }
    }
}

} // namespace

double scoreOf(const Estimate& e, const AutoPlanGoal& goal) {
    if (goal.kind == AutoPlanGoal::Fastest) {
        return e.stepSeconds;
    }
    const double steps = double(std::max<std::int64_t>(1, goal.steps));
    // Cost of the run; without prices, device-hours stand in for money.
    return e.costPerHour > 0 ? e.costPerStep * steps : e.ranks * e.stepSeconds * steps / 3600.0;
}

namespace {

/// Model chunks per pipeline rank auto-plan tries with the interleaved schedule: Megatron-LM's
/// published runs use 2 to 4 (Narayanan et al. 2021 §5.4 compare 2 and 4; more chunks add a
/// send/recv per chunk for a bubble that is already small).
constexpr int kVirtualStageChoices[] = {2, 4};

/// One saver combination of a (TP, PP) choice: its context, per-layer costs at that TP and the
/// cost-balanced stage boundaries under those costs, per model chunks per rank (index V; empty
/// where p·V exceeds the layers).
struct SaverChoice {
    Savers savers;
    const Context* ctx = nullptr;
    const std::vector<LayerCost>* costs = nullptr;
    std::vector<std::vector<std::pair<int, int>>> ranges;
};

/// A schedule auto-plan tries: the layout's schedule and its model chunks per rank.
struct ScheduleChoice {
    v1::PipelineSchedule schedule = v1::PIPELINE_SCHEDULE_1F1B;
    int v = 1;
};

/// The schedules worth trying for `p` pipeline ranks and `m` micro-batches (`chunksFit[V]`:
/// whether p·V chunks fit the layers): one stage = no schedule; else 1F1B, GPipe, ZB-H1 and
/// interleaved 1F1B where m is a multiple of p.
std::vector<ScheduleChoice> schedulesFor(int p, int m, const std::vector<bool>& chunksFit,
                                         bool interleaved) {
    if (p == 1) {
        return {{v1::PIPELINE_SCHEDULE_1F1B, 1}};
    }
    std::vector<ScheduleChoice> out{{v1::PIPELINE_SCHEDULE_1F1B, 1},
                                    {v1::PIPELINE_SCHEDULE_GPIPE, 1},
                                    {v1::PIPELINE_SCHEDULE_ZB_H1, 1}};
    for (int v : kVirtualStageChoices) {
        if (interleaved && m % p == 0 && std::size_t(v) < chunksFit.size() &&
            chunksFit[std::size_t(v)]) {
            out.push_back({v1::PIPELINE_SCHEDULE_INTERLEAVED, v});
        }
    }
    return out;
}

/// The first of `choices` (plainest first) under which `c`'s layout has no problem, estimated
/// into `c`; false when none fits or its step cannot be shorter than `skipAbove` seconds. For the
/// same degrees a plainer saver is never slower (sequence parallelism moves the same TP bytes as
/// the all-reduce it replaces, Korthikanti et al. 2022 §4.2.2; recompute only adds work), so the
/// heavier ones need not be estimated once one fits.
bool plainestThatFits(const std::vector<SaverChoice>& choices, const AutoPlanGoal& goal,
                      double skipAbove, Candidate& c, AutoPlanStats& st) {
    const int v = std::max(1, c.layout.virtual_stages());
    for (const SaverChoice& ch : choices) {
        setStages(c.layout, ch.ranges[std::size_t(v)]);
        bool skipped = false;
        c.est = evaluate(*ch.ctx, c.layout, *ch.costs, {true, skipAbove, &skipped});
        ++st.evaluated;
        if (skipped) {
            return false; // slower than the leaders already: the heavier savers are slower still
        }
        if (!c.est.problems.empty()) {
            continue;
        }
        if (goal.kind == AutoPlanGoal::CheapestWithinDeadline && goal.deadlineSeconds > 0 &&
            c.est.stepSeconds * double(goal.steps) > goal.deadlineSeconds) {
            return false; // the heavier savers are slower still
        }
        c.savers = ch.savers;
        c.score = scoreOf(c.est, goal);
        return true;
    }
    return false;
}

/// The best step of each distinct layout found so far (Fastest goal). A layout whose step cannot
/// be shorter than the leaderCount-th of them can neither be among the leaders auto-plan refines
/// nor listed (auto_plan.cpp keeps the best of each distinct layout, in order), so the search
/// does not simulate it. For the cheapest goal the bound stays infinite.
class Leaders {
public:
    Leaders(const AutoPlanGoal& goal)
        : m_count(goal.kind == AutoPlanGoal::Fastest ? leaderCount(goal) : 0) {}
    double threshold() const {
        if (m_count == 0 || m_order.size() < m_count) {
            return 1e300;
        }
        return std::next(m_order.begin(), std::ptrdiff_t(m_count) - 1)->first;
    }
    void add(const Candidate& c) {
        if (m_count == 0) {
            return;
        }
        const LayoutKey key = layoutKey(c.layout);
        const auto it = m_best.find(key);
        if (it != m_best.end() && it->second <= c.est.stepSeconds) {
            return;
        }
        if (it != m_best.end()) {
            m_order.erase({it->second, key});
        }
        m_best[key] = c.est.stepSeconds;
        m_order.insert({c.est.stepSeconds, key});
    }

private:
    std::size_t m_count;
    std::map<LayoutKey, double> m_best;
    std::set<std::pair<double, LayoutKey>> m_order;
};

/// The degrees of one group of layouts: TP t, CP c, PP p, DP d, EP e.
struct Shape {
    int t = 1, c = 1, p = 1, d = 1, e = 1;
};

/// The layouts of one shape: each micro-batch count, schedule (with its model chunks) and ZeRO
/// stage, with the plainest saver combination that fits.
void addLayouts(const std::vector<SaverChoice>& choices, const Shape& sh,
                const std::vector<int>& zeros, const AutoPlanGoal& goal, Leaders& leaders,
                std::vector<Candidate>& all, AutoPlanStats& st) {
    const int batch = choices.front().ctx->options.globalBatch;
    std::vector<bool> chunksFit;
    for (const auto& r : choices.front().ranges) {
        chunksFit.push_back(!r.empty());
    }
    // Most micro-batches first: the smallest bubble, whose step bounds the others' (lowerBound).
    std::vector<int> counts = divisors(batch / sh.d);
    std::reverse(counts.begin(), counts.end());
    for (int m : counts) {
        for (const ScheduleChoice& sc :
             schedulesFor(sh.p, m, chunksFit, goal.searchVirtualStages)) {
            for (int z : zeros) {
                if (z > 0 && sh.d * sh.c == 1) {
                    continue;
                }
                Candidate c;
                c.zero = z;
                c.layout.set_data_parallel(sh.d);
                c.layout.set_tensor_parallel(sh.t);
                if (sh.c > 1) {
                    c.layout.set_context_parallel(sh.c);
                }
                if (sh.e > 1) {
                    c.layout.set_expert_parallel(sh.e);
                }
                c.layout.set_micro_batches(m);
                c.layout.set_schedule(sc.schedule);
                if (sc.v > 1) {
                    c.layout.set_virtual_stages(sc.v);
                }
                c.layout.set_zero_stage(z);
                if (plainestThatFits(choices, goal, leaders.threshold(), c, st)) {
                    ++st.fitting;
                    leaders.add(c);
                    all.push_back(std::move(c));
                }
            }
        }
    }
}

/// Fewest tokens of a sequence a context-parallel rank keeps in auto-plan's search (CP from 8k
/// sequences on): CP is for long sequences (Megatron-LM's context-parallel guide; LLaMA-3 405B
/// used it only for its 128k phase, Dubey et al. 2024 §3.3.2). Shorter per-rank chunks mean
/// small GEMMs and a ring exchange (∝ s/c per step) that the attention (∝ (s/c)² per step) no
/// longer hides, which one efficiency per device does not see yet.
constexpr int kMinTokensPerCpRank = 4096;

/// CP degrees auto-plan tries with `devices` left after TP: powers of two dividing them whose
/// ranks keep at least kMinTokensPerCpRank tokens of a sequence split in 2·CP chunks.
std::vector<int> cpChoices(const PlanModel& model, int devices) {
    std::vector<int> out{1};
    for (int c = 2; !model.builtin && c <= devices && model.seqLen / c >= kMinTokensPerCpRank;
         c *= 2) {
        if (devices % c == 0 && model.seqLen % (2 * c) == 0) {
            out.push_back(c);
        }
    }
    return out;
}

/// EP degrees auto-plan tries for `dataRanks` = DP × CP: powers of two dividing the routed
/// experts and the data ranks (1 for a dense model).
std::vector<int> epChoices(const PlanModel& model, int dataRanks) {
    int experts = 0;
    for (const PlanLayer& l : model.layers) {
        experts = std::max(experts, l.experts);
    }
    std::vector<int> out{1};
    for (int e = 2; experts > 0 && e <= experts && e <= dataRanks; e *= 2) {
        if (experts % e == 0 && dataRanks % e == 0) {
            out.push_back(e);
        }
    }
    return out;
}

bool tpDividesEveryWidth(const PlanModel& model, int t) {
    return std::all_of(model.layers.begin(), model.layers.end(), [t](const auto& l) {
        return std::all_of(l.tpDivides.begin(), l.tpDivides.end(),
                           [t](std::int64_t w) { return w % t == 0; });
    });
}

} // namespace

Result<void> SaverContexts::prepare(const PlanModel& model, const PlanCluster& cluster,
                                    const PlanOptions& options, const AutoPlanGoal& goal,
                                    const std::vector<NodeCalibration>& calibration) {
    auto base = makeContext(model, cluster, options, calibration);
    if (!base) {
        return relay(base);
    }
    m_search = !model.builtin && goal.searchRecompute;
    m_all = {{options.recompute, options.sequenceParallel}};
    if (m_search) {
        m_all.clear();
        for (const char* rc : {"none", "selective", "full"}) {
            if (base->flash && std::string(rc) == "selective") {
                continue;
            }
            m_all.push_back({rc, false});
            m_all.push_back({rc, true});
        }
    }
    for (const Savers& sv : m_all) {
        PlanOptions o = options;
        o.recompute = sv.recompute;
        o.sequenceParallel = sv.sp;
        auto ctx = makeContext(model, cluster, o, calibration);
        if (!ctx) {
            return relay(ctx);
        }
        m_contexts.emplace(sv.rank(), std::move(*ctx));
    }
    return {};
}

std::vector<Savers> SaverContexts::savers(int t) const {
    std::vector<Savers> out;
    for (const Savers& sv : m_all) {
        if (!m_search || t > 1 || !sv.sp) { // SP splits over the TP group: none at TP 1
            out.push_back(sv);
        }
    }
    return out;
}

const std::vector<LayerCost>& SaverContexts::costs(const Savers& sv, Widths w) {
    auto it = m_costs.find({sv.rank(), w});
    if (it == m_costs.end()) {
        it = m_costs.emplace(std::make_pair(sv.rank(), w), layerCosts(context(sv), w)).first;
    }
    return it->second;
}

namespace {

/// The saver combinations of one (TP, CP, EP, PP) choice with their costs and cost-balanced
/// boundaries for one stage per rank and for each interleaved chunk count.
std::vector<SaverChoice> saverChoices(SaverContexts& contexts, Widths w, int p, int layers) {
    std::vector<SaverChoice> choices;
    for (const Savers& sv : contexts.savers(w.t)) {
        SaverChoice ch{sv, &contexts.context(sv), &contexts.costs(sv, w), {}};
        const std::vector<double> weights = layerWeights(*ch.ctx, *ch.costs);
        ch.ranges.resize(std::size_t(*std::max_element(std::begin(kVirtualStageChoices),
                                                       std::end(kVirtualStageChoices))) +
                         1);
        ch.ranges[1] = balancedStages(weights, p);
        for (int v : kVirtualStageChoices) {
            if (p > 1 && p * v <= layers) {
                ch.ranges[std::size_t(v)] = balancedStages(weights, p * v);
            }
        }
        choices.push_back(std::move(ch));
    }
    return choices;
}

} // namespace

std::vector<Candidate> searchLayouts(const PlanModel& model, const PlanCluster& cluster,
                                     const PlanOptions& options, const AutoPlanGoal& goal,
                                     SaverContexts& contexts, AutoPlanStats& stats) {
    const int n = cluster.deviceCount(), layers = int(model.layers.size());
    const int batch = options.globalBatch;
    int perNode = n;
    for (const PlanNode& node : cluster.nodes) {
        perNode = std::min(perNode, std::max(1, node.devices));
    }
    std::vector<int> zeros{0, 1};
    if (options.zeroStage >= 2 && !model.builtin) {
        zeros.push_back(options.zeroStage);
    }
    std::vector<Candidate> all;
    Leaders leaders(goal);
    for (int t : divisors(perNode)) {
        if (!tpDividesEveryWidth(model, t)) {
            continue;
        }
        for (int c : cpChoices(model, n / t)) {
            for (int p : divisors(n / (t * c))) {
                if (p > layers) {
                    continue;
                }
                std::map<int, std::vector<SaverChoice>> byEp; // built when first needed
                for (int d : divisors(n / (t * c * p))) {
                    if (batch % d != 0) {
                        continue;
                    }
                    for (int e : epChoices(model, d * c)) {
                        auto it = byEp.find(e);
                        if (it == byEp.end()) {
                            it =
                                byEp.emplace(e, saverChoices(contexts, {t, c, e}, p, layers)).first;
                        }
                        addLayouts(it->second, {t, c, p, d, e}, zeros, goal, leaders, all, stats);
                    }
                }
            }
        }
    }
    return all;
}

} // namespace tessera::planner::detail
