// GemmLoad: the compute the communication probes run between or beside their messages.
#pragma once

#include "worker/train/nn/ops.h"

#include <cstddef>

namespace tessera::train::probes {

/// A 256³ SGEMM workload (C = A·B on the probe's Ops, inputs 0.5) that the communication probes
/// run between or beside their messages, as training computes between its collectives.
class GemmLoad {
public:
    /// Allocates A, B and C (256 × 256 floats each) on `ops`; A and B hold 0.5.
    explicit GemmLoad(Ops& ops);
    ~GemmLoad();
    GemmLoad(const GemmLoad&) = delete;
    GemmLoad& operator=(const GemmLoad&) = delete;

    /// `count` products, then the device is synchronised.
    void run(int count);

private:
    static constexpr int kDim = 256;
    static constexpr std::size_t kElems = std::size_t(kDim) * kDim;
    Ops& m_ops;
    float* m_buf;
};

} // namespace tessera::train::probes
