// SGD/AdamW over a (ZeRO-1 shard of a) stage's flat parameters, and gradient-norm clipping.
#include "worker/train/optimizer.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace tessera::train {

Result<OptimizerConfig> optimizerConfigFrom(const std::string& name, double momentum,
                                            double weightDecay, double beta1, double beta2,
                                            double eps) {
    OptimizerConfig c;
    if (name.empty() || name == "sgd") {
        c.kind = OptimizerConfig::Kind::Sgd;
    } else if (name == "adamw") {
        c.kind = OptimizerConfig::Kind::AdamW;
    } else {
        return fail(ErrorCode::InvalidArgument,
                    "unknown optimizer '" + name + "': use \"sgd\" or \"adamw\"");
    }
    c.momentum = float(momentum);
    c.weightDecay = float(weightDecay);
    c.beta1 = beta1 == 0.0 ? 0.9f : float(beta1);
    c.beta2 = beta2 == 0.0 ? 0.999f : float(beta2);
    c.eps = eps == 0.0 ? 1e-8f : float(eps);
    if (c.momentum < 0.0f || c.weightDecay < 0.0f || c.beta1 < 0.0f || c.beta1 >= 1.0f ||
        c.beta2 < 0.0f || c.beta2 >= 1.0f || c.eps < 0.0f) {
        return fail(ErrorCode::InvalidArgument,
                    "optimizer settings out of range: momentum and weight_decay must be >= 0, "
                    "beta1 and beta2 in [0, 1), eps >= 0");
    }
    return c;
}

std::pair<std::size_t, std::size_t> Optimizer::shardRange(std::size_t n, int rank, int ranks) {
    const std::size_t r = std::size_t(rank);
    const std::size_t d = std::size_t(std::max(ranks, 1));
    const std::size_t base = n / d;
    const std::size_t extra = n % d;
    const std::size_t begin = r * base + std::min(r, extra);
    return {begin, begin + base + (r < extra ? 1 : 0)};
}

Result<std::unique_ptr<Optimizer>> Optimizer::create(const OptimizerConfig& config, Ops& ops,
                                                     float* params, float* grads, std::size_t n,
                                                     Communicator* dp, int zeroStage) {
    if (zeroStage != 0 && zeroStage != 1) {
        return fail(ErrorCode::InvalidArgument,
                    "zero_stage " + std::to_string(zeroStage) + " is not supported: use 0 or 1");
    }
    std::unique_ptr<Optimizer> o(new Optimizer());
    o->m_config = config;
    o->m_ops = &ops;
    o->m_params = params;
    o->m_grads = grads;
    o->m_n = n;
    o->m_begin = 0;
    o->m_end = n;
    if (zeroStage == 1 && dp != nullptr && dp->worldSize() > 1) {
        const int d = dp->worldSize();
        if (n / std::size_t(d) + 1 > std::size_t(INT_MAX) || n > std::size_t(INT_MAX)) {
            return fail(ErrorCode::InvalidArgument,
                        "ZeRO-1: a stage of " + std::to_string(n) +
                            " parameters exceeds MPI's int count limit; use more pipeline "
                            "stages or zero_stage 0");
        }
        o->m_dp = dp;
        for (int r = 0; r < d; ++r) {
            const auto [b, e] = shardRange(n, r, d);
            o->m_counts.push_back(int(e - b));
            o->m_displs.push_back(int(b));
        }
        std::tie(o->m_begin, o->m_end) = shardRange(n, dp->rank(), d);
    }
    const std::size_t len = o->m_end - o->m_begin;
    const bool needsM = config.kind == OptimizerConfig::Kind::AdamW || config.momentum != 0.0f;
    if (needsM && len > 0) {
        o->m_m = ops.alloc(len);
    }
    if (config.kind == OptimizerConfig::Kind::AdamW && len > 0) {
        o->m_v = ops.alloc(len);
    }
    return o;
}

Optimizer::~Optimizer() {
    if (m_m != nullptr) {
        m_ops->release(m_m);
    }
    if (m_v != nullptr) {
        m_ops->release(m_v);
    }
}

std::size_t Optimizer::stateFloats() const {
    const std::size_t len = m_end - m_begin;
    return (m_m != nullptr ? len : 0) + (m_v != nullptr ? len : 0);
}

std::vector<OptimizerState> Optimizer::state() const {
    const std::size_t len = m_end - m_begin;
    std::vector<OptimizerState> s;
    if (m_config.kind == OptimizerConfig::Kind::AdamW) {
        s.push_back({"exp_avg", m_m, len});
        s.push_back({"exp_avg_sq", m_v, len});
    } else if (m_m != nullptr) {
        s.push_back({"momentum", m_m, len});
    }
    return s;
}

Result<void> Optimizer::step(float lr) {
    ++m_step;
    const std::size_t len = m_end - m_begin;
    if (len > 0) {
        float* p = m_params + m_begin;
        const float* g = m_grads + m_begin;
        if (m_config.kind == OptimizerConfig::Kind::AdamW) {
            m_ops->adamwStep(p, g, m_m, m_v, len, lr, m_config.beta1, m_config.beta2, m_config.eps,
                             m_config.weightDecay, m_step);
        } else {
            m_ops->sgdStep(p, g, m_m, len, lr, m_config.momentum, m_config.weightDecay,
                           m_step == 1);
        }
    }
    if (m_dp != nullptr) {
        m_ops->sync(); // the all-gather reads what the update wrote
        return m_dp->allGatherInPlace(m_params, m_counts.data(), m_displs.data());
    }
    return {};
}

Result<double> globalGradNorm(Ops& ops, const float* grads, std::span<const ParamTensor> tensors,
                              int tpRank, Communicator* modelParallel) {
    double sumSq = 0.0;
    for (const ParamTensor& t : tensors) {
        if (t.tpSharded || tpRank == 0) {
            sumSq += ops.sumSquares(grads + t.offset, t.count);
        }
    }
    if (modelParallel != nullptr && modelParallel->worldSize() > 1) {
        if (auto r = modelParallel->allReduceSum(&sumSq, 1); !r) {
            return relay(r);
        }
    }
    return std::sqrt(sumSq);
}

float clipScale(double norm, double maxNorm) {
    if (!(maxNorm > 0.0)) {
        return 1.0f;
    }
    return float(std::min(1.0, maxNorm / (norm + 1e-6)));
}

void applyClip(Ops& ops, float* grads, std::size_t n, float scale) {
    if (scale < 1.0f) {
        ops.scale(grads, scale, n);
    }
}

} // namespace tessera::train
