// describeModel(): the layer list of the built-in MLP, ViT and GPT with per-layer parameter
// counts, forward FLOPs and activation bytes (the formulas the engine's layers report in cost()).
#include "worker/common/model_desc.h"

#include <string>

namespace tessera {

std::int64_t ModelDesc::params() const {
    std::int64_t n = 0;
    for (const auto& l : layers) {
        n += l.params;
    }
    return n;
}

namespace {

constexpr int kImageSide = 28; // Fashion-MNIST
constexpr int kImagePixels = kImageSide * kImageSide;
constexpr int kClasses = 10;

Failure bad(const std::string& message) {
    return fail(ErrorCode::InvalidArgument, message);
}

LayerDesc linearDesc(std::string name, std::int64_t in, std::int64_t out, std::int64_t tokens) {
    // Params W (out, in) + b (out); 2·in·out FLOPs per token; output only (no cache).
    return {std::move(name),  "linear",
            in * out + out,   2.0 * double(in) * double(out) * double(tokens),
            4 * tokens * out, {}};
}

LayerDesc layerNormDesc(std::string name, std::int64_t C, std::int64_t tokens) {
    // weight + bias; output (T, C) plus mean and rstd per token.
    return {std::move(name), "layer_norm", 2 * C, 0.0, 4 * (tokens * C + 2 * tokens), {}};
}

/// Pre-LN transformer block (see TransformerBlock): params 4C² + 2CM + 9C + M;
/// FLOPs per sample T·(8C² + 4CM) + 4T²C (q·kᵀ and att·v, full T×T even when causal);
/// cache ln1 out, ln1 stats, q, k, v, attention probs, merged heads, x + attn, ln2 out, ln2
/// stats, fc pre-activation = 7TC + 4T + HT² + TM floats, plus the output TC.
LayerDesc blockDesc(std::string name, std::int64_t T, std::int64_t C, std::int64_t H,
                    std::int64_t M) {
    LayerDesc d;
    d.name = std::move(name);
    d.kind = "block";
    d.params = 4 * C * C + 2 * C * M + 9 * C + M;
    d.forwardFlopsPerSample =
        double(T) * (8.0 * double(C) * double(C) + 4.0 * double(C) * double(M)) +
        4.0 * double(T) * double(T) * double(C);
    d.activationBytesPerSample = 4 * (T * C + 7 * T * C + 4 * T + H * T * T + T * M);
    d.tpDivides = {H, M};
    return d;
}

Result<ModelDesc> describeMlp(const v1::ModelSpec& m) {
    ModelDesc d;
    d.family = "mlp";
    d.inputSize = kImagePixels;
    d.classes = kClasses;
    std::vector<std::int64_t> widths{kImagePixels};
    for (int i = 0; i < m.hidden_size(); ++i) {
        if (m.hidden(i) < 1) {
            return bad("model.hidden[" + std::to_string(i) + "] is " + std::to_string(m.hidden(i)) +
                       "; hidden widths must be at least 1");
        }
        widths.push_back(m.hidden(i));
    }
    widths.push_back(kClasses);
    const int nLinear = int(widths.size()) - 1;
    for (int j = 0; j < nLinear; ++j) {
        const std::int64_t in = widths[std::size_t(j)];
        const std::int64_t out = widths[std::size_t(j) + 1];
        LayerDesc lin = linearDesc("linear" + std::to_string(j), in, out, 1);
        const bool column = j % 2 == 0 && j + 1 < nLinear;
        const bool row = j % 2 == 1;
        if (column) {
            lin.tpDivides = {out};
        } else if (row) {
            lin.tpDivides = {in};
        }
        d.layers.push_back(lin);
        if (j + 1 < nLinear) {
            LayerDesc relu{"relu" + std::to_string(j), "relu", 0, 0.0, 4 * out, {}};
            if (column) {
                relu.tpDivides = {out};
            }
            d.layers.push_back(relu);
        }
    }
    return d;
}

/// Checks dim, blocks, heads, mlp_dim shared by ViT and GPT; returns the MLP width.
Result<std::int64_t> checkTransformer(const v1::ModelSpec& m) {
    if (m.dim() < 1) {
        return bad("model.dim must be at least 1 (got " + std::to_string(m.dim()) + ")");
    }
    if (m.blocks() < 1) {
        return bad("model.blocks must be at least 1 (got " + std::to_string(m.blocks()) + ")");
    }
    if (m.heads() < 1) {
        return bad("model.heads must be at least 1 (got " + std::to_string(m.heads()) + ")");
    }
    if (m.dim() % m.heads() != 0) {
        return bad("model.dim " + std::to_string(m.dim()) + " is not divisible by model.heads " +
                   std::to_string(m.heads()));
    }
    if (m.mlp_dim() < 0) {
        return bad("model.mlpDim must be 0 (= 4 × dim) or positive (got " +
                   std::to_string(m.mlp_dim()) + ")");
    }
    return m.mlp_dim() == 0 ? 4 * std::int64_t(m.dim()) : std::int64_t(m.mlp_dim());
}

Result<ModelDesc> describeVit(const v1::ModelSpec& m) {
    auto M = checkTransformer(m);
    if (!M) {
        return relay(M);
    }
    if (m.patch() < 1 || kImageSide % m.patch() != 0) {
        return bad("model.patch " + std::to_string(m.patch()) +
                   " must divide the 28-pixel image side (1, 2, 4, 7, 14 or 28)");
    }
    const std::string& pooling = m.pooling();
    if (!pooling.empty() && pooling != "cls" && pooling != "mean") {
        return bad("model.pooling '" + pooling + "' is not 'cls' or 'mean'");
    }
    const bool cls = pooling != "mean";
    const std::int64_t C = m.dim();
    const std::int64_t P = m.patch();
    const std::int64_t N = (kImageSide / P) * (kImageSide / P);
    const std::int64_t T = N + (cls ? 1 : 0);
    ModelDesc d;
    d.family = "vit";
    d.inputSize = kImagePixels;
    d.classes = kClasses;
    // Patch projection (P², C) + bias, class token, position embedding (T, C).
    d.layers.push_back({"patch_embedding",
                        "patch_embedding",
                        P * P * C + C + (cls ? C : 0) + T * C,
                        2.0 * double(N) * double(P * P) * double(C),
                        4 * T * C,
                        {}});
    for (int i = 0; i < m.blocks(); ++i) {
        d.layers.push_back(blockDesc("block" + std::to_string(i), T, C, m.heads(), *M));
    }
    d.layers.push_back(layerNormDesc("ln_f", C, T));
    d.layers.push_back({"pool", "pool", 0, 0.0, 4 * C, {}});
    d.layers.push_back(linearDesc("head", C, kClasses, 1));
    return d;
}

Result<ModelDesc> describeGpt(const v1::ModelSpec& m, int vocab) {
    auto M = checkTransformer(m);
    if (!M) {
        return relay(M);
    }
    if (m.context() < 1) {
        return bad("model.context must be at least 1 token (got " + std::to_string(m.context()) +
                   ")");
    }
    if (m.vocab_size() < 0) {
        return bad("model.vocabSize must be 0 (the text's characters) or positive");
    }
    const std::int64_t V =
        vocab > 0 ? vocab : (m.vocab_size() > 0 ? m.vocab_size() : kDefaultVocab);
    const std::int64_t C = m.dim();
    const std::int64_t T = m.context();
    ModelDesc d;
    d.family = "gpt";
    d.inputSize = T;
    d.rowsPerSample = int(T);
    d.classes = int(V);
    d.layers.push_back({"embedding", "embedding", (V + T) * C, 0.0, 4 * T * C, {}});
    for (int i = 0; i < m.blocks(); ++i) {
        d.layers.push_back(blockDesc("block" + std::to_string(i), T, C, m.heads(), *M));
    }
    d.layers.push_back(layerNormDesc("ln_f", C, T));
    d.layers.push_back(linearDesc("head", C, V, T));
    return d;
}

} // namespace

Result<ModelDesc> describeModel(const v1::ModelSpec& model, int vocab) {
    if (model.family() == "mlp") {
        return describeMlp(model);
    }
    if (model.family() == "vit") {
        return describeVit(model);
    }
    if (model.family() == "gpt") {
        return describeGpt(model, vocab);
    }
    return bad("model.family '" + model.family() + "' is not one of mlp, vit, gpt");
}

} // namespace tessera
