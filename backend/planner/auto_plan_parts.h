// Inside the planner: what autoPlan()'s search (auto_plan_search.cpp) hands its ranking
// (auto_plan.cpp): the candidates that fit, each with the memory savers it uses.
#pragma once

#include "backend/planner/cost_model.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tessera::planner::detail {

/// The memory savers a candidate uses: activation recompute and sequence parallelism.
struct Savers {
    std::string recompute = "none";
    bool sp = false;
    /// For ties: the plainer first (no recompute, then selective, then full; SP last).
    int rank() const {
        return (recompute == "none" ? 0 : recompute == "selective" ? 2 : 4) + (sp ? 1 : 0);
    }
};

/// One layout that fits, with its estimate.
struct Candidate {
    v1::Layout layout;
    Estimate est;
    int zero = 0;
    Savers savers;
    double score = 0; ///< what the goal minimises
};

/// What the goal minimises for `e`: the step time, or the run's cost (device-hours without
/// prices).
double scoreOf(const Estimate& e, const AutoPlanGoal& goal);

/// Candidates whose stage boundaries auto-plan refines: the first max(10, 3 · top) of the sorted
/// list.
inline std::size_t leaderCount(const AutoPlanGoal& goal) {
    return std::max<std::size_t>(10, 3 * std::size_t(std::max(1, goal.top)));
}

/// What makes two candidates different layouts in auto-plan's list (the same degrees with
/// another schedule, ZeRO stage or saver are variants of one): DP, TP, pipeline ranks,
/// micro-batches, CP, EP.
using LayoutKey = std::tuple<int, int, int, int, int, int>;
inline LayoutKey layoutKey(const v1::Layout& l) {
    return {
        l.data_parallel(), l.tensor_parallel(),  l.stages_size() / std::max(1, l.virtual_stages()),
        l.micro_batches(), l.context_parallel(), l.expert_parallel()};
}

/// The contexts and per-layer costs of each saver combination (recompute and SP change the
/// costs; everything else about the context is the same).
class SaverContexts {
public:
    /// A context per combination auto-plan may try (savers()). Errors: those of makeContext.
    Result<void> prepare(const PlanModel& model, const PlanCluster& cluster,
                         const PlanOptions& options, const AutoPlanGoal& goal,
                         const std::vector<NodeCalibration>& calibration);
    /// The combinations to try at TP `t`: the options' own for a built-in model (the engine has
    /// no savers) or a goal that keeps them; else every recompute (selective only without
    /// FlashAttention, which leaves it nothing to recompute), each without and (t > 1) with SP;
    /// plainest first (Savers::rank order).
    std::vector<Savers> savers(int t) const;
    const Context& context(const Savers& sv) const { return m_contexts.at(sv.rank()); }
    /// layerCosts of `sv`'s context under widths `w`, computed once.
    const std::vector<LayerCost>& costs(const Savers& sv, Widths w);

private:
    std::vector<Savers> m_all; ///< savers(2): every combination
    bool m_search = false;
    std::map<int, Context> m_contexts;
    std::map<std::pair<int, Widths>, std::vector<LayerCost>> m_costs;
};

/// Every layout of DP × CP × TP × PP over the cluster (TP within a node and dividing every width,
/// CP for long sequences, PP up to the layers, DP dividing the global batch), with EP for a
/// mixture of experts, each micro-batch count, schedule (interleaved too) and ZeRO
/// stage (0, 1 and the options' 2 or 3), with cost-balanced stages and the plainest saver
/// combination under which it has no problem (and, for CheapestWithinDeadline, is within the
/// deadline): a plainer one is never slower for the same degrees.
std::vector<Candidate> searchLayouts(const PlanModel& model, const PlanCluster& cluster,
                                     const PlanOptions& options, const AutoPlanGoal& goal,
                                     SaverContexts& contexts, AutoPlanStats& stats);

} // namespace tessera::planner::detail
