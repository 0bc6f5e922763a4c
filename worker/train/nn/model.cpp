// buildLayers(): the built-in MLP, ViT and GPT as layer lists (see model.h), one pipeline
// stage's range on one tensor-parallel rank; layerSeed() for their deterministic init.
#include "worker/train/nn/model.h"

#include "worker/train/nn/activation_layer.h"
#include "worker/train/nn/attention_layer.h"
#include "worker/train/nn/embedding_layer.h"
#include "worker/train/nn/layer_norm_layer.h"
#include "worker/train/nn/linear_layer.h"
#include "worker/train/nn/patch_embedding_layer.h"
#include "worker/train/nn/pool_layer.h"
#include "worker/train/nn/transformer_block.h"

#include <string>

namespace tessera::train {

std::uint64_t layerSeed(std::uint64_t seed, int index) {
    // splitmix64 (Steele, Lea & Flood 2014) output function of the index-th state.
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * std::uint64_t(index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

constexpr int kImageSide = 28;
constexpr int kClasses = 10;

Failure bad(const std::string& message) {
    return fail(ErrorCode::InvalidArgument, message);
}

/// Layer `index` of an MLP with widths 784, hidden..., 10 (see describeModel).
Result<std::unique_ptr<Layer>> mlpLayer(const v1::ModelSpec& spec, int index, Ops& ops,
                                        TpContext tp) {
    std::vector<int> widths{kImageSide * kImageSide};
    for (int h : spec.hidden()) {
        widths.push_back(h);
    }
    widths.push_back(kClasses);
    const int nLinear = int(widths.size()) - 1;
    const int j = index / 2;
    const bool column = j % 2 == 0 && j + 1 < nLinear;
    const bool row = j % 2 == 1;
    const int in = widths[std::size_t(j)];
    const int out = widths[std::size_t(j) + 1];
    if (index % 2 == 0) {
        const LinearMode mode = column ? LinearMode::ColumnParallel
                                : row  ? LinearMode::RowParallel
                                       : LinearMode::Replicated;
        return std::make_unique<LinearLayer>(ops, "linear" + std::to_string(j), in, out, 1, mode,
                                             LinearInit::TorchDefault, tp);
    }
    return std::make_unique<ActivationLayer>(ops, Activation::Relu, "relu" + std::to_string(j),
                                             column ? out / tp.size : out);
}

/// Layer `index` of a ViT or GPT (see describeModel).
std::unique_ptr<Layer> transformerLayer(const v1::ModelSpec& spec, const ModelDesc& desc, int index,
                                        Ops& ops, TpContext tp) {
    const LayerDesc& d = desc.layers[std::size_t(index)];
    const bool gpt = desc.family == "gpt";
    const int C = spec.dim();
    const int M = spec.mlp_dim() == 0 ? 4 * C : spec.mlp_dim();
    const bool cls = spec.pooling() != "mean";
    const int T = gpt ? spec.context()
                      : (kImageSide / spec.patch()) * (kImageSide / spec.patch()) + (cls ? 1 : 0);
    if (d.kind == "embedding") {
        return std::make_unique<EmbeddingLayer>(ops, d.name, desc.classes, T, C);
    }
    if (d.kind == "patch_embedding") {
        return std::make_unique<PatchEmbeddingLayer>(ops, d.name, kImageSide, spec.patch(), C, cls);
    }
    if (d.kind == "block") {
        return std::make_unique<TransformerBlock>(ops, d.name, T, C, spec.heads(), M,
                                                  gpt ? AttentionMask::Causal : AttentionMask::None,
                                                  tp);
    }
    if (d.kind == "layer_norm") {
        return std::make_unique<LayerNormLayer>(ops, d.name, C, T);
    }
    if (d.kind == "pool") {
        return std::make_unique<PoolLayer>(ops, d.name, T, C,
                                           cls ? PoolMode::ClassToken : PoolMode::Mean);
    }
    // "head": replicated under TP; GPT per token (B, T, V), ViT per sample (B, 10).
    return std::make_unique<LinearLayer>(ops, d.name, C, desc.classes, gpt ? T : 1,
                                         LinearMode::Replicated, LinearInit::Normal, tp);
}

} // namespace

Result<std::vector<std::unique_ptr<Layer>>> buildLayers(const v1::ModelSpec& spec,
                                                        const ModelDesc& desc, int first, int last,
                                                        Ops& ops, TpContext tp) {
    const int n = int(desc.layers.size());
    if (first < 0 || last < first || last >= n) {
        return bad("layer range " + std::to_string(first) + ".." + std::to_string(last) +
                   " is empty or outside the model's " + std::to_string(n) + " layers");
    }
    if (tp.size < 1 || tp.rank < 0 || tp.rank >= tp.size) {
        return bad("tensor-parallel rank " + std::to_string(tp.rank) + " of " +
                   std::to_string(tp.size) + " is invalid");
    }
    if (tp.size > 1 && tp.comm == nullptr) {
        return bad("tensor parallelism of " + std::to_string(tp.size) +
                   " needs a communicator for the TP group");
    }
    if (desc.family != spec.family()) {
        return bad("model description is for '" + desc.family + "', the spec for '" +
                   spec.family() + "'");
    }
    std::vector<std::unique_ptr<Layer>> layers;
    for (int i = first; i <= last; ++i) {
        const LayerDesc& d = desc.layers[std::size_t(i)];
        for (std::int64_t w : d.tpDivides) {
            if (w % tp.size != 0) {
                return bad("layer " + d.name + ": width " + std::to_string(w) +
                           " is not divisible by the tensor-parallel size " +
                           std::to_string(tp.size));
            }
        }
        if (desc.family == "mlp") {
            auto layer = mlpLayer(spec, i, ops, tp);
            if (!layer) {
                return relay(layer);
            }
            layers.push_back(std::move(*layer));
        } else if (desc.family == "vit" || desc.family == "gpt") {
            layers.push_back(transformerLayer(spec, desc, i, ops, tp));
        } else {
            return bad("model.family '" + desc.family + "' has no layer builder");
        }
    }
    return layers;
}

} // namespace tessera::train
