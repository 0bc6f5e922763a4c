// What a built-in model is made of, without building it: the layer list with each layer's
// parameter count, forward FLOPs and activation bytes per sample. The engine builds exactly this
// list (a test compares these numbers with what it allocates); the spec check and the planner
// read it. No BLAS, MPI or Qt here.
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

/// One entry of a model's layer list (the unit that pipeline stages are made of).
struct LayerDesc {
    std::string name;        ///< "embedding", "block0", "ln_f", "head", "linear0", "relu0", ...
    std::string kind;        ///< "linear", "relu", "embedding", "patch_embedding", "block",
                             ///< "layer_norm", "pool"
    std::int64_t params = 0; ///< parameters (all TP ranks together)
    double forwardFlopsPerSample = 0.0;        ///< 2 per multiply-add, matrix products + attention
    std::int64_t activationBytesPerSample = 0; ///< fp32 output + saved-for-backward, TP = 1
    /// Tensor parallelism: the widths a TP degree must divide (heads and MLP width for a block,
    /// output width for a column-parallel linear); empty = the layer is replicated under TP.
    std::vector<std::int64_t> tpDivides;
};

/// A built-in model's layer list and its data shape.
struct ModelDesc {
    std::string family;            ///< "mlp", "vit", "gpt"
    std::vector<LayerDesc> layers; ///< in order; stages are inclusive index ranges of this
    std::int64_t inputSize = 0;    ///< floats per sample into layer 0 (784, or context tokens)
    int rowsPerSample = 1;         ///< labels per sample (1, or context for gpt)
    int classes = 0;               ///< logits per row (10, or the vocabulary)
    std::int64_t params() const;   ///< Σ layers' params
};

/// Vocabulary size used for a GPT when the text is not known (spec checks, planning).
inline constexpr int kDefaultVocab = 256;

/// The layer list of spec's built-in family. `vocab` > 0 overrides model.vocab_size for gpt
/// (the engine passes the text's character count). MLP: "linear<i>"/"relu<i>" alternating, the
/// last linear producing 10 logits; linear 2i is column-parallel and 2i+1 row-parallel under TP
/// (a trailing odd one is replicated). ViT: "patch_embedding", "block<i>"…, "ln_f", "pool",
/// "head". GPT: "embedding", "block<i>"…, "ln_f", "head".
/// Errors: InvalidArgument naming the field (unknown family, dim % heads != 0, patch not
/// dividing 28, sizes < 1, pooling not cls/mean, context < 1).
Result<ModelDesc> describeModel(const v1::ModelSpec& model, int vocab = 0);

} // namespace tessera
