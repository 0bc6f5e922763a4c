// Inside the planner: what autoPlan()'s search (auto_plan_search.cpp) hands its ranking
// (auto_plan.cpp): the candidates that fit, each with the memory savers it uses.
#pragma once

#include "backend/planner/cost_model.h"

#include <map>
#include <string>
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
    /// FlashAttention, which leaves it nothing to recompute), each with and (t > 1) without SP.
    std::vector<Savers> savers(int t) const;
    const Context& context(const Savers& sv) const { return m_contexts.at(sv.rank()); }
    /// layerCosts of `sv`'s context at TP `t`, computed once.
    const std::vector<LayerCost>& costs(const Savers& sv, int t);

private:
    std::vector<Savers> m_all; ///< savers(2): every combination
    bool m_search = false;
    std::map<int, Context> m_contexts;
    std::map<std::pair<int, int>, std::vector<LayerCost>> m_costs;
};

/// Every layout of DP × TP × PP over the cluster (TP within a node and dividing every width, PP
/// up to the layers, DP dividing the global batch), each micro-batch count, schedule and ZeRO
/// stage (0, 1 and the options' 2 or 3) and saver combination, with cost-balanced stages:
/// those without problems (and, for CheapestWithinDeadline, within the deadline).
std::vector<Candidate> searchLayouts(const PlanModel& model, const PlanCluster& cluster,
                                     const PlanOptions& options, const AutoPlanGoal& goal,
                                     SaverContexts& contexts, AutoPlanStats& stats);

} // namespace tessera::planner::detail
