// autoPlan(): enumerate TP/PP/DP degrees, micro-batch counts, schedules and ZeRO stages with
// cost-balanced (possibly uneven) stage boundaries, keep the layouts that fit, rank them and say
// why each ranks where it does.
#include "backend/planner/auto_plan_parts.h"
#include "backend/planner/estimate_parts.h"
#include "backend/planner/planner_text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace tessera::planner {

namespace {

using detail::Candidate;
using detail::Context;
using detail::LayerCost;
using detail::num;
using detail::SaverContexts;
using detail::Savers;
using detail::scoreOf;
using detail::searchLayouts;

std::string describeLayout(const v1::Layout& l, int zero, const Savers& savers) {
    const int v = std::max(1, l.virtual_stages());
    const int p = std::max(1, l.stages_size()) / v;
    std::string s = detail::plannerText(
        QT_TRANSLATE_NOOP("tessera::planner", "DP %1 × TP %2 × PP %3, %4 micro-batches"),
        {num(l.data_parallel()), num(std::max(1, l.tensor_parallel())), num(p),
         num(l.micro_batches())});
    if (l.context_parallel() > 1) {
        s += detail::plannerText(QT_TRANSLATE_NOOP("tessera::planner", ", CP %1"),
                                 {num(l.context_parallel())});
    }
    if (l.expert_parallel() > 1) {
        s += detail::plannerText(QT_TRANSLATE_NOOP("tessera::planner", ", EP %1"),
                                 {num(l.expert_parallel())});
    }
    if (p > 1) {
        switch (l.schedule()) {
        case v1::PIPELINE_SCHEDULE_GPIPE:
            s += ", GPipe";
            break;
        case v1::PIPELINE_SCHEDULE_ZB_H1:
            s += ", ZB-H1";
            break;
        case v1::PIPELINE_SCHEDULE_INTERLEAVED:
            s += detail::plannerText(
                QT_TRANSLATE_NOOP("tessera::planner", ", interleaved 1F1B × %1 chunks"), {num(v)});
            break;
        default:
            s += ", 1F1B";
        }
    }
    if (zero > 0) {
        s += ", ZeRO-" + std::to_string(zero);
    }
    if (savers.recompute != "none") {
        s += detail::plannerText(QT_TRANSLATE_NOOP("tessera::planner", ", %1 recompute"),
                                 {QString::fromStdString(savers.recompute)});
    }
    if (savers.sp) {
        s += detail::plannerText(QT_TRANSLATE_NOOP("tessera::planner", ", sequence parallel"));
    }
    return s;
}

/// The component of `e` that grew most against `best`, as "DP all-reduce exposed 0.4 ms vs
/// 0.1 ms"; empty when none grew by more than 0.1 % of `best`'s step (a tie).
std::string biggestExtra(const Estimate& e, const Estimate& best) {
    const std::tuple<const char*, double, double> parts[] = {
        {QT_TRANSLATE_NOOP("tessera::planner", "compute %1 vs %2"), e.computeSeconds,
         best.computeSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "TP all-reduce %1 vs %2"), e.tpCommSeconds,
         best.tpCommSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "EP all-to-all %1 vs %2"), e.epCommSeconds,
         best.epCommSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "CP ring exchange %1 vs %2"), e.cpCommSeconds,
         best.cpCommSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "pipeline send/recv %1 vs %2"), e.ppCommSeconds,
         best.ppCommSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "pipeline bubble %1 vs %2"), e.bubbleSeconds,
         best.bubbleSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "DP all-reduce exposed %1 vs %2"), e.dpCommSeconds,
         best.dpCommSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "optimizer step %1 vs %2"), e.optimizerSeconds,
         best.optimizerSeconds},
        {QT_TRANSLATE_NOOP("tessera::planner", "loss all-reduce %1 vs %2"), e.lossSyncSeconds,
         best.lossSyncSeconds}};
    const auto* top = &parts[0];
    for (const auto& p : parts) {
        if (std::get<1>(p) - std::get<2>(p) > std::get<1>(*top) - std::get<2>(*top)) {
            top = &p;
        }
    }
    if (std::get<1>(*top) - std::get<2>(*top) <= 1e-3 * best.stepSeconds) {
        return {}; // no part grew by more than 0.1 % of a step: a tie
    }
    return detail::plannerText(std::get<0>(*top), {detail::duration(std::get<1>(*top)),
                                                   detail::duration(std::get<2>(*top))});
}

/// Step time of `e` against `best`, as "step 1.2 ms vs 1.2 ms" (when no single part grew).
std::string describeTotal(const Estimate& e, const Estimate& best) {
    return detail::plannerText(
        QT_TRANSLATE_NOOP("tessera::planner", "step %1 vs %2"),
        {detail::duration(e.stepSeconds), detail::duration(best.stepSeconds)});
}

/// `layout` with the boundaries after stages first..last moved by `delta` layers; false when a
/// stage would be left empty.
bool shiftBoundaries(v1::Layout& layout, int first, int last, int delta) {
    for (int k = first; k <= last; ++k) {
        auto* a = layout.mutable_stages(k);
        auto* b = layout.mutable_stages(k + 1);
        a->set_last_layer(a->last_layer() + delta);
        b->set_first_layer(b->first_layer() + delta);
    }
    for (const auto& s : layout.stages()) {
        if (s.last_layer() < s.first_layer()) {
            return false;
        }
    }
    return true;
}

/// Evaluates `l`, a move of candidate `c`'s boundaries, and takes it when it scores better.
/// For the fastest goal a move is simulated only when it lowers the candidate's lower bound on
/// the step (`bound`: the busiest rank's work with the pipeline's fill and drain, evaluate.cpp):
/// a move that leaves the busiest rank and the fill as they are would change the step only by
/// what the links and reductions add, which the balanced split already weighed.
bool tryMove(const Context& ctx, const std::vector<LayerCost>& costs, const AutoPlanGoal& goal,
             const v1::Layout& l, Candidate& c, double& bound, AutoPlanStats& stats) {
    const bool fastest = goal.kind == AutoPlanGoal::Fastest;
    bool skipped = false;
    double moved = 0;
    Estimate e = detail::evaluate(
        ctx, l, costs,
        {true, fastest ? std::min(c.score, bound * (1 - 1e-9)) : 1e300, &skipped, &moved});
    ++stats.evaluated;
    ++stats.refined;
    const double s = scoreOf(e, goal);
    if (skipped || !e.problems.empty() || s >= c.score * (1 - 1e-12)) {
        return false;
    }
    c.layout = l, c.est = std::move(e), c.score = s;
    bound = moved;
    return true;
}

/// Moves stage boundaries by one layer while the goal's score improves (the balanced split is
/// balanced in per-sample compute; links, memory, the optimizer step and the real schedule can
/// favour a neighbour): one boundary, or one and every boundary after it (the last stages'
/// work shifted together, which a single move cannot reach when it alone does not help).
void refine(const Context& ctx, const std::vector<LayerCost>& costs, const AutoPlanGoal& goal,
            Candidate& c, AutoPlanStats& stats) {
    const int bounds = c.layout.stages_size() - 1;
    double bound = 1e300; // the candidate's lower bound (for the fastest goal)
    if (goal.kind == AutoPlanGoal::Fastest) {
        bool skipped = false;
        detail::evaluate(ctx, c.layout, costs, {true, -1.0, &skipped, &bound});
    }
    // Single moves until none helps, then the moves of a boundary with all after it; after a
    // move that helped, single moves again.
    bool suffixes = false;
    for (;;) {
        bool improved = false;
        for (int k = 0; k < bounds; ++k) {
            const int last = suffixes ? bounds - 1 : k;
            if (suffixes && last == k) {
                continue; // the same as the single move, already tried
            }
            for (int delta : {-1, 1}) {
                v1::Layout l = c.layout;
                if (shiftBoundaries(l, k, last, delta) &&
                    tryMove(ctx, costs, goal, l, c, bound, stats)) {
                    improved = true;
                }
            }
        }
        if (!improved && suffixes) {
            return;
        }
        suffixes = !improved;
    }
}

} // namespace

Result<std::vector<RankedPlan>> autoPlan(const PlanModel& model, const PlanCluster& cluster,
                                         const PlanOptions& options, const AutoPlanGoal& goal,
                                         const std::vector<NodeCalibration>& calibration,
                                         AutoPlanStats* stats) {
    AutoPlanStats local;
    AutoPlanStats& st = stats ? *stats : local;
    st = {};
    if (model.layers.empty()) {
        return fail(ErrorCode::InvalidArgument, "model '" + model.name + "' has no layers");
    }
    if (cluster.deviceCount() < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "the cluster has no devices: add a node with at least one device");
    }
    PlanOptions base = options;
    base.zeroStage = 0; // enumerated, carried in the layout
    SaverContexts savers;
    if (Result<void> r = savers.prepare(model, cluster, base, goal, calibration); !r) {
        return relay(r);
    }
    std::vector<Candidate> all = searchLayouts(model, cluster, options, goal, savers, st);
    // Scores equal up to rounding (16 micro-batches of x/16 against one of x) tie, compared as
    // floats (a key, so the order stays a strict weak one); a tie goes to the simpler layout:
    // fewer ranks, then fewer micro-batches.
    const auto key = [](const Candidate& c) {
        return std::make_tuple(static_cast<float>(c.score), static_cast<float>(c.est.stepSeconds),
                               c.est.ranks, c.layout.micro_batches(), c.savers.rank());
    };
    const auto better = [&](const Candidate& a, const Candidate& b) {
        return key(a) < key(b);
    };
    std::sort(all.begin(), all.end(), better);
    // Refine the leaders' boundaries, then keep the best variant per (DP, TP, PP, m) so that
    // the list shows different layouts, not the same one with another schedule or ZeRO stage.
    const std::size_t top = std::size_t(std::max(1, goal.top));
    for (std::size_t i = 0; i < std::min(all.size(), detail::leaderCount(goal)); ++i) {
        const Savers& sv = all[i].savers;
        refine(savers.context(sv), savers.costs(sv, detail::widthsOf(all[i].layout)), goal, all[i],
               st);
    }
    std::sort(all.begin(), all.end(), better);
    std::vector<RankedPlan> out;
    std::vector<detail::LayoutKey> seen;
    for (const Candidate& c : all) {
        const detail::LayoutKey key = detail::layoutKey(c.layout);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            continue;
        }
        seen.push_back(key);
        RankedPlan r;
        r.layout = c.layout;
        r.options = options;
        r.options.zeroStage = c.zero;
        r.options.recompute = c.savers.recompute;
        r.options.sequenceParallel = c.savers.sp;
        r.estimate = c.est;
        const Estimate& e = c.est;
        const std::string what = describeLayout(c.layout, c.zero, c.savers);
        if (out.empty()) {
            r.reason = detail::plannerText(
                goal.kind == AutoPlanGoal::Fastest
                    ? QT_TRANSLATE_NOOP("tessera::planner",
                                        "fastest that fits: %1; %2 per step, bubble %3 %, MFU %4 %")
                    : QT_TRANSLATE_NOOP("tessera::planner", "cheapest within the deadline: %1; "
                                                            "%2 per step, bubble %3 %, MFU %4 %"),
                {QString::fromStdString(what), detail::duration(e.stepSeconds),
                 num(std::llround(100 * e.bubbleFraction)), num(std::llround(100 * e.mfu))});
        } else {
            const Candidate& b = all.front();
            const long long rel = std::llround(100.0 * (c.score / b.score - 1.0));
            const std::string extra = biggestExtra(e, b.est);
            const QString place = num(static_cast<long long>(out.size()) + 1);
            if (extra.empty() && rel == 0) {
                r.reason = detail::plannerText(
                    QT_TRANSLATE_NOOP("tessera::planner", "#%1 %2: ties with #1"),
                    {place, QString::fromStdString(what)});
            } else {
                r.reason = detail::plannerText(
                    goal.kind == AutoPlanGoal::Fastest
                        ? QT_TRANSLATE_NOOP("tessera::planner", "#%1 %2: +%3 % step time: %4")
                        : QT_TRANSLATE_NOOP("tessera::planner", "#%1 %2: +%3 % cost: %4"),
                    {place, QString::fromStdString(what), num(rel),
                     QString::fromStdString(extra.empty() ? describeTotal(e, b.est) : extra)});
            }
            if (goal.kind != AutoPlanGoal::Fastest && e.ranks != b.est.ranks) {
                r.reason +=
                    detail::plannerText(QT_TRANSLATE_NOOP("tessera::planner", "; %1 devices vs %2"),
                                        {num(e.ranks), num(b.est.ranks)});
            }
        }
        out.push_back(std::move(r));
        if (out.size() >= top) {
            break;
        }
    }
    return out;
}

} // namespace tessera::planner
