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
    // nvidia-tensor-core-gpu-datasheet): SXM FP32 67 TF, TF32 494.5 TF, BF16 989.5 TF dense
    // (989/1,979 are with sparsity), 80 GB HBM3 3.35 TB/s, NVLink 900 GB/s (450 each way);
    // PCIe FP32 51 TF, TF32 378 TF, BF16 756 TF dense, 80 GB HBM2e 2 TB/s, PCIe Gen5 128 GB/s
    // (64 GB/s each way).
    c.push_back({"h100-sxm", "NVIDIA H100 SXM 80 GB", 80 * kGB, 67 * kTF, 494.5 * kTF, 989.5 * kTF,
                 450 * kGB, kIbNdrPerGpu, 3350 * kGB, true});
    c.push_back({"h100-pcie", "NVIDIA H100 PCIe 80 GB", 80 * kGB, 51 * kTF, 378 * kTF, 756 * kTF,
                 64 * kGB, kEthPerPcieGpu, 2000 * kGB, true});
    // NVIDIA H200 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/h200): SXM FP32 67 TF,
    // TF32 494.5 TF, BF16 989.5 TF dense, 141 GB HBM3e 4.8 TB/s, NVLink 900 GB/s.
    c.push_back({"h200", "NVIDIA H200 SXM 141 GB", 141 * kGB, 67 * kTF, 494.5 * kTF, 989.5 * kTF,
                 450 * kGB, kIbNdrPerGpu, 4800 * kGB, true});
    // NVIDIA L40S datasheet (resources.nvidia.com/en-us-l40s/l40s-datasheet-28413): FP32 91.6 TF,
    // TF32 183 TF and BF16 362 TF dense (366/733 with sparsity), 48 GB GDDR6 864 GB/s, PCIe Gen4
    // x16 64 GB/s (32 GB/s each way), no NVLink.
    c.push_back({"l40s", "NVIDIA L40S 48 GB", 48 * kGB, 91.6 * kTF, 183 * kTF, 362 * kTF, 32 * kGB,
                 kEthPerPcieGpu, 864 * kGB, true});
    // NVIDIA Ada GPU Architecture whitepaper (images.nvidia.com/aem-dam/Solutions/geforce/ada/
    // nvidia-ada-gpu-architecture.pdf), GeForce RTX 4090: FP32 82.6 TF, TF32 tensor 82.6 TF,
    // BF16 tensor with FP32 accumulate 165.2 TF dense, 24 GB GDDR6X 1,008 GB/s, PCIe Gen4 x16.
    c.push_back({"rtx4090", "NVIDIA GeForce RTX 4090 24 GB", 24 * kGB, 82.6 * kTF, 82.6 * kTF,
                 165.2 * kTF, 32 * kGB, kEthPerPcieGpu, 1008 * kGB, true});
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
    if (has("h200")) {
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
