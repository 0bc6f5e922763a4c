// Peak matrix-product FLOP/s of known NVIDIA devices, for achieved-FLOP/s and MFU metrics.
#include "worker/train/cuda/cuda_ops.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace tessera::train {
namespace {

struct DevicePeak {
    std::string_view key; ///< lower-case substring of cudaDeviceProp::name
    double fp32;          ///< FP32 CUDA cores, FLOP/s
    double tf32;          ///< TF32 tensor cores, dense (without structured sparsity), FLOP/s
};

constexpr double T = 1e12;

// Sources (NVIDIA datasheets; TF32 tensor figures are printed "with sparsity", dense is half):
// * A100 Tensor Core GPU datasheet (SXM4 and PCIe, 40 and 80 GB): FP32 19.5 TF, TF32 156 TF.
// * H100 Tensor Core GPU datasheet: SXM FP32 67 TF, TF32 989/2 TF; PCIe FP32 51 TF,
//   TF32 756/2 TF; NVL FP32 60 TF, TF32 835/2 TF.
// * H200 Tensor Core GPU datasheet: SXM FP32 67 TF, TF32 989/2 TF; NVL FP32 60 TF,
//   TF32 835/2 TF.
// * L40S datasheet: FP32 91.6 TF, TF32 183 TF (366 with sparsity).
// * NVIDIA Ada GPU architecture whitepaper, GeForce RTX 4090: FP32 82.6 TF, TF32 tensor 82.6 TF
//   (165.2 with sparsity).
// More specific names come first ("h100 nvl" before "h100").
constexpr DevicePeak kPeaks[] = {
    {"a100", 19.5 * T, 156.0 * T},
    {"h100 nvl", 60.0 * T, 835.0 / 2 * T},
    {"h100 pcie", 51.0 * T, 756.0 / 2 * T},
    {"h100", 67.0 * T, 989.0 / 2 * T}, // SXM: "NVIDIA H100 80GB HBM3"
    {"h200 nvl", 60.0 * T, 835.0 / 2 * T},
    {"h200", 67.0 * T, 989.0 / 2 * T},
    {"l40s", 91.6 * T, 183.0 * T},
    {"rtx 4090", 82.6 * T, 82.6 * T},
};

} // namespace

double cudaPeakFlops(const std::string& deviceName, bool tf32) {
    std::string name = deviceName;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const DevicePeak& p : kPeaks) {
        if (name.find(p.key) != std::string::npos) {
            return tf32 ? p.tf32 : p.fp32;
        }
    }
    return 0.0;
}

} // namespace tessera::train
