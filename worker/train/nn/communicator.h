// Collective and point-to-point communication of the training engine. MpiCommunicator implements
// it on host buffers, NcclCommunicator (GPU backend) on device buffers. Groups for data, tensor
// and pipeline parallelism are made with split().
#pragma once

#include "worker/common/error.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tessera::train {

/// Handle of a non-blocking operation, valid until wait()/waitAll() completed it.
using RequestId = int;

/// A group of `worldSize()` ranks that run the same collectives in the same order.
/// Every error is Internal and names the failed call and file:line.
class Communicator {
public:
    virtual ~Communicator() = default;

    /// This process's rank in 0..worldSize()-1.
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;

    /// In-place all-reduce SUM of n floats (in this communicator's memory space).
    virtual Result<void> allReduceSum(float* data, std::size_t n) = 0;
    /// In-place all-reduce SUM of n doubles; always host memory (loss sums, counts, norms).
    virtual Result<void> allReduceSum(double* data, std::size_t n) = 0;
    /// In-place all-reduce MIN of n ints; host memory (agreeing on errors: lowest failing rank).
    virtual Result<void> allReduceMin(int* data, std::size_t n) = 0;
    /// Broadcast of a host byte string: every rank ends with `root`'s `bytes`.
    virtual Result<void> broadcast(std::string& bytes, int root) = 0;
    /// In-place broadcast of n floats from `root`.
    virtual Result<void> broadcast(float* data, std::size_t n, int root) = 0;

    /// Starts an in-place all-reduce SUM of n floats; `data` must stay untouched until the
    /// request is waited for. Progress is made during poll(), wait() and other calls.
    virtual Result<RequestId> iAllReduceSum(float* data, std::size_t n) = 0;
    /// Starts sending n floats to `peer` with `tag`; `data` must stay untouched until waited.
    virtual Result<RequestId> iSend(const float* data, std::size_t n, int peer, int tag) = 0;
    /// Receives n floats from `peer` with `tag` (blocking).
    virtual Result<void> recv(float* data, std::size_t n, int peer, int tag) = 0;
    /// Completes one request / every outstanding request.
    virtual Result<void> wait(RequestId request) = 0;
    virtual Result<void> waitAll() = 0;
    /// Drives outstanding requests forward without blocking (MPI_Testall).
    virtual Result<void> poll() = 0;

    /// All-gather with per-rank counts: rank r contributes counts[r] floats starting at
    /// data + displs[r]; afterwards every rank has every segment in place (ZeRO-1 parameter
    /// gather). `counts` and `displs` have worldSize() entries.
    virtual Result<void> allGatherInPlace(float* data, const int* counts, const int* displs) = 0;

    /// New communicator of the ranks that pass the same `color`, ordered by `key`
    /// (MPI_Comm_split). Collective over this communicator.
    virtual Result<std::unique_ptr<Communicator>> split(int color, int key) = 0;

    /// In-place all-reduce average: the SUM divided by worldSize() (host floats only).
    Result<void> allReduceAvg(float* data, std::size_t n) {
        auto r = allReduceSum(data, n);
        if (r) {
            const float inv = 1.0f / float(worldSize());
            for (std::size_t i = 0; i < n; ++i) {
                data[i] *= inv;
            }
        }
        return r;
    }
};

} // namespace tessera::train
