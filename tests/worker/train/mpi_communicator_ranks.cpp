// Program run under mpirun by test_mpi_communicator: every rank exercises MpiCommunicator's
// collectives, point-to-point and split() calls and checks the results. Prints "rank R ok" on
// success; on a failed check it prints the reason and ends the whole job (exit code 3).
#include "worker/train/mpi_communicator.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::train;

namespace {

MpiCommunicator* g_world = nullptr;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "rank %d: check failed: %s\n", g_world->rank(), what.c_str());
        std::fflush(stderr);
        g_world->abortAll(3);
    }
}

template <typename T> T must(Result<T> r, const char* what) {
    if (!r) {
        check(false, std::string(what) + ": " + r.error().message);
    }
    if constexpr (!std::is_void_v<T>) {
        return std::move(*r);
    }
}

} // namespace

int main(int argc, char** argv) {
    auto created = MpiCommunicator::create(&argc, &argv);
    if (!created) {
        std::fprintf(stderr, "%s\n", created.error().message.c_str());
        return 2;
    }
    MpiCommunicator& world = **created;
    g_world = &world;
    const int n = world.worldSize();
    const int r = world.rank();
    check(n >= 2, "needs at least 2 ranks");

    // Broadcast of floats from rank 1.
    std::vector<float> b = r == 1 ? std::vector<float>{1.5f, 2.5f, 3.5f} : std::vector<float>(3);
    must(world.broadcast(b.data(), b.size(), 1), "broadcast floats");
    check(b == std::vector<float>({1.5f, 2.5f, 3.5f}), "broadcast floats values");

    {
        // Split by parity, ordered by descending world rank (key = -rank).
        auto sub = must(world.split(r % 2, -r), "split");
        int members = 0;
        int position = 0;
        for (int k = n - 1; k >= 0; --k) {
            if (k % 2 == r % 2) {
                position += k > r ? 1 : 0;
                ++members;
            }
        }
        check(sub->worldSize() == members, "split size");
        check(sub->rank() == position, "split rank order follows the key");
        double mine = r;
        must(sub->allReduceSum(&mine, 1), "split all-reduce");
        double want = 0;
        for (int k = r % 2; k < n; k += 2) {
            want += k;
        }
        check(mine == want, "split all-reduce sums only the group");
        // The sub-communicator's non-blocking ops work too.
        float one = 1.0f;
        const RequestId id = must(sub->iAllReduceSum(&one, 1), "split iAllReduceSum");
        must(sub->wait(id), "split wait");
        check(one == float(members), "split iAllReduceSum value");
    } // the split communicator is freed here, before MPI_Finalize

    // Non-blocking all-reduce, driven by poll(), then waited.
    const int len = 1000;
    std::vector<float> x(len);
    for (int i = 0; i < len; ++i) {
        x[std::size_t(i)] = float(r + i);
    }
    const RequestId reduce = must(world.iAllReduceSum(x.data(), x.size()), "iAllReduceSum");
    // Point-to-point ring while the all-reduce is in flight.
    std::vector<float> out(len), in(len);
    for (int i = 0; i < len; ++i) {
        out[std::size_t(i)] = float(r * 10000 + i);
    }
    must(world.iSend(out.data(), out.size(), (r + 1) % n, 7), "iSend");
    must(world.poll(), "poll");
    must(world.recv(in.data(), in.size(), (r - 1 + n) % n, 7), "recv");
    const int left = (r - 1 + n) % n;
    for (int i = 0; i < len; ++i) {
        check(in[std::size_t(i)] == float(left * 10000 + i), "recv values");
    }
    must(world.wait(reduce), "wait");
    check(!world.wait(reduce).has_value(), "waiting twice on a request is an error");
    const float rankSum = float(n * (n - 1) / 2);
    for (int i = 0; i < len; ++i) {
        check(x[std::size_t(i)] == rankSum + float(n * i), "iAllReduceSum values");
    }
    must(world.waitAll(), "waitAll");
    check(world.outstandingRequests() == 0, "no request left after waitAll");

    // All-gather with uneven counts (rank k contributes k + 1 floats).
    std::vector<int> counts(static_cast<std::size_t>(n));
    std::vector<int> displs(static_cast<std::size_t>(n));
    int total = 0;
    for (int k = 0; k < n; ++k) {
        counts[std::size_t(k)] = k + 1;
        displs[std::size_t(k)] = total;
        total += k + 1;
    }
    std::vector<float> gathered(std::size_t(total), -1.0f);
    for (int i = 0; i < counts[std::size_t(r)]; ++i) {
        gathered[std::size_t(displs[std::size_t(r)] + i)] = float(r) + 0.5f;
    }
    must(world.allGatherInPlace(gathered.data(), counts.data(), displs.data()), "all-gather");
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < counts[std::size_t(k)]; ++i) {
            check(gathered[std::size_t(displs[std::size_t(k)] + i)] == float(k) + 0.5f,
                  "all-gather segment " + std::to_string(k));
        }
    }

    // A receive of a different length than sent is an Internal error naming both counts.
    if (r == 0) {
        const float two[2] = {1.0f, 2.0f};
        const RequestId s = must(world.iSend(two, 2, 1, 9), "iSend short");
        must(world.wait(s), "wait short");
    } else if (r == 1) {
        float three[3] = {};
        auto got = world.recv(three, 3, 0, 9);
        check(!got.has_value() && got.error().code == ErrorCode::Internal &&
                  got.error().message.find("expected 3 floats, got 2") != std::string::npos,
              "recv length mismatch is reported");
    }

    int low = r + 5;
    must(world.allReduceMin(&low, 1), "allReduceMin");
    check(low == 5, "allReduceMin value");
    must(world.barrier(), "barrier");
    std::printf("rank %d ok\n", r);
    return 0;
}
