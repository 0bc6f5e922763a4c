// A GPU's compute time from the shapes of what it runs: each GEMM against the roofline with
// tile and wave quantization, fused attention at its kernel's measured share of the peak, and
// memory-bound kernels at the memory bandwidth (the device's figures: DeviceType::Kernels).
#include "backend/planner/estimate_parts.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <unordered_map>

namespace tessera::planner::detail {

namespace {

/// Output tiles cuBLAS and CUTLASS choose from for large BF16/FP8 GEMMs (NVIDIA, "Matrix
/// Multiplication Background User's Guide" §2.3: 256×128, 128×256, 128×128, 256×64, 64×256,
/// 128×64, 64×128, 64×64; larger tiles reuse more data but leave more of the last wave idle).
/// Each main-loop step consumes 64 of the reduction (k) dimension.
constexpr int kTiles[][2] = {{256, 128}, {128, 256}, {128, 128}, {256, 64},
                             {64, 256},  {128, 64},  {64, 128},  {64, 64}};
constexpr double kTileK = 64;

double gemmPeak(const DeviceType& type, const std::string& precision) {
    if (precision == "fp8" && type.peakFp8 > 0) {
        return type.peakFp8 * type.kernels.gemmFp8;
    }
    return peakFlops(type, precision) * type.kernels.gemmBf16;
}

/// gemmSeconds without its cache.
double gemmTime(const DeviceType& type, const std::string& precision, double m, double n,
                double k) {
    // Tile and wave quantization (the guide's §3): ⌈m/tm⌉·⌈n/tn⌉ tiles run in waves of one per
    // SM; every tile of a wave takes as long as a full one, k rounded up to the main loop's step.
    const double sms = type.kernels.sms;
    const double perSm = gemmPeak(type, precision) / sms;
    const double steps = std::ceil(k / kTileK);
    double compute = 1e300;
    for (const auto& t : kTiles) {
        const double tiles = std::ceil(m / t[0]) * std::ceil(n / t[1]);
        const double waves = std::ceil(tiles / sms);
        compute = std::min(compute, waves * 2.0 * t[0] * t[1] * kTileK * steps / perSm);
    }
    // The roofline's other side: both operands read and the result written once.
    const double elem = precision == "fp8" ? 1.0 : (precision == "bf16" ? 2.0 : 4.0);
    const double bytes = (m * k + k * n + m * n) * elem;
    return std::max(compute, bytes / (type.memoryBw * type.kernels.memory));
}

/// gemmSeconds' answers by (device, precision, shape): auto-plan asks the same few shapes for
/// thousands of layouts.
struct GemmKey {
    const DeviceType* type;
    bool fp8;
    double m, n, k;
    bool operator==(const GemmKey&) const = default;
};
struct GemmKeyHash {
    std::size_t operator()(const GemmKey& g) const {
        std::size_t h = std::hash<const void*>()(g.type) ^ (g.fp8 ? 0x9e3779b9u : 0u);
        for (double x : {g.m, g.n, g.k}) {
            h = h * 1000003u ^ std::hash<double>()(x);
        }
        return h;
    }
};

} // namespace

double gemmSeconds(const DeviceType& type, const std::string& precision, double m, double n,
                   double k) {
    if (m <= 0 || n <= 0 || k <= 0) {
        return 0.0;
    }
    thread_local std::unordered_map<GemmKey, double, GemmKeyHash> cache;
    thread_local std::string cachedPrecision;
    if (precision != cachedPrecision || cache.size() > 65536) {
        cache.clear();
        cachedPrecision = precision;
    }
    const GemmKey key{&type, precision == "fp8", m, n, k};
    if (const auto it = cache.find(key); it != cache.end()) {
        return it->second;
    }
    const double t = gemmTime(type, precision, m, n, k);
    cache.emplace(key, t);
    return t;
}

namespace {

/// Forward and backward (input gradient: m × n by n × k; weight gradient: k × m by m × n)
/// seconds of one rank's GEMM for `b` samples.
std::pair<double, double> gemmPasses(const DeviceType& type, const std::string& precision,
                                     const RankGemm& g, double b) {
    const double m = g.batched ? g.rows : g.rows * b;
    const double count = g.batched ? g.count * b : g.count;
    const double fwd = gemmSeconds(type, precision, m, g.n, g.k);
    const double bwd =
        gemmSeconds(type, precision, m, g.k, g.n) + gemmSeconds(type, precision, g.k, g.n, m);
    return {count * fwd, count * bwd};
}

} // namespace

ShapeSeconds stageShapeSeconds(const Context& ctx, const DeviceType& type, const StageSum& s,
                               double b) {
    ShapeSeconds out;
    for (const RankGemm& g : s.gemms) {
        const auto [f, w] = gemmPasses(type, ctx.precision, g, b);
        out.fwd += f, out.bwd += w;
    }
    const double memory = type.memoryBw * type.kernels.memory;
    out.fwd += s.kernelBytes * b / memory; // memory-bound kernels
    out.bwd += s.kernelBwdBytes * b / memory;
    // Fused attention (its FLOPs at the kernel's share of the 16-bit peak: FP8 recipes keep
    // attention in BF16); the backward is 2.5× the forward's FLOPs (Dao 2023 §4.1).
    const double attnPeak = peakFlops(type, ctx.precision == "fp8" ? "bf16" : ctx.precision);
    out.attnFwd = s.attnExec * b / (attnPeak * type.kernels.attnFwd);
    out.attnBwd = 2.5 * s.attnExec * b / (attnPeak * type.kernels.attnBwd);
    out.fwd += out.attnFwd, out.bwd += out.attnBwd;
    const std::string& rc = ctx.options.recompute;
    if (rc == "full") {
        out.bwd += out.fwd; // the whole forward again (Chen et al. 2016)
    } else if (rc == "selective") {
        // Korthikanti et al. 2022 §5: the unfused scores' GEMMs and softmax again.
        for (const RankGemm& g : s.recomputeGemms) {
            out.bwd += gemmPasses(type, ctx.precision, g, b).first;
        }
        out.bwd += s.recomputeBytes * b / memory;
    }
    return out;
}

} // namespace tessera::planner::detail
