// Builds the layers of a built-in model (MLP, ViT, GPT) for one pipeline stage and one
// tensor-parallel rank, following the layer list of describeModel() (worker/common/model_desc.h).
#pragma once

#include "worker/common/model_desc.h"
#include "worker/train/nn/layer.h"
#include "worker/train/nn/ops.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::train {

/// Seed of layer `index` (0-based, in the full model's list) for a spec seed:
/// splitmix64(seed + 0x9E3779B97F4A7C15 · (index + 1)). Layout-independent.
std::uint64_t layerSeed(std::uint64_t seed, int index);

/// Layers first..last (inclusive indices into desc.layers) of the model `spec` describes, built
/// over `ops` for TP rank `tp`. `desc` comes from describeModel(spec, vocab). The layers are not
/// bound to parameter memory yet (the caller allocates Σ paramCount() and calls bind()).
/// Errors: InvalidArgument when the range is empty/out of bounds or a TP-split width is not
/// divisible by tp.size (naming the layer and the width).
Result<std::vector<std::unique_ptr<Layer>>> buildLayers(const v1::ModelSpec& spec,
                                                        const ModelDesc& desc, int first, int last,
                                                        Ops& ops, TpContext tp);

} // namespace tessera::train
