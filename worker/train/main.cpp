// tessera-train: the rank program. Trains the spec's model (MLP, ViT, GPT) with any layout of
// data, pipeline and tensor parallelism over MPI (also as a singleton without mpirun); prints the
// `@tessera {json}` metric lines on stdout (rank 0: loss, test and done lines; every rank: its
// perf line). Built twice: tessera-train (CPU, no CUDA library) and, with TESSERA_TRAIN_CUDA,
// tessera-train-cuda (CudaOps + NCCL), which the worker starts for ranks placed on GPUs.
#include "worker/common/spec_io.h"
#include "worker/train/dataset.h"
#include "worker/train/mpi_communicator.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/probe.h"
#include "worker/train/train_config.h"
#include "worker/train/trainer.h"

#ifdef TESSERA_TRAIN_CUDA
#include "worker/train/cuda/cuda_ops.h"
#include "worker/train/cuda/nccl_communicator.h"
#endif

#include <CLI/CLI.hpp>
#include <cblas.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

constexpr int kExitFailure = 1;  // runtime failure (MPI, internal, divergence)
constexpr int kExitBadInput = 2; // bad spec, flags or data

void printError(const std::string& message) {
    std::fprintf(stderr, "tessera-train: error: %s\n", message.c_str());
    std::fflush(stderr);
}

// Agrees across ranks on whether any rank failed; the lowest failing rank prints its error.
// Returns true when every rank succeeded.
bool agreeOk(tessera::train::Communicator& comm, const tessera::Error* myError) {
    int failing = myError ? comm.rank() : INT_MAX;
    if (!comm.allReduceMin(&failing, 1)) {
        failing = myError ? comm.rank() : failing;
    }
    if (myError && failing == comm.rank()) {
        printError(myError->message + (comm.worldSize() > 1
                                           ? " (rank " + std::to_string(comm.rank()) + ")"
                                           : std::string()));
    }
    return failing == INT_MAX;
}

// Half of this host's physical memory: the most one rank's model state may take (the rest is
// for the data set, the other ranks and the system).
std::uint64_t memoryBudget() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) / 2 : 0;
}

// The rank's index among the ranks of its host (Open MPI sets it), for one GPU per local rank.
int localRank() {
    const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    return v ? std::atoi(v) : 0;
}

void printLine(const std::string& line) {
    const std::string withNewline = line + "\n";
    std::fputs(withNewline.c_str(), stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    using namespace tessera;
    auto comm = train::MpiCommunicator::create(&argc, &argv);
    if (!comm) {
        printError(comm.error().message);
        return kExitFailure;
    }
    train::MpiCommunicator& c = **comm;
    const int rank = c.rank();

    auto logger = spdlog::stderr_color_mt("tessera-train");
    logger->set_pattern("[%H:%M:%S.%e] [rank " + std::to_string(rank) + "] [%^%l%$] %v");
    spdlog::set_default_logger(logger);

    CLI::App app{"tessera-train: training rank (run it under mpirun, or alone)"};
    std::string specPath;
    std::string dataDir;
    std::string resumeDir;
    std::int64_t maxSteps = 0;
    bool probe = false;
    app.add_option("--spec", specPath, "job spec JSON file (required unless --probe)");
    app.add_flag("--probe", probe,
                 "run the calibration probes on every rank at once (compute per model family, "
                 "GEMM, optimizer, all-reduce and send/recv) and print them as @tessera lines "
                 "instead of training");
    app.add_option("--data-dir", dataDir,
                   "dataset location (overrides dataset.path: the Fashion-MNIST folder or the text "
                   "file)");
    app.add_option("--max-steps", maxSteps, "stop after N optimizer steps (overrides the spec)");
    app.add_option("--resume", resumeDir,
                   "resume from this checkpoint (a step folder, or a checkpoint dir for its "
                   "latest); overrides checkpoint.resumeFrom");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        if (rank == 0) {
            app.exit(e);
        }
        return 0;
    } catch (const CLI::ParseError& e) {
        if (rank == 0) {
            printError(std::string(e.what()) + " (see --help)");
        }
        return kExitBadInput;
    }
    if (probe) {
        openblas_set_num_threads(1); // as in training: one BLAS thread per rank
        train::CpuOps cpu;
        Result<void> r;
        try {
            r = train::runProbes(c, cpu, printLine);
        } catch (const std::exception& e) {
            r = fail(ErrorCode::Internal, std::string("probe failed: ") + e.what());
        }
        return agreeOk(c, r ? nullptr : &r.error()) ? 0 : kExitFailure;
    }
    if (specPath.empty()) {
        if (rank == 0) {
            printError("--spec is required (or --probe to calibrate); see --help");
        }
        return kExitBadInput;
    }
    if (maxSteps < 0) {
        if (rank == 0) {
            printError("--max-steps must be >= 0 (0 = the spec's training.maxSteps), got " +
                       std::to_string(maxSteps));
        }
        return kExitBadInput;
    }

    // Spec: only rank 0 reads the file. mpirun starts rank 0 on the launching worker, which wrote
    // the file into its job folder; ranks on other hosts have no such folder (no shared file
    // system is assumed), so they parse rank 0's copy, received over MPI.
    Result<train::TrainConfig> config = fail(ErrorCode::Internal, "unset");
    {
        Result<v1::JobSpec> spec = fail(ErrorCode::Internal, "unset");
        std::string specJson; // empty: rank 0 could not read or parse the file
        if (rank == 0) {
            spec = loadJobSpec(specPath);
            if (spec) {
                specJson = jobSpecToJson(*spec);
            }
        }
        if (Result<void> shared = c.broadcast(specJson, 0); !shared) {
            printError("cannot receive the job spec from rank 0: " + shared.error().message);
            return kExitFailure;
        }
        if (rank != 0) {
            spec = specJson.empty()
                       ? Result<v1::JobSpec>(fail(ErrorCode::InvalidArgument,
                                                  "rank 0 could not read the job spec " + specPath))
                       : parseJobSpec(specJson, specPath + " (as read by rank 0)");
        }
        if (spec && !dataDir.empty()) {
            spec->mutable_dataset()->set_path(dataDir);
        }
        Result<void> valid = spec ? validateJobSpec(*spec) : Result<void>(relay(spec));
        if (valid) {
            config = train::trainConfigFromSpec(*spec, maxSteps, resumeDir, c.worldSize());
            if (config && config->datasetName == "fashion-mnist") {
                config->datasetPath = datasetDir(*spec);
            }
        } else {
            config = relay(valid);
        }
        if (!agreeOk(c, config ? nullptr : &config.error())) {
            return kExitBadInput;
        }
    }

    openblas_set_num_threads(1); // ranks share the cores: one BLAS thread each
    auto data =
        train::openDataset(config->datasetName, config->datasetPath, config->model.context());
    if (!agreeOk(c, data ? nullptr : &data.error())) {
        return kExitBadInput;
    }

    // Device: CPU unless a placement slot asks for "cuda".
    std::unique_ptr<train::Ops> ops;
    std::unique_ptr<train::Communicator> deviceWorld; // NCCL world on GPUs
    double peakFlops = 0.0;                           // 0: measured by the trainer
    Result<void> device;
    if (!config->cuda) {
        ops = std::make_unique<train::CpuOps>();
    } else {
#ifdef TESSERA_TRAIN_CUDA
        auto cuda = train::CudaOps::create(localRank(), true);
        if (cuda) {
            peakFlops = (*cuda)->peakFlops(true);
            auto nccl = train::NcclCommunicator::create(c, **cuda);
            if (nccl) {
                deviceWorld = std::move(*nccl);
            } else {
                device = relay(nccl);
            }
            ops = std::move(*cuda);
        } else {
            device = relay(cuda);
        }
#else
        device = fail(ErrorCode::InvalidArgument,
                      "the placement asks for device \"cuda\" but this is the CPU tessera-train; "
                      "GPU ranks run tessera-train-cuda (built where CUDA and NCCL are found)");
        (void)localRank;
#endif
    }
    if (!agreeOk(c, device ? nullptr : &device.error())) {
        return kExitBadInput;
    }
    train::Communicator& world = deviceWorld ? *deviceWorld : static_cast<train::Communicator&>(c);
    if (rank == 0) {
        spdlog::info("tessera-train: {} ranks on {}, {} with {} train / {} test samples",
                     c.worldSize(), ops->deviceName(), (*data)->name(), (*data)->trainSize(),
                     (*data)->testSize());
    }

    Result<void> result;
    try {
        auto trainer = train::Trainer::create(
            *config, *ops, world, **data,
            ops->kind() == train::DeviceKind::Cpu ? memoryBudget() : 0, peakFlops);
        if (!agreeOk(c, trainer ? nullptr : &trainer.error())) {
            return trainer.error().code == ErrorCode::InvalidArgument ? kExitBadInput
                                                                      : kExitFailure;
        }
        result = (*trainer)->run(printLine);
    } catch (const std::exception& e) {
        result = fail(ErrorCode::Internal, std::string("unexpected failure: ") + e.what());
    }
    if (!result) {
        printError(result.error().message +
                   (c.worldSize() > 1 ? " (rank " + std::to_string(rank) + ")" : std::string()));
        if (c.worldSize() > 1) {
            c.abortAll(kExitFailure); // peers may be waiting in a collective
        }
        return kExitFailure;
    }
    return 0;
}
