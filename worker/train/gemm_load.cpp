// GemmLoad (see gemm_load.h).
#include "worker/train/gemm_load.h"

namespace tessera::train::probes {

GemmLoad::GemmLoad(Ops& ops) : m_ops(ops), m_buf(ops.alloc(3 * kElems)) {
    ops.fill(m_buf, 0.5f, 2 * kElems);
}

GemmLoad::~GemmLoad() {
    m_ops.release(m_buf);
}

void GemmLoad::run(int count) {
    for (int i = 0; i < count; ++i) {
        m_ops.gemm(false, false, kDim, kDim, kDim, 1.0f, m_buf, kDim, m_buf + kElems, kDim, 0.0f,
                   m_buf + 2 * kElems, kDim);
    }
    m_ops.sync();
}

} // namespace tessera::train::probes
