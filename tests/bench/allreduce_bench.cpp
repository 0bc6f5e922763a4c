// tessera-bench-allreduce: bus bandwidth of the engine's data-parallel gradient path
// (GradBucketReducer over MpiCommunicator) against a bare MPI_Allreduce of the same buffer.
// Run under mpirun with >= 2 ranks; rank 0 prints one `@bench {json}` line per buffer.
#include "worker/train/grad_buckets.h"
#include "worker/train/mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace tessera;
using namespace tessera::train;
using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;

/// One measured buffer: its name and the float ranges of its "layers" (contiguous, in order).
struct Case {
    std::string name;
    Ranges layers;
    double bucketBytes;
};

/// The MLP 784-256-128-10 as the engine lays it out: linear0, relu0, linear1, relu1, linear2,
/// each linear W (out, in) then b (out); ReLUs have no parameters (empty ranges).
Ranges mlpLayers() {
    const int widths[] = {784, 256, 128, 10};
    Ranges layers;
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const std::size_t n =
            std::size_t(widths[i]) * std::size_t(widths[i + 1]) + std::size_t(widths[i + 1]);
        layers.emplace_back(at, at + n);
        at += n;
        if (i < 2) {
            layers.emplace_back(at, at); // relu
        }
    }
    return layers;
}

/// `count` layers of `floatsEach` floats.
Ranges uniformLayers(int count, std::size_t floatsEach) {
    Ranges layers;
    for (int i = 0; i < count; ++i) {
        layers.emplace_back(std::size_t(i) * floatsEach, std::size_t(i + 1) * floatsEach);
    }
    return layers;
}

/// Seconds of the slowest rank (both paths are measured alike: barrier, loop, max over ranks).
double maxOverRanks(double seconds) {
    double worst = seconds;
    MPI_Allreduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/// One step of the engine's path: reset, layerDone(l) for the layers in backward order (last
/// first), finish() (waits for every bucket). Returns false with a message on an error.
bool oursOnce(GradBucketReducer& reducer, int layers, std::string* error) {
    reducer.reset();
    for (int l = layers - 1; l >= 0; --l) {
        if (auto r = reducer.layerDone(l); !r) {
            *error = r.error().message;
            return false;
        }
    }
    if (auto r = reducer.finish(); !r) {
        *error = r.error().message;
        return false;
    }
    return true;
}

int die(const std::string& message) {
    std::fprintf(stderr, "tessera-bench-allreduce: error: %s\n", message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

} // namespace

/// Usage: mpirun -np 2 tessera-bench-allreduce [rounds]. Cases: the MLP's gradients (one
/// bucket), a 25 MB buffer (one bucket) and 25 MB in four 6.25 MB buckets (overlapping
/// non-blocking all-reduces). For each: `rounds` rounds
/// (default 5) alternating ours and bare, each round timing `iters` all-reduces; the best round's
/// mean time per all-reduce is reported with algbw = bytes / time and busbw = algbw · 2(n−1)/n
/// (nccl-tests, PERFORMANCE.md). A correctness check (rank r contributes r + 1) runs first.
int main(int argc, char** argv) {
    auto world = MpiCommunicator::create(&argc, &argv);
    if (!world) {
        std::fprintf(stderr, "tessera-bench-allreduce: error: %s\n", world.error().message.c_str());
        return 1;
    }
    MpiCommunicator& comm = **world;
    const int n = comm.worldSize();
    if (n < 2) {
        return die("needs at least 2 ranks (run it under mpirun -np 2)");
    }
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const std::vector<Case> cases = {
        {"mlp_grads", mlpLayers(), 25e6},
        {"25MB", uniformLayers(1, 6'250'000), 25e6},
        {"25MB_4_buckets", uniformLayers(4, 1'562'500), 6.25e6},
    };
    for (const Case& c : cases) {
        const std::size_t floats = c.layers.back().second;
        const double bytes = 4.0 * double(floats);
        std::vector<float> buf(floats, float(comm.rank() + 1));
        GradBucketReducer reducer(&comm, buf.data(), makeGradBuckets(c.layers, c.bucketBytes));
        const int layers = int(c.layers.size());
        std::string error;
        if (!oursOnce(reducer, layers, &error)) {
            return die(c.name + ": " + error);
        }
        const float expected = float(n) * float(n + 1) / 2.0f;
        if (std::any_of(buf.begin(), buf.end(), [&](float v) { return v != expected; })) {
            return die(c.name + ": the bucketed all-reduce did not sum every element");
        }
        std::fill(buf.begin(), buf.end(), 0.0f); // sums of zeros stay finite however many runs
        const int iters = std::clamp(int(2e8 / bytes), 5, 1000);
        double bestOurs = 1e30;
        double bestBare = 1e30;
        for (int r = 0; r < rounds; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; ++i) {
                if (!oursOnce(reducer, layers, &error)) {
                    return die(c.name + ": " + error);
                }
            }
            bestOurs = std::min(bestOurs, maxOverRanks((MPI_Wtime() - t0) / iters));
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            for (int i = 0; i < iters; ++i) {
                const int rc = MPI_Allreduce(MPI_IN_PLACE, buf.data(), int(floats), MPI_FLOAT,
                                             MPI_SUM, MPI_COMM_WORLD);
                if (rc != MPI_SUCCESS) {
                    return die(c.name + ": MPI_Allreduce failed with code " + std::to_string(rc));
                }
            }
            bestBare = std::min(bestBare, maxOverRanks((MPI_Wtime() - t0) / iters));
        }
        const double busFactor = 2.0 * double(n - 1) / double(n);
        if (comm.rank() == 0) {
            std::printf("@bench {\"case\":\"%s\",\"ranks\":%d,\"bytes\":%.0f,\"buckets\":%zu,"
                        "\"iters\":%d,\"ours_s\":%.6g,\"bare_s\":%.6g,\"ours_busbw\":%.6g,"
                        "\"bare_busbw\":%.6g}\n",
                        c.name.c_str(), n, bytes, reducer.buckets().size(), iters, bestOurs,
                        bestBare, bytes / bestOurs * busFactor, bytes / bestBare * busFactor);
            std::fflush(stdout);
        }
    }
    return 0;
}
