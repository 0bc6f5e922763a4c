// SGEMM peak probe (see peak_probe.h).
#include "worker/train/peak_probe.h"

#include <algorithm>
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
    // Best of a few windows: a window that shared the core with another process measures less.
    using Clock = std::chrono::steady_clock;
    constexpr int kWindows = 3;
    double best = 0.0;
    for (int w = 0; w < kWindows; ++w) {
        const auto t0 = Clock::now();
        int count = 0;
        double elapsed = 0.0;
        while (count < 1 || elapsed < seconds / kWindows) {
            ops.gemm(false, false, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
            ++count;
            ops.sync();
            elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        }
        best = std::max(best, 2.0 * double(n) * n * n * count / elapsed);
    }
    ops.release(a);
    ops.release(b);
    ops.release(c);
    return best;
}

} // namespace tessera::train
