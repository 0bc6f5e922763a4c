// The device catalog (datasheet numbers, each with its source) and hypothetical clusters
// ("4x8 h100-sxm").
#include "backend/planner/planner.h"
#include "backend/planner/planner_text.h"

#include <QtGlobal>

#include <algorithm>
#include <cctype>
#include <regex>

namespace tessera::planner {

namespace {

constexpr double kGB = 1e9;      // datasheets give decimal GB
constexpr double kGiB = 1 << 30; // host RAM shares
constexpr double kTF = 1e12;

// Inter-node bandwidth per GPU, from the reference systems' NICs:
// * DGX A100 User Guide (docs.nvidia.com/dgx/dgxa100-user-guide, "Hardware Overview"): 8 ×
//   200 Gb/s HDR InfiniBand for 8 GPUs → 25 GB/s per GPU;
// * DGX H100/H200 User Guide (docs.nvidia.com/dgx/dgxh100-user-guide): 8 × 400 Gb/s NDR
//   ConnectX-7 for 8 GPUs → 50 GB/s per GPU;
// * PCIe cards in cloud servers (L40S, RTX 4090): one 100 Gb/s Ethernet NIC per 8-GPU server is
//   the common offer (an assumption, not a datasheet) → 12.5 GB/s / 8 ≈ 1.56 GB/s per GPU.
constexpr double kIbHdrPerGpu = 25 * kGB;
constexpr double kIbNdrPerGpu = 50 * kGB;
constexpr double kEthPerPcieGpu = 12.5 * kGB / 8;

/// Blackwell (B200, GB200) and AMD's MI300X. Datasheets give the tensor peaks with sparsity
/// for whole systems; dense per GPU is half of it, divided by the GPUs.
void addBlackwellAndMi300(std::vector<DeviceType>& c) {
    // NVIDIA HGX B200 (nvidia.com/en-us/data-center/hgx, 8 GPUs): FP8 72 PF, BF16 36 PF, TF32
    // 18 PF with sparsity, FP32 600 TF; 1.4 TB HBM3e (180 GB per GPU), 64 TB/s (8 TB/s per
    // GPU); NVLink 5, 1.8 TB/s per GPU (900 GB/s each way). DGX B200 (docs.nvidia.com/dgx/
    // dgxb200-user-guide): 8 × 400 Gb/s ConnectX-7 → 50 GB/s per GPU.
    c.push_back({"b200", "NVIDIA B200 180 GB", 180 * kGB, 75 * kTF, 1125 * kTF, 2250 * kTF,
                 900 * kGB, kIbNdrPerGpu, 8000 * kGB, true, 4500 * kTF});
    // NVIDIA GB200 NVL72 (nvidia.com/en-us/data-center/gb200-nvl72, 72 GPUs): FP8 720 PF, BF16
    // 360 PF, TF32 180 PF with sparsity, FP32 5,760 TF; 13.4 TB HBM3e (186 GB per GPU), 576 TB/s
    // (8 TB/s per GPU); one NVLink domain of all 72 GPUs at 1.8 TB/s each (900 GB/s each way);
    // a 400 Gb/s NIC per GPU for the scale-out network (50 GB/s).
    c.push_back({"gb200", "NVIDIA GB200 (NVL72) 186 GB", 186 * kGB, 80 * kTF, 1250 * kTF,
                 2500 * kTF, 900 * kGB, kIbNdrPerGpu, 8000 * kGB, true, 5000 * kTF, 72});
    // AMD Instinct MI300X data sheet (amd.com/content/dam/amd/en/documents/instinct-tech-docs/
    // data-sheets/amd-instinct-mi300x-data-sheet.pdf): FP32 matrix 163.4 TF, TF32 653.7 TF,
    // BF16 1,307.4 TF, FP8 2,614.9 TF dense (×2 with sparsity), 192 GB HBM3 5.3 TB/s, Infinity
    // Fabric 896 GB/s peer bandwidth per GPU (448 each way); a 400 Gb/s NIC per GPU as in the
    // MI300X platforms the clouds rent (an assumption, not a datasheet) → 50 GB/s.
    c.push_back({"mi300x", "AMD Instinct MI300X 192 GB", 192 * kGB, 163.4 * kTF, 653.7 * kTF,
                 1307.4 * kTF, 448 * kGB, kIbNdrPerGpu, 5300 * kGB, true, 2614.9 * kTF});
}

/// What each GPU's kernels reach (DeviceType::Kernels), by id.
/// * SMs: NVIDIA A100 Tensor Core GPU Architecture whitepaper (108 SMs), H100 whitepaper (SXM5
///   132, PCIe 114; H200 the same die as H100 SXM), Ada whitepaper (L40S 142, RTX 4090 128),
///   Blackwell: 148 SMs per B200 (two dies of 74; GB200's GPUs are B200s); AMD CDNA 3 white
///   paper: MI300X 304 compute units.
/// * GEMM: Stas Bekman, "Machine Learning Engineering Open Book", compute/accelerator/README.md,
///   "Maximum Achievable Matmul FLOPS comparison table" (mean of 100 matmuls after 50 warm-up,
///   best shape of a search; github.com/stas00/ml-engineering): BF16 A100 SXM 271.2/312 TF
///   (86.9 %), A100 PCIe 81.1 %, H100 SXM 794.5/989 (80.3 %, "H200 is the same"), B200
///   1,745/2,250 (77.6 %), GB200 1,822/2,500 (72.9 %), MI300X 668.4/1,300 (51.4 %); FP8 H100
///   70.9 %, H200 73.4 %, B200 76.3 %, GB200 72.3 % (MI300X FP8 not measured: its BF16 share).
///   Cards the table lacks (H100 PCIe, L40S, RTX 4090) take H100 SXM's figures — an
///   assumption, shown as such.
/// * Attention: Shah et al. 2024, FlashAttention-3 (arXiv 2407.08608) Fig. 5-6, H100 SXM5,
///   head dim 128, sequence 4k: cuDNN forward with causal mask 518 TFLOP/s (0.52 of 989.5),
///   backward 499 (0.50) — what Megatron-LM's Transformer Engine runs on Hopper; Dao 2023,
///   FlashAttention-2 (arXiv 2307.08691) §4.1: A100 forward up to 73 %, backward up to 63 % of
///   312 TFLOP/s. Other GPUs: Hopper's shares (an assumption).
/// * Memory: 0.85 of the datasheet bandwidth for streaming kernels — an assumption (copy and
///   triad kernels reach 85-92 % on HBM parts; element-wise kernels with several inputs less).
void addKernelFigures(std::vector<DeviceType>& c) {
    struct Row {
        const char* id;
        DeviceType::Kernels k;
    };
    constexpr double kMem = 0.85, kHopperFwd = 0.52, kHopperBwd = 0.50;
    const Row rows[] = {
        {"a100-40", {108, 0.869, 0, 0.73, 0.63, kMem}},
        {"a100-80", {108, 0.869, 0, 0.73, 0.63, kMem}},
        {"h100-sxm", {132, 0.803, 0.709, kHopperFwd, kHopperBwd, kMem}},
        {"h100-pcie", {114, 0.803, 0.709, kHopperFwd, kHopperBwd, kMem}},
        {"h200", {132, 0.803, 0.734, kHopperFwd, kHopperBwd, kMem}},
        {"l40s", {142, 0.803, 0.709, kHopperFwd, kHopperBwd, kMem}},
        {"rtx4090", {128, 0.803, 0.709, kHopperFwd, kHopperBwd, kMem}},
        {"b200", {148, 0.776, 0.763, kHopperFwd, kHopperBwd, kMem}},
        {"gb200", {148, 0.729, 0.723, kHopperFwd, kHopperBwd, kMem}},
        {"mi300x", {304, 0.514, 0.514, kHopperFwd, kHopperBwd, kMem}},
    };
    for (DeviceType& d : c) {
        for (const Row& r : rows) {
            if (d.id == r.id) {
                d.kernels = r.k;
            }
        }
    }
}

std::vector<DeviceType> makeCatalog() {
    std::vector<DeviceType> c;
    // CPU rank slot of this kind of machine (2 cores, OpenBLAS SGEMM): ~90 GFLOP/s fp32 per slot
    // as tests/bench/sgemm_peak measures it here, a 4 GiB share of host RAM, ~5 GB/s between
    // slots through Open MPI's shared memory, 10 GbE (1.25 GB/s) between machines, ~10 GB/s of
    // DRAM bandwidth per slot. Rough numbers: calibration (NodeCalibration) replaces them with
    // what probes measure on the real workers.
    c.push_back({"cpu", QT_TRANSLATE_NOOP("tessera::planner", "CPU rank slot"), 4 * kGiB, 90e9, 0,
                 0, 5 * kGB, 1.25 * kGB, 10 * kGB, false});
    // NVIDIA A100 Tensor Core GPU datasheet (nvidia.com/content/dam/en-zz/Solutions/Data-Center/
    // a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf), SXM: FP32 19.5 TF, TF32 156 TF
    // and BF16 312 TF dense (the 312/624 figures are with sparsity), NVLink 600 GB/s
    // (bidirectional → 300 GB/s each way per GPU), HBM2 1,555 GB/s (40 GB), HBM2e 2,039 GB/s
    // (80 GB).
    c.push_back({"a100-40", "NVIDIA A100 SXM 40 GB", 40 * kGB, 19.5 * kTF, 156 * kTF, 312 * kTF,
                 300 * kGB, kIbHdrPerGpu, 1555 * kGB, true});
    c.push_back({"a100-80", "NVIDIA A100 SXM 80 GB", 80 * kGB, 19.5 * kTF, 156 * kTF, 312 * kTF,
                 300 * kGB, kIbHdrPerGpu, 2039 * kGB, true});
    // NVIDIA H100 Tensor Core GPU datasheet (resources.nvidia.com/en-us-tensor-core/
    // nvidia-tensor-core-gpu-datasheet): SXM FP32 67 TF, TF32 494.5 TF, BF16 989.5 TF, FP8
    // 1,979 TF dense (989/1,979/3,958 are with sparsity), 80 GB HBM3 3.35 TB/s, NVLink 900 GB/s
    // (450 each way); PCIe FP32 51 TF, TF32 378 TF, BF16 756 TF, FP8 1,513 TF dense, 80 GB
    // HBM2e 2 TB/s, PCIe Gen5 128 GB/s (64 GB/s each way). H200: the same tensor cores.
    c.push_back({"h100-sxm", "NVIDIA H100 SXM 80 GB", 80 * kGB, 67 * kTF, 494.5 * kTF, 989.5 * kTF,
                 450 * kGB, kIbNdrPerGpu, 3350 * kGB, true, 1979 * kTF});
    c.push_back({"h100-pcie", "NVIDIA H100 PCIe 80 GB", 80 * kGB, 51 * kTF, 378 * kTF, 756 * kTF,
                 64 * kGB, kEthPerPcieGpu, 2000 * kGB, true, 1513 * kTF});
    // NVIDIA H200 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/h200): SXM FP32 67 TF,
    // TF32 494.5 TF, BF16 989.5 TF dense, 141 GB HBM3e 4.8 TB/s, NVLink 900 GB/s.
    c.push_back({"h200", "NVIDIA H200 SXM 141 GB", 141 * kGB, 67 * kTF, 494.5 * kTF, 989.5 * kTF,
                 450 * kGB, kIbNdrPerGpu, 4800 * kGB, true, 1979 * kTF});
    // NVIDIA L40S datasheet (resources.nvidia.com/en-us-l40s/l40s-datasheet-28413): FP32 91.6 TF,
    // TF32 183 TF, BF16 362 TF and FP8 733 TF dense (366/733/1,466 with sparsity), 48 GB GDDR6
    // 864 GB/s, PCIe Gen4 x16 64 GB/s (32 GB/s each way), no NVLink.
    c.push_back({"l40s", "NVIDIA L40S 48 GB", 48 * kGB, 91.6 * kTF, 183 * kTF, 362 * kTF, 32 * kGB,
                 kEthPerPcieGpu, 864 * kGB, true, 733 * kTF});
    // NVIDIA Ada GPU Architecture whitepaper (images.nvidia.com/aem-dam/Solutions/geforce/ada/
    // nvidia-ada-gpu-architecture.pdf), GeForce RTX 4090: FP32 82.6 TF, TF32 tensor 82.6 TF,
    // BF16 tensor with FP32 accumulate 165.2 TF dense, FP8 with FP32 accumulate 330.3 TF dense,
    // 24 GB GDDR6X 1,008 GB/s, PCIe Gen4 x16.
    c.push_back({"rtx4090", "NVIDIA GeForce RTX 4090 24 GB", 24 * kGB, 82.6 * kTF, 82.6 * kTF,
                 165.2 * kTF, 32 * kGB, kEthPerPcieGpu, 1008 * kGB, true, 330.3 * kTF});
    addBlackwellAndMi300(c);
    addKernelFigures(c);
    return c;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return std::tolower(ch); });
    return s;
}

} // namespace

const std::vector<DeviceType>& deviceCatalog() {
    static const std::vector<DeviceType> catalog = makeCatalog();
    return catalog;
}

std::string deviceDisplayName(const DeviceType& type) {
    return type.gpu ? type.name : detail::plannerText(type.name.c_str());
}

const DeviceType* findDevice(const std::string& id) {
    for (const DeviceType& d : deviceCatalog()) {
        if (d.id == id) {
            return &d;
        }
    }
    return nullptr;
}

const DeviceType* findDeviceByCudaName(const std::string& cudaName) {
    std::string n;
    for (char ch : cudaName) {
        n += char(std::tolower(static_cast<unsigned char>(ch)));
    }
    const auto has = [&](const char* part) {
        return n.find(part) != std::string::npos;
    };
    const char* id = nullptr;
    if (has("gb200")) {
        id = "gb200";
    } else if (has("b200")) {
        id = "b200";
    } else if (has("h200")) {
        id = "h200";
    } else if (has("h100")) {
        id = has("pcie") ? "h100-pcie" : "h100-sxm"; // "H100 80GB HBM3" is the SXM part
    } else if (has("a100")) {
        id = has("40gb") ? "a100-40" : "a100-80";
    } else if (has("l40s")) {
        id = "l40s";
    } else if (has("4090")) {
        id = "rtx4090";
    }
    return id != nullptr ? findDevice(id) : nullptr;
}

double peakFlops(const DeviceType& device, const std::string& precision) {
    if (precision == "fp8" && device.peakFp8 > 0) {
        return device.peakFp8;
    }
    if (precision == "bf16" && device.peakBf16 > 0) {
        return device.peakBf16;
    }
    if (precision == "tf32" && device.peakTf32 > 0) {
        return device.peakTf32;
    }
    return device.peakFp32;
}

double defaultComputeEfficiency(const DeviceType&, const std::string&) {
    return 0.5;
}

int PlanCluster::deviceCount() const {
    int n = 0;
    for (const PlanNode& node : nodes) {
        n += node.devices;
    }
    return n;
}

Result<PlanCluster> parseHypotheticalCluster(const std::string& text) {
    // "<nodes> x <devices> <device>", x or ×, device id or name ("H100" = h100-sxm).
    static const std::regex form(R"(^\s*(\d+)\s*[xX]\s*(\d+)\s+(.+?)\s*$)");
    std::string t = text;
    for (std::size_t at = t.find("\xC3\x97"); at != std::string::npos; at = t.find("\xC3\x97")) {
        t[at] = 'x'; // U+00D7 ×, two bytes in UTF-8
        t.erase(at + 1, 1);
    }
    std::smatch m;
    const auto usage = [&] {
        std::string ids;
        for (const DeviceType& d : deviceCatalog()) {
            ids += ids.empty() ? "" : ", ";
            ids += d.id;
        }
        return fail(ErrorCode::InvalidArgument,
                    "cluster '" + text +
                        "' is not of the form '<nodes>x<devices> <device>' (e.g. " +
                        "'4x8 h100-sxm'); devices: " + ids);
    };
    if (!std::regex_match(t, m, form)) {
        return usage();
    }
    const long nodes = std::stol(m[1].str()), per = std::stol(m[2].str());
    if (nodes < 1 || per < 1 || nodes > kMaxPlanNodes || per > kMaxNodeDevices) {
        return fail(ErrorCode::InvalidArgument,
                    "cluster '" + text + "': 1-" + std::to_string(kMaxPlanNodes) + " nodes of 1-" +
                        std::to_string(kMaxNodeDevices) + " devices each");
    }
    std::string id = lower(m[3].str());
    std::replace(id.begin(), id.end(), ' ', '-');
    static const std::vector<std::pair<std::string, std::string>> aliases{
        {"h100", "h100-sxm"},    {"a100", "a100-80"},      {"4090", "rtx4090"},
        {"rtx-4090", "rtx4090"}, {"a100-80gb", "a100-80"}, {"a100-40gb", "a100-40"}};
    for (const auto& [alias, target] : aliases) {
        if (id == alias) {
            id = target;
        }
    }
    const DeviceType* dev = findDevice(id);
    if (!dev) {
        return usage();
    }
    PlanCluster c;
    for (long i = 0; i < nodes; ++i) {
        c.nodes.push_back({"node" + std::to_string(i), dev->id, int(per), 0.0});
    }
    return c;
}

std::string clusterTooLarge(const PlanCluster& cluster) {
    if (cluster.nodes.size() > std::size_t(kMaxPlanNodes)) {
        return "the cluster has " + std::to_string(cluster.nodes.size()) +
               " nodes: the planner takes at most " + std::to_string(kMaxPlanNodes);
    }
    for (const PlanNode& n : cluster.nodes) {
        if (n.devices < 1 || n.devices > kMaxNodeDevices) {
            return "node '" + n.name + "' has " + std::to_string(n.devices) +
                   " devices: the planner takes 1-" + std::to_string(kMaxNodeDevices) + " per node";
        }
    }
    return {};
}

} // namespace tessera::planner
