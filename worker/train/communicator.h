// Collective communication interface of the training engine. MpiCommunicator implements it on
// host buffers; a NcclCommunicator (device buffers) can implement it later for the GPU backend.
#pragma once

#include "error.h"

#include <cstddef>
#include <string>

namespace tessera::train {

/// A group of `worldSize()` ranks that run the same collectives in the same order.
class Communicator {
public:
    virtual ~Communicator() = default;

    /// This process's rank in 0..worldSize()-1.
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;

    /// In-place all-reduce SUM of n floats. Errors: Internal naming the failed call and file:line.
    virtual Result<void> allReduceSum(float* data, std::size_t n) = 0;
    /// In-place all-reduce SUM of n doubles (loss sums, counts).
    virtual Result<void> allReduceSum(double* data, std::size_t n) = 0;
    /// In-place all-reduce MIN of n ints (agreeing on errors: lowest failing rank).
    virtual Result<void> allReduceMin(int* data, std::size_t n) = 0;
    /// Broadcast of a byte string: every rank ends with `root`'s `bytes` (resized to its length).
    /// Errors: Internal naming the failed call and file:line.
    virtual Result<void> broadcast(std::string& bytes, int root) = 0;

    /// In-place all-reduce average: the SUM divided by worldSize().
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
