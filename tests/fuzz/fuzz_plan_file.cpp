// Fuzz target: layout files (*.tessera-plan.json) as the designer opens them: parsePlan, then
// what PlanDocument builds from the file (model from the spec or the imported config.json,
// cluster from the nodes, options from the settings, the drawing's rank → device map) and the
// estimate the designer runs on it, and Launch's checks (launchBlocker, jobSpecFromPlan,
// validateJobSpec), through the same functions PlanDocument calls (planio.h).
#include "app/designer/drawnlayout.h"
#include "app/designer/planio.h"
#include "backend/layout/layoutmath.h"
#include "tests/fuzz/fuzz_input.h"
#include "worker/common/spec_io.h"

using namespace tessera;

namespace {

/// PlanDocument::rebuildModel's choice: the imported config.json, else the built-in's spec.
Result<planner::PlanModel> planModel(const v1::PlanFile& f) {
    if (!f.hf_config_json().empty()) {
        return planner::modelFromHfConfig(f.hf_config_json(), f.seq_len());
    }
    return planner::modelFromSpec(f.model(), f.model().vocab_size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = fuzz::inputText(data, size);
    Result<v1::PlanFile> plan = designer::parsePlan(text, "fuzz.tessera-plan.json");
    if (!plan) {
        return 0;
    }
    (void)designer::launchBlocker(*plan);
    if (Result<v1::JobSpec> spec = designer::jobSpecFromPlan(*plan)) {
        (void)validateJobSpec(*spec);
    }
    Result<planner::PlanModel> model = planModel(*plan);
    if (!model || model->layers.empty()) {
        return 0;
    }
    const planner::PlanCluster cluster = designer::planCluster(*plan);
    const int layers = static_cast<int>(model->layers.size());
    const planner::PlanOptions options = designer::planOptions(
        *plan, designer::effectiveRankDevices(*plan, layers, cluster.deviceCount()));
    (void)planner::estimate(*model, cluster, designer::withExplicitStages(plan->layout(), layers),
                            options);
    return 0;
}
