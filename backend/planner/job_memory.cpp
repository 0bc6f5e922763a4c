// peakDeviceMemory: the planner's per-device memory for a job spec as written (see planner.h).
#include "backend/planner/planner.h"
#include "worker/common/spec_io.h"

#include <algorithm>

namespace tessera::planner {

Result<double> peakDeviceMemory(const v1::JobSpec& spec, const std::string& deviceId) {
    if (spec.model().command_size() > 0) {
        return fail(ErrorCode::InvalidArgument,
                    "job '" + spec.name() +
                        "' runs a user command: the planner cannot estimate its memory");
    }
    const std::string id = !deviceId.empty()                  ? deviceId
                           : spec.layout().device() == "cuda" ? "h100-sxm"
                                                              : "cpu";
    if (findDevice(id) == nullptr) {
        return fail(ErrorCode::NotFound, "unknown device id '" + id + "'");
    }
    Result<PlanModel> model = modelFromSpec(spec.model(), spec.model().vocab_size());
    if (!model) {
        return relay(model);
    }
    PlanCluster cluster;
    const int world = worldSize(spec.layout());
    for (int i = 0; i < world; ++i) {
        cluster.nodes.push_back({"rank" + std::to_string(i), id, 1, 0.0});
    }
    PlanOptions options;
    if (spec.training().global_batch() > 0) {
        options.globalBatch = spec.training().global_batch();
    }
    // The engine's default optimizer is momentum SGD (job.proto TrainingSpec.optimizer).
    options.optimizer = spec.training().optimizer() == "adamw" ? "adamw" : "sgd";
    options.zeroStage = spec.layout().zero_stage();
    Result<Estimate> e = estimate(*model, cluster, spec.layout(), options);
    if (!e) {
        return relay(e);
    }
    double peak = 0;
    for (const DeviceEstimate& d : e->devices) {
        if (d.rank >= 0) {
            peak = std::max(peak, d.total());
        }
    }
    return peak;
}

} // namespace tessera::planner
