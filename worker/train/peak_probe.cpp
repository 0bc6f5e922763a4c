// SGEMM peak probe (see peak_probe.h).
#include "peak_probe.h"

#include <chrono>

namespace tessera::train {

double measureGemmPeak(Ops& ops, double seconds) {
    constexpr int n = 512;
    constexpr std::size_t nn = std::size_t(n) * n;
    float* a = ops.alloc(nn);
    float* b = ops.alloc(nn);
    float* c = ops.alloc(nn);
    ops.fill(a, 0.5f, nn);
    ops.fill(b, 0.25f, nn);
    ops.gemm(false, false, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n); // warm-up
    ops.sync();
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    int count = 0;
    double elapsed = 0.0;
    while (count < 3 || elapsed < seconds) {
        ops.gemm(false, false, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
        ++count;
        if (count % 4 == 0 || count < 4) {
            ops.sync();
            elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        }
    }
    ops.sync();
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    ops.release(a);
    ops.release(b);
    ops.release(c);
    return elapsed > 0.0 ? 2.0 * double(n) * n * n * count / elapsed : 0.0;
}

} // namespace tessera::train
