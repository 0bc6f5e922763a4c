// The planner's contract (issue 4, ARCHITECTURE.md §6): what a model, a cluster and a layout are to
// the planner, and the estimate it returns. Pure C++ (QtCore only for JSON parsing inside the .cpp
// files); the designer (app/designer/), tessera-ctl and the auto-planner call these functions.
//
// Units everywhere: bytes, seconds, FLOPs (2 per multiply-add), FLOP/s, bytes/s, USD.
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::planner {

/// One matrix multiplication of a layer's forward for one sample at TP 1: `rows` × `k` times
/// `k` × `n`, `count` times (one per routed expert; rows = the tokens one expert gets on average,
/// s·top-k/experts). `splitN`: Megatron's column-parallel split (n/t) under TP, else row-parallel
/// (k/t); `replicated`: not split at all (MoE router, MLA's down-projections). `batched`: one per
/// sample and head (unfused attention's q·kᵀ and att·v), so samples multiply count, not rows.
/// `routed`: a routed expert's (expert parallelism divides count and multiplies rows).
struct PlanGemm {
    double rows = 0, n = 0, k = 0, count = 1;
    bool splitN = true, replicated = false, batched = false, routed = false;
};

/// One entry of a model's layer list, the unit a pipeline stage is made of.
struct PlanLayer {
    std::string name;           ///< "embedding", "block0", "ln_f", "head", "linear0", ...
    std::string kind;           ///< as tessera::LayerDesc::kind ("block", "linear", ...)
    std::int64_t params = 0;    ///< parameters, all TP ranks together
    double forwardFlops = 0.0;  ///< forward FLOPs per sample (per sequence for transformers)
    double activationBytes = 0; ///< bytes kept for backward per sample at TP = 1, no recompute
    std::vector<std::int64_t> tpDivides; ///< widths a TP degree must divide; empty = replicated
    /// Transformer block shape (0 for other layers): hidden size h, heads a, key/value heads
    /// (GQA; = heads for MHA), MLP inner width, sequence length s. Korthikanti et al. 2022
    /// activation formulas and TP/SP scaling use these.
    int hidden = 0, heads = 0, kvHeads = 0, ffn = 0, seq = 0;
    /// Params, FLOPs and (part of the) activations are split across TP ranks (Megatron column/row
    /// parallel linears, attention heads, vocab-parallel embedding/head); false = replicated.
    bool tpSharded = false;
    /// Elements all-reduced across the TP group per sample in the forward / backward pass
    /// (Megatron: 2 × s·h per block each way; Shoeybi et al. 2019, §3).
    double tpCommForward = 0, tpCommBackward = 0;
    /// Weights shared with layer `tiedTo` (the head tied to the embedding): not in `params`
    /// (counted once), but held again when the two layers are on different stages.
    std::int64_t tiedParams = 0;
    int tiedTo = -1;
    /// Built-ins: the engine's per-sample scratch floats of this layer at TP = 1 (shared by all
    /// micro-batches of a stage; the patch embedding's patches, dpatches and projection). Blocks
    /// leave it 0: layer_cost.cpp computes theirs per TP width from the block shape.
    double scratchFloats = 0;
    /// Parameters one token multiplies by: a mixture-of-experts layer's attention, router, top-k
    /// routed and shared experts; = `params` for a dense layer.
    std::int64_t activeParams = 0;
    /// Mixture of experts (0 = a dense MLP): routed experts, experts per token, each expert's
    /// inner width, and the routed experts' parameters (part of `params`: what expert
    /// parallelism shards).
    int experts = 0, expertsPerToken = 0, expertFfn = 0;
    std::int64_t expertParams = 0;
    /// Attention per query in tokens: a sliding window (Mistral, Gemma 2/3, gpt-oss), or 0 =
    /// the whole sequence.
    int window = 0;
    /// Imported blocks: the attention scores' forward FLOPs per sample (q·kᵀ and att·v over the
    /// keys each query sees), part of forwardFlops; what recompute and FlashAttention's backward
    /// repeat. 0 = 4·s²·h (the built-ins).
    double attentionFlops = 0;
    /// Elements of the keys and values of one token, all heads (2·kv heads·head dim; MLA: heads ×
    /// (q/k head dim + v head dim) once decompressed): what context parallelism's ring passes on.
    /// 0 = 2·hidden.
    std::int64_t kvWidth = 0;
    /// The routed experts' forward FLOPs per sample (2 · s · experts per token · one expert's
    /// matrix weights), part of forwardFlops: what expert parallelism's load imbalance scales.
    double expertFlops = 0;
    /// Imported layers: the forward's matrix multiplications of one sample at TP 1 (PlanGemm),
    /// from which a GPU's time is computed shape by shape (kernel_time.cpp).
    std::vector<PlanGemm> gemms;
    /// Imported layers: bytes the forward's memory-bound kernels move per sample (norms,
    /// residual adds, the MLP's activation, rotary embedding, token permutation for experts), in
    /// 16-bit elements: `normBytes` are replicated over TP ranks unless sequence parallelism
    /// splits them, `shardedBytes` are split by TP.
    double normBytes = 0, shardedBytes = 0;
    /// Imported heads: bytes the loss moves per sample over the logits, split with the
    /// vocabulary by TP, forward and backward (Megatron-LM's vocab-parallel cross-entropy on
    /// logits cast to fp32: model_import.cpp headLayer).
    double lossForwardBytes = 0, lossBackwardBytes = 0;
    /// Built-ins under ZB-H1: floats per sample the engine's weight-gradient queue copies for
    /// this layer's linear parts, each one's input and output gradient (WeightGradStore,
    /// Layer::deferredFloats), `deferredWhole` kept whole on every TP rank and `deferredSplit`
    /// divided by TP (a column-parallel linear's outputs, a row-parallel one's inputs).
    double deferredWhole = 0, deferredSplit = 0;
    /// Imported blocks: the score FLOPs a causal (or sliding-window) attention kernel executes,
    /// forward, per sample: attentionFlops × the share of (query, key) pairs under the mask.
    double attentionExecFlops = 0;
    /// Imported blocks: activation bytes kept for backward per token at 16 bits, without the
    /// attention scores, split as Korthikanti et al. 2022 §4.1 split them: `actReplicated` stays
    /// whole on every TP rank unless sequence parallelism splits it (norm inputs, the attention's
    /// and the MLP's inputs, dropout masks), `actSplit` is split by TP (q, k, v, the attention
    /// output, the MLP's inner activations: 4·ffn, gated 6·ffn, a mixture of experts' top-k
    /// copies and shared experts). 0, 0 = Korthikanti's GPT block, 10·h and 24·h.
    double actReplicated = 0, actSplit = 0;
};

/// A model as the planner sees it: built-in (numbers from tessera::describeModel, fp32 as the
/// engine runs it) or imported from a Hugging Face config.json (bf16 mixed precision).
struct PlanModel {
    std::string name;              ///< "ViT (4 blocks, d 64)", "LLaMA-2 13B", ...
    std::string family;            ///< "mlp", "vit", "gpt", "gpt2", "llama", "mistral"
    std::vector<PlanLayer> layers; ///< in order; stages are inclusive index ranges
    int seqLen = 1;                ///< tokens per sample (1 for MLP/ViT images)
    int weightBytes = 4;           ///< bytes per weight/gradient element (4 fp32, 2 bf16)
    bool builtin = true;           ///< tessera-train can run it (Launch is possible)
    v1::ModelSpec spec;            ///< the built-in's spec (empty for imported models)
    /// Built-ins (tessera::ModelDesc): floats per sample into layer 0 (784 pixels, or the
    /// context's token ids), labels per sample and logits per label; the engine's input,
    /// label and logit buffers are counted from these.
    std::int64_t inputFloats = 0;
    int rowsPerSample = 1, classes = 0;
    /// What the import assumed where the config.json was silent or its model_type unknown
    /// (shown with the model); empty for the families read by their own fields.
    std::vector<std::string> warnings;
    std::int64_t params() const; ///< Σ layers' params (tied weights once, MTP modules included)
    /// Σ layers' activeParams without the embedding table (a lookup, no multiply): the
    /// "activated parameters" of DeepSeek-V3 and gpt-oss's model cards.
    std::int64_t activeParams() const;
    std::int64_t embeddingParams() const; ///< the "embedding" layers' params
};

/// A built-in model (mlp/vit/gpt) from its spec, via tessera::describeModel.
/// Errors: InvalidArgument from describeModel, naming the field.
Result<PlanModel> modelFromSpec(const v1::ModelSpec& spec, int vocab = 0);

/// A decoder-only model from a Hugging Face config.json text (the families of
/// readHfArchitecture, model_arch.h, and any other decoder through its standard fields with
/// PlanModel::warnings): embedding, N decoder blocks (dense or mixture-of-experts), final norm,
/// head (tied embeddings counted once), then DeepSeek-V3's multi-token-prediction modules
/// (kind "mtp"). `seqLen` 0 = the config's positions capped at 4096.
/// Errors: InvalidArgument naming the field and its value (readHfArchitecture), or a negative
/// `seqLen`.
Result<PlanModel> modelFromHfConfig(const std::string& configJson, int seqLen = 0);

/// A kind of device with its datasheet numbers (source in the catalog's comments).
struct DeviceType {
    std::string id;         ///< "cpu", "a100-40", "a100-80", "h100-sxm", "h100-pcie", "h200",
                            ///< "l40s", "rtx4090"
    std::string name;       ///< "NVIDIA H100 SXM 80 GB"
    double memoryBytes = 0; ///< device memory (CPU slot: a share of host RAM)
    double peakFp32 = 0;    ///< dense FLOP/s
    double peakTf32 = 0;    ///< dense FLOP/s (0 = none)
    double peakBf16 = 0;    ///< dense FLOP/s (0 = none)
    double intraNodeBw = 0; ///< per-device bus bandwidth inside a node (NVLink / PCIe), B/s
    double interNodeBw = 0; ///< per-device bandwidth between nodes (NIC share), B/s
    double memoryBw = 0;    ///< device memory bandwidth, B/s (optimizer-step time)
    bool gpu = true;        ///< false for the CPU slot (latencies, workspace reserve)
    double peakFp8 = 0;     ///< dense FP8 tensor FLOP/s (0 = none: FP8 cannot be planned)
    /// GPUs one NVLink domain joins at intraNodeBw: 72 for GB200 NVL72 (a rack of 18 trays of
    /// 4); 0 = the node's own devices.
    int nvlinkDomain = 0;
    /// What a GPU's kernels reach, for step times from shapes (kernel_time.cpp); 0 = not known,
    /// the flat defaultComputeEfficiency applies (CPU slots). `sms`: streaming multiprocessors
    /// (AMD: compute units) a GEMM's tiles are spread over in waves. `gemmBf16`, `gemmFp8`: the
    /// share of the dense peak the best-shaped BF16 / FP8 GEMM sustains (maximum achievable
    /// matmul FLOPS). `attnFwd`, `attnBwd`: the share of the BF16 peak a fused attention kernel
    /// (FlashAttention / cuDNN) sustains forward and backward, causal FLOPs counted. `memory`:
    /// the share of memoryBw streaming kernels reach.
    struct Kernels {
        int sms = 0;
        double gemmBf16 = 0, gemmFp8 = 0, attnFwd = 0, attnBwd = 0, memory = 0;
    } kernels;
};

/// Peak dense FLOP/s of `device` for "fp32", "tf32", "bf16" or "fp8"; a precision the device
/// lacks (0 in the catalog) falls back to fp32 (makeContext refuses fp8 on such a device).
double peakFlops(const DeviceType& device, const std::string& precision);

/// Achieved / peak FLOP/s assumed before calibration: 0.5 for every device and precision (GEMM-
/// heavy training reaches 40-56 % MFU on A100, Korthikanti et al. 2022 Table 4; Narayanan et al.
/// 2021 report 44-52 %); NodeCalibration::computeEfficiency replaces it per node.
double defaultComputeEfficiency(const DeviceType& device, const std::string& precision);

/// Every device kind the planner knows. Never empty.
const std::vector<DeviceType>& deviceCatalog();
/// The catalog entry with this id, or nullptr.
const DeviceType* findDevice(const std::string& id);

/// `type`'s name as shown, in the user's language (the CPU slot's "CPU rank slot" is translated,
/// context tessera::planner; GPU names are product names and stay). UTF-8.
std::string deviceDisplayName(const DeviceType& type);
/// The catalog entry for a GPU name as CUDA reports it (cudaDeviceProp::name, what a worker's
/// GetInfo lists: "NVIDIA H200", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 PCIe", "NVIDIA GeForce
/// RTX 4090"), or nullptr when the name matches no catalog kind.
const DeviceType* findDeviceByCudaName(const std::string& cudaName);

/// One node: a live worker or a hypothetical machine.
struct PlanNode {
    std::string name;        ///< worker name, or "node0".. for hypothetical ones
    std::string deviceId;    ///< catalog id
    int devices = 1;         ///< GPUs (or CPU rank slots) on the node
    double pricePerHour = 0; ///< USD per node-hour (0 = unknown / owned)
};

/// Largest cluster the planner takes: nodes, and devices of one node. Far beyond any real
/// machine or data centre hall, yet bounded so that a layout file or typed cluster cannot make
/// the planner (or the designer, which draws every device) allocate gigabytes.
inline constexpr int kMaxPlanNodes = 4096;
inline constexpr int kMaxNodeDevices = 1024;

/// The machines a layout is planned for; ranks fill nodes in order (rank r on the r-th device,
/// node by node).
struct PlanCluster {
    std::vector<PlanNode> nodes;
    int deviceCount() const;
};

/// Empty when `cluster` is within kMaxPlanNodes nodes of 1..kMaxNodeDevices devices each; else
/// what is too large, for a person ("node 'node0' has 777777776 devices: …").
std::string clusterTooLarge(const PlanCluster& cluster);

/// "4x8 h100-sxm" / "4 × 8 H100" style text → that many identical hypothetical nodes.
/// Errors: InvalidArgument naming the text and the accepted form.
Result<PlanCluster> parseHypotheticalCluster(const std::string& text);

/// Fitted correction of the datasheet numbers for one node (calibration probes on real workers).
/// One measured all-reduce (calibration probe 5 of tessera-train --probe): groups of `ranks`
/// ranks, every group of the probe's world at once between GEMMs, `bytes` per rank; `seconds` per
/// call beyond the compute, until the last rank was done.
struct AllReduceCost {
    int ranks = 0;
    double bytes = 0, seconds = 0;
    /// MPI_Iallreduce waited for (the engine's data-parallel buckets) rather than MPI_Allreduce
    /// (its tensor-parallel layers): Open MPI implements the two apart (libnbc vs coll/tuned).
    bool nonBlocking = false;
};

struct NodeCalibration {
    std::string node;
    double computeEfficiency = 0; ///< achieved / peak FLOP/s for the node's gemm mix; 0 = default
    double intraNodeBw = 0;       ///< measured all-reduce bus bandwidth, B/s; 0 = datasheet
    double interNodeBw = 0;       ///< B/s; 0 = datasheet
    double latency = 0;           ///< α per message, s; 0 = default
    /// Achieved / peak FLOP/s per built-in family ("mlp", "vit", "gpt"), measured on that
    /// family's own layer mix; it replaces computeEfficiency for a model of that family. One
    /// number per node cannot be right for both: an MLP step is almost only SGEMMs, while a small
    /// ViT or GPT also spends a large share of its time in memory-bound LayerNorm, softmax, GELU
    /// and head reshuffles that do no counted FLOPs, so the same core reaches a lower fraction of
    /// its GEMM peak on it. Empty = computeEfficiency for every family.
    std::map<std::string, double> familyEfficiency;
    /// Fixed time per layer and micro-batch (forward + backward) of a family, s: what a layer
    /// costs beyond its FLOPs (loop set-up, small-matrix BLAS calls); it matters for small
    /// micro-batches. Empty/0 = none.
    std::map<std::string, double> familyLayerOverhead;
    double memoryBw = 0; ///< optimizer-step memory bandwidth per device, B/s; 0 = datasheet
    /// Nodes that are processes on one machine (the local cluster's workers) share its cores:
    /// `host` names the machine, `hostCores` its cores, `probeRanks` the ranks that ran on it
    /// during the probes (all busy: the efficiencies above are per rank under that load). When
    /// hostCores > 0 the cost model scales a rank's compute by max(1, the layout's ranks on the
    /// host / hostCores) instead of the probe's fixed load (a waiting MPI rank polls: it does not
    /// leave its core to the others). 0 = devices of their own.
    std::string host;
    int hostCores = 0, probeRanks = 0;
    /// Fraction of a core a rank waiting in a receive still takes from a rank computing on the
    /// same core (probe 6: about 0.02 with Open MPI's mpi_yield_when_idle on the local cluster);
    /// < 0 = not measured, taken as 1 (a polling rank keeps its share).
    double waitShare = -1;
    /// Measured all-reduce costs by group size and bytes; where a layout's TP or DP group size is
    /// among them, the cost model interpolates these instead of using the ring formula with
    /// intraNodeBw and latency (the cost under load is far from linear in the size when ranks
    /// outnumber cores). Empty = the formula.
    std::vector<AllReduceCost> allReduceCosts;
};

struct PlanOptions;
/// Whether FlashAttention is in effect for `model` on `cluster` (PlanOptions::flashAttention:
/// "on", or "auto" for an imported model on a cluster of GPUs only).
bool flashAttentionInEffect(const PlanModel& model, const PlanCluster& cluster,
                            const PlanOptions& options);

/// What is planned on top of a v1::Layout (degrees, stages, micro-batches, schedule, ZeRO).
struct PlanOptions {
    int globalBatch = 64;            ///< samples per optimizer step, all DP ranks together
    std::string optimizer = "adamw"; ///< "sgd" or "adamw" (optimizer-state bytes)
    int zeroStage = 0;               ///< 0-3 (ZeRO paper, Rajbhandari et al. 2020)
    std::string recompute = "none";  ///< "none", "selective", "full" (Korthikanti et al. 2022)
    bool sequenceParallel = false;   ///< Korthikanti et al. 2022 sequence parallelism
    /// "fp32", "tf32", "bf16", "fp8"; empty = the model's default. FP8 (Transformer Engine's
    /// recipe, Micikevicius et al. 2022): GEMMs at the device's FP8 peak, weights, gradients,
    /// optimizer state and activations kept as under BF16 mixed precision.
    std::string precision = "";
    /// FlashAttention (Dao et al. 2022, arXiv 2205.14135): attention in tiles, the s×s scores
    /// never stored, so no 5·a·s² activation bytes per layer (Korthikanti et al.'s term) but the
    /// softmax statistics (4·a·s bytes), and a backward that recomputes q·kᵀ. "auto": on for an
    /// imported model on GPUs (every GPU training framework uses it since 2023), off on CPU slots
    /// and for the engine's built-ins; "on"; "off".
    std::string flashAttention = "auto";
    /// Mixture of experts under expert parallelism: routed tokens on the busiest EP rank / the
    /// mean (>= 1; PlanSettings.moe_imbalance). 1 = evenly spread, what the router's auxiliary
    /// load-balancing loss aims at (Fedus et al. 2021 §2.2; DeepSeek-V3's bias-based balancing).
    /// The expert GEMMs and the all-to-all of the busiest rank scale by it.
    double moeImbalance = 1.0;
    /// Tensor-parallel communication overlapped with the GEMMs next to it (Megatron-LM's
    /// --tp-comm-overlap: Transformer Engine splits each all-gather + GEMM and GEMM +
    /// reduce-scatter into TP-many chunks, the ring exchange of one chunk under the GEMM of the
    /// previous): of each pass's TP time only the part the pass's GEMMs cannot cover, and at least
    /// one chunk of TP-many, stays exposed. Needs sequence parallelism (Megatron-LM refuses it
    /// without); ignored otherwise.
    bool tpCommOverlap = false;
    std::int64_t datasetSamples = 0; ///< samples per epoch (cost per epoch; 0 = not shown)
    /// Where each rank runs: rank r on device rankDevices[r] (cluster-wide index, node by node;
    /// the designer's drawing, PlanFile.rank_devices). Empty, or not one distinct device of the
    /// cluster per rank of the layout, = rank r on device r.
    std::vector<int> rankDevices;
};

/// One device's share of a layout.
struct DeviceEstimate {
    int rank = -1;            ///< -1 = the device runs no rank
    int node = 0, device = 0; ///< index into PlanCluster::nodes, device on that node
    int stage = 0, tpRank = 0, dpRank = 0;
    int cpRank = 0, epRank = 0; ///< context-parallel rank; which 1/EP of the experts it holds
    double weights = 0, gradients = 0, optimizerState = 0, activations = 0, workspace = 0;
    double total() const { return weights + gradients + optimizerState + activations + workspace; }
    double capacity = 0; ///< the device's memory
};

/// The planner's estimate for one layout (ARCHITECTURE.md §6).
struct Estimate {
    std::vector<DeviceEstimate> devices; ///< one per device of the cluster, node by node
    double stepSeconds = 0;              ///< the whole optimizer step
    double computeSeconds = 0; ///< slowest stage, all its micro-batches, forward + backward
    double tpCommSeconds = 0;  ///< TP all-reduces on the critical path
    /// Expert parallelism's all-to-all (token dispatch and combine, forward and backward) on the
    /// critical path (Megatron-LM's alltoall token dispatcher, not overlapped).
    double epCommSeconds = 0;
    /// Context parallelism's ring exchange of keys and values not hidden behind the attention it
    /// overlaps (Liu et al. 2023, ring attention; Megatron-LM's --cp-comm-type p2p).
    double cpCommSeconds = 0;
    double ppCommSeconds = 0; ///< activation/gradient send/recv on the critical path
    /// DP gradient all-reduce not hidden by the backward; under ZeRO-3 also the per-micro-batch
    /// parameter gathers and gradient reduce-scatters the compute does not hide
    double dpCommSeconds = 0;
    double bubbleSeconds = 0; ///< pipeline bubble (p-1)/(m+p-1) of the pipeline's time
    double bubbleFraction = 0;
    double optimizerSeconds = 0; ///< optimizer update (memory-bound: bytes touched / memory bw)
    /// The per-step all-reduce of the loss over every rank (one number; the engine's trainer, and
    /// Megatron-LM averages its loss over the data-parallel group each iteration the same way).
    double lossSyncSeconds = 0;
    double modelFlopsPerStep = 0; ///< (3 × forward − first layer's forward) FLOPs × global batch
    int ranks = 0;                ///< DP × PP × CP × TP
    double samplesPerSecond = 0, tokensPerSecond = 0;
    double mfu = 0; ///< model FLOPs (3 × forward) / (step × Σ peak)
    double costPerHour = 0, costPerStep = 0, costPerEpoch = 0; ///< USD; 0 = prices unknown
    std::vector<std::string> problems; ///< why the layout cannot run (empty = it can)
    bool fits() const;                 ///< no device over capacity
};

/// Validate `layout` against `model` and `cluster` and estimate it. Problems that make a layout
/// impossible (heads not divisible by TP, empty stage, unassigned layer, more ranks than
/// devices, over memory) go into Estimate::problems, not errors: the designer shows them while
/// the user drags. Errors only for inputs that cannot be read (unknown device id).
Result<Estimate> estimate(const PlanModel& model, const PlanCluster& cluster,
                          const v1::Layout& layout, const PlanOptions& options,
                          const std::vector<NodeCalibration>& calibration = {});

/// The most memory one device needs to run `spec` as written (its model, layout, global batch,
/// optimizer and ZeRO stage), bytes: the largest per-device total of estimate() (weights +
/// gradients + optimizer state + activations + workspace, ARCHITECTURE.md §6) with one `deviceId`
/// device per rank. `deviceId` is a catalog id; empty = "h100-sxm" when layout.device is "cuda"
/// (GPU workspace reserve), else "cpu". What autoscaling compares with a machine's memory.
/// Errors: InvalidArgument for a job the planner cannot describe (a user command, an invalid
/// model), NotFound for an unknown device id.
Result<double> peakDeviceMemory(const v1::JobSpec& spec, const std::string& deviceId = "");

/// One auto-plan candidate with the reason for its rank.
struct RankedPlan {
    v1::Layout layout;
    PlanOptions options;
    Estimate estimate;
    std::string reason; ///< "fastest that fits: 3.1 s/step, bubble 6 %" / "2nd: DP all-reduce ..."
};

/// What auto-plan optimises.
struct AutoPlanGoal {
    enum Kind { Fastest, CheapestWithinDeadline } kind = Fastest;
    double deadlineSeconds = 0; ///< CheapestWithinDeadline: the whole run must finish in this
    std::int64_t steps = 0;     ///< steps of the run (deadline and total cost)
    int top = 5;                ///< candidates returned
    /// Imported models: also search activation recompute (none, selective, full) and sequence
    /// parallelism, the memory savers; false keeps PlanOptions' recompute and SP as given.
    bool searchRecompute = true;
    /// Also search interleaved 1F1B (model chunks per pipeline rank). The designer, which draws
    /// one stage per rank, asks without it.
    bool searchVirtualStages = true;
};

/// What an auto-plan run looked at (benchmarks and logs).
struct AutoPlanStats {
    int evaluated = 0; ///< layouts estimated (incl. boundary refinement)
    int fitting = 0;   ///< of those, layouts without problems (within the deadline)
    int refined = 0;   ///< of `evaluated`, the stage-boundary refinement of the leaders
};

/// Search DP/TP/PP degrees, micro-batch count, schedule and (cost-balanced, possibly uneven)
/// stage boundaries for layouts that fit memory; best first, at most `goal.top`. An empty list
/// means that no layout fits. Errors: what makes any estimate impossible, as estimate() reports
/// it — NotFound for a node whose device is not in the catalog, InvalidArgument for a model
/// without layers, a cluster without devices or a bad precision.
Result<std::vector<RankedPlan>> autoPlan(const PlanModel& model, const PlanCluster& cluster,
                                         const PlanOptions& options, const AutoPlanGoal& goal,
                                         const std::vector<NodeCalibration>& calibration = {},
                                         AutoPlanStats* stats = nullptr);

} // namespace tessera::planner
