// autoPlan()'s search (see auto_plan_parts.h): every layout over the cluster with cost-balanced
// stages, each saver combination, estimated; the ones that fit kept.
#include "backend/planner/auto_plan_parts.h"
#include "backend/planner/partition.h"

#include <algorithm>

namespace tessera::planner::detail {

namespace {

/// Per-layer weight for balancing: forward + backward time per sample on the first device,
/// with TP traffic over its intra-node link.
std::vector<double> layerWeights(const Context& ctx, const std::vector<LayerCost>& costs) {
    const double flops = ctx.slots.front().flops, bw = ctx.nodes.front().intraBw;
    std::vector<double> w;
    for (const LayerCost& c : costs) {
        w.push_back((c.fwdFlops + c.bwdFlops) / flops + (c.tpFwdBytes + c.tpBwdBytes) / bw);
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

/// The layouts of one (TP, PP, savers) choice: each DP, micro-batch count, schedule and ZeRO
/// stage with the given stage boundaries.
struct Choice {
    int t = 1, p = 1;
    Savers savers;
    const std::vector<std::pair<int, int>>* ranges = nullptr;
};

void addLayouts(const Context& ctx, const std::vector<LayerCost>& costs, const Choice& ch,
                int devices, const std::vector<int>& zeros, const AutoPlanGoal& goal,
                std::vector<Candidate>& all, AutoPlanStats& st) {
    const int batch = ctx.options.globalBatch;
    for (int d : divisors(devices / (ch.t * ch.p))) {
        if (batch % d != 0) {
            continue;
        }
        for (int m : divisors(batch / d)) {
            for (int gpipe = 0; gpipe < (ch.p > 1 ? 2 : 1); ++gpipe) {
                for (int z : zeros) {
                    if (z > 0 && d == 1) {
                        continue;
                    }
                    Candidate c;
                    c.zero = z;
                    c.savers = ch.savers;
                    c.layout.set_data_parallel(d);
                    c.layout.set_tensor_parallel(ch.t);
                    c.layout.set_micro_batches(m);
                    c.layout.set_schedule(gpipe ? v1::PIPELINE_SCHEDULE_GPIPE
                                                : v1::PIPELINE_SCHEDULE_1F1B);
                    c.layout.set_zero_stage(z);
                    setStages(c.layout, *ch.ranges);
                    c.est = evaluate(ctx, c.layout, costs);
                    ++st.evaluated;
                    if (!c.est.problems.empty()) {
                        continue;
                    }
                    c.score = scoreOf(c.est, goal);
                    if (goal.kind == AutoPlanGoal::CheapestWithinDeadline &&
                        goal.deadlineSeconds > 0 &&
                        c.est.stepSeconds * double(goal.steps) > goal.deadlineSeconds) {
                        continue;
                    }
                    ++st.fitting;
                    all.push_back(std::move(c));
                }
            }
        }
    }
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

const std::vector<LayerCost>& SaverContexts::costs(const Savers& sv, int t) {
    auto it = m_costs.find({sv.rank(), t});
    if (it == m_costs.end()) {
        it = m_costs.emplace(std::make_pair(sv.rank(), t), layerCosts(context(sv), t)).first;
    }
    return it->second;
}

std::vector<Candidate> searchLayouts(const PlanModel& model, const PlanCluster& cluster,
                                     const PlanOptions& options, const AutoPlanGoal& goal,
                                     SaverContexts& contexts, AutoPlanStats& stats) {
    const int n = cluster.deviceCount(), layers = int(model.layers.size());
    int perNode = n;
    for (const PlanNode& node : cluster.nodes) {
        perNode = std::min(perNode, std::max(1, node.devices));
    }
    std::vector<int> zeros{0, 1};
    if (options.zeroStage >= 2 && !model.builtin) {
        zeros.push_back(options.zeroStage);
    }
    std::vector<Candidate> all;
    for (int t : divisors(perNode)) {
        if (!tpDividesEveryWidth(model, t)) {
            continue;
        }
        for (const Savers& sv : contexts.savers(t)) {
            const Context& ctx = contexts.context(sv);
            const auto& costs = contexts.costs(sv, t);
            const std::vector<double> weights = layerWeights(ctx, costs);
            for (int p : divisors(n / t)) {
                if (p > layers) {
                    continue;
                }
                const auto ranges = balancedStages(weights, p);
                addLayouts(ctx, costs, {t, p, sv, &ranges}, n, zeros, goal, all, stats);
            }
        }
    }
    return all;
}

} // namespace tessera::planner::detail
