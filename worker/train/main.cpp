// tessera-train: the rank program. Data-parallel MLP training on Fashion-MNIST over MPI (also
// as a singleton without mpirun); rank 0 prints the `@tessera {json}` metric lines on stdout.
#include "data_parallel_trainer.h"
#include "fashion_mnist.h"
#include "mpi_communicator.h"
#include "spec_io.h"

#include <CLI/CLI.hpp>
#include <cblas.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <climits>
#include <cstdio>
#include <exception>
#include <string>

namespace {

constexpr int kExitFailure = 1;  // runtime failure (MPI, internal)
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

} // namespace

int main(int argc, char** argv) {
    using namespace tessera;
    auto comm = train::MpiCommunicator::create(&argc, &argv);
    if (!comm) {
        printError(comm.error().message);
        return kExitFailure;
    }
    train::Communicator& c = **comm;
    const int rank = c.rank();

    auto logger = spdlog::stderr_color_mt("tessera-train");
    logger->set_pattern("[%H:%M:%S.%e] [rank " + std::to_string(rank) + "] [%^%l%$] %v");
    spdlog::set_default_logger(logger);

    CLI::App app{"tessera-train: data-parallel training rank (run it under mpirun, or alone)"};
    std::string specPath;
    std::string dataDir;
    std::int64_t maxSteps = 0;
    app.add_option("--spec", specPath, "job spec JSON file")->required();
    app.add_option("--data-dir", dataDir, "folder with the Fashion-MNIST IDX .gz files");
    app.add_option("--max-steps", maxSteps, "stop after N optimizer steps (overrides the spec)");
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
    std::string resolvedDataDir;
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
        Result<void> valid =
            spec ? validateJobSpec(*spec) : Result<void>(std::unexpected(spec.error()));
        if (valid) {
            config = train::trainConfigFromSpec(*spec, maxSteps);
        } else {
            config = std::unexpected(valid.error());
        }
        if (!agreeOk(c, config ? nullptr : &config.error())) {
            return kExitBadInput;
        }
        resolvedDataDir = datasetDir(*spec);
        if (rank == 0 && worldSize(spec->layout()) != c.worldSize()) {
            spdlog::warn("the spec's layout asks for {} ranks; running data parallel on {}",
                         worldSize(spec->layout()), c.worldSize());
        }
    }

    openblas_set_num_threads(1); // ranks share the cores: one BLAS thread each
    auto data = train::loadFashionMnist(resolvedDataDir);
    if (!agreeOk(c, data ? nullptr : &data.error())) {
        return kExitBadInput;
    }
    if (rank == 0) {
        spdlog::info("tessera-train: {} ranks, Fashion-MNIST {} train / {} test from {}",
                     c.worldSize(), data->train.count, data->test.count, resolvedDataDir);
    }

    train::DataParallelTrainer trainer(*config, *data, c);
    Result<void> result;
    try {
        result = trainer.run([rank](const train::MetricLine& m) {
            if (rank == 0) {
                const std::string line = m.line() + "\n";
                std::fputs(line.c_str(), stdout);
                std::fflush(stdout);
            }
        });
    } catch (const std::exception& e) {
        result = fail(ErrorCode::Internal, std::string("unexpected failure: ") + e.what());
    }
    if (!result) {
        printError(result.error().message +
                   (c.worldSize() > 1 ? " (rank " + std::to_string(rank) + ")" : std::string()));
        if (c.worldSize() > 1) {
            (*comm)->abortAll(kExitFailure); // peers may be waiting in an all-reduce
        }
        return kExitFailure;
    }
    return 0;
}
