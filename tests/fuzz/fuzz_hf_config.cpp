// Fuzz target: Hugging Face config.json import (the designer's "Import config.json"), then what
// the designer does with the model at once: an estimate of it on one 8-GPU node, data parallel.
#include "backend/planner/planner.h"
#include "tests/fuzz/fuzz_input.h"

#include <cmath>

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = fuzz::inputText(data, size);
    Result<planner::PlanModel> model = planner::modelFromHfConfig(text);
    if (!model) {
        return 0;
    }
    (void)model->params();
    planner::PlanCluster cluster;
    cluster.nodes.push_back({"node0", "h100-sxm", 8, 0});
    v1::Layout layout;
    layout.set_data_parallel(8);
    layout.set_tensor_parallel(1);
    Result<planner::Estimate> est = planner::estimate(*model, cluster, layout, {});
    if (est && (!std::isfinite(est->stepSeconds) || est->stepSeconds < 0)) {
        __builtin_trap(); // a step time the designer would print as nan or negative
    }
    return 0;
}
