// Pre-launch layout checks (see layout_check.h).
#include "worker/common/layout_check.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tessera {

namespace {

std::string layerName(const ModelDesc& desc, int i) {
    return "layer " + std::to_string(i) + " (" + desc.layers[std::size_t(i)].name + ")";
}

Result<void> checkScalars(const v1::Layout& l) {
    if (l.data_parallel() < 1) {
        return fail(ErrorCode::InvalidArgument, "layout.dataParallel is " +
                                                    std::to_string(l.data_parallel()) +
                                                    ": a job needs at least 1 rank");
    }
    if (l.tensor_parallel() < 0) {
        return fail(ErrorCode::InvalidArgument, "layout.tensorParallel cannot be negative");
    }
    if (l.micro_batches() < 0) {
        return fail(ErrorCode::InvalidArgument, "layout.microBatches cannot be negative");
    }
    if (l.zero_stage() != 0 && l.zero_stage() != 1) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.zeroStage is " + std::to_string(l.zero_stage()) +
                        ": Tessera supports 0 (none) and 1 (optimizer state sharded across "
                        "data-parallel ranks)");
    }
    if (l.expert_parallel() > 1 || l.context_parallel() > 1) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.expertParallel / contextParallel: the built-in models have no "
                    "experts and tessera-train no context parallelism; leave them at 1");
    }
    if (!(l.bucket_mb() >= 0.0) || !std::isfinite(l.bucket_mb())) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.bucketMb must be a number >= 0 (0 = the default 25 MB)");
    }
    return {};
}

Result<void> checkStages(const v1::Layout& l, const ModelDesc& desc) {
    const int n = int(desc.layers.size());
    int expected = 0; // first layer the next stage must start with
    for (int k = 0; k < l.stages_size(); ++k) {
        const auto& s = l.stages(k);
        const std::string stage = "layout.stages[" + std::to_string(k) + "]";
        if (s.first_layer() > s.last_layer()) {
            return fail(ErrorCode::InvalidArgument,
                        stage + " is empty (firstLayer " + std::to_string(s.first_layer()) +
                            " > lastLayer " + std::to_string(s.last_layer()) +
                            "): give every stage at least one layer or remove it");
        }
        if (s.first_layer() < 0 || s.last_layer() >= n) {
            return fail(ErrorCode::InvalidArgument,
                        stage + " reaches outside the model: layers are 0.." +
                            std::to_string(n - 1) + " for this " + desc.family);
        }
        if (s.first_layer() > expected) {
            return fail(ErrorCode::InvalidArgument,
                        layerName(desc, expected) + " is in no stage: " + stage +
                            " starts at layer " + std::to_string(s.first_layer()));
        }
        if (s.first_layer() < expected) {
            return fail(ErrorCode::InvalidArgument,
                        layerName(desc, s.first_layer()) + " is in two stages (" + stage +
                            " and the one before it): stages must be consecutive ranges");
        }
        expected = s.last_layer() + 1;
    }
    if (l.stages_size() > 0 && expected < n) {
        return fail(ErrorCode::InvalidArgument,
                    layerName(desc, expected) + " is in no stage: the last stage ends at layer " +
                        std::to_string(expected - 1) + " of " + std::to_string(n - 1));
    }
    return {};
}

Result<void> checkTensorParallel(const v1::Layout& l, const ModelDesc& desc) {
    const int tp = l.tensor_parallel() < 1 ? 1 : l.tensor_parallel();
    if (tp == 1) {
        return {};
    }
    for (std::size_t i = 0; i < desc.layers.size(); ++i) {
        for (const std::int64_t w : desc.layers[i].tpDivides) {
            if (w % tp != 0) {
                return fail(ErrorCode::InvalidArgument,
                            layerName(desc, int(i)) + " splits a width of " + std::to_string(w) +
                                " (attention heads or hidden units) that is not divisible by "
                                "layout.tensorParallel " +
                                std::to_string(tp) +
                                ": choose a tensor-parallel width that "
                                "divides it");
            }
        }
    }
    return {};
}

} // namespace

Result<void> validateLayout(const v1::Layout& layout, const ModelDesc& desc, int globalBatch) {
    if (auto r = checkScalars(layout); !r) {
        return r;
    }
    if (auto r = checkStages(layout, desc); !r) {
        return r;
    }
    if (auto r = checkTensorParallel(layout, desc); !r) {
        return r;
    }
    const int micro = layout.micro_batches() < 1 ? 1 : layout.micro_batches();
    const int v = std::max(1, layout.virtual_stages());
    const int ranks = layout.stages_size() > 0 ? layout.stages_size() / v : 1;
    if (layout.schedule() == v1::PIPELINE_SCHEDULE_INTERLEAVED && micro % ranks != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.microBatches (" + std::to_string(micro) +
                        ") must be a multiple of the " + std::to_string(ranks) +
                        " pipeline ranks under the interleaved schedule (Megatron-LM's rule)");
    }
    const int local = globalBatch / layout.data_parallel();
    if (micro > 1 && (local < micro || local % micro != 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.microBatches (" + std::to_string(micro) +
                        ") must divide the per-replica batch (training.globalBatch " +
                        std::to_string(globalBatch) + " / dataParallel " +
                        std::to_string(layout.data_parallel()) + " = " + std::to_string(local) +
                        ")");
    }
    return {};
}

} // namespace tessera
