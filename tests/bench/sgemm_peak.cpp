// tessera-bench-sgemm: this machine's single-thread SGEMM peak (OpenBLAS cblas_sgemm, one BLAS
// thread), the denominator of the benchmark's "achieved FLOP/s / peak" row.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

/// Best FLOP/s of `reps` timed rounds of C = A·B, A, B, C (n, n) row-major, 2·n³ FLOPs per
/// product; each round repeats the product until it has run >= `minSeconds`.
double bestFlops(int n, int reps, double minSeconds) {
    const std::size_t count = std::size_t(n) * std::size_t(n);
    std::vector<float> a(count), b(count), c(count, 0.0f);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::size_t i = 0; i < count; ++i) {
        a[i] = u(rng);
        b[i] = u(rng);
    }
    auto product = [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                    n, 0.0f, c.data(), n);
    };
    product(); // warm-up: page in, pack buffers
    const double flopsPerProduct = 2.0 * double(n) * double(n) * double(n);
    double best = 0.0;
    for (int r = 0; r < reps; ++r) {
        int products = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double secs = 0.0;
        do {
            product();
            ++products;
            secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        } while (secs < minSeconds);
        best = std::max(best, flopsPerProduct * products / secs);
    }
    return best;
}

} // namespace

/// Usage: tessera-bench-sgemm [n...]; default sizes 64 128 256 512 784 1024. Prints one JSON
/// line {"sizes":{"64":flops,...},"peak_flops":max} (FLOP/s). Exit 2 on a bad size.
int main(int argc, char** argv) {
    openblas_set_num_threads(1);
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) {
        const int n = std::atoi(argv[i]);
        if (n <= 0 || n > 8192) {
            std::fprintf(stderr, "tessera-bench-sgemm: bad size '%s' (1..8192)\n", argv[i]);
            return 2;
        }
        sizes.push_back(n);
    }
    if (sizes.empty()) {
        sizes = {64, 128, 256, 512, 784, 1024};
    }
    std::string json = "{\"sizes\":{";
    double peak = 0.0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const double flops = bestFlops(sizes[i], 5, 0.1);
        peak = std::max(peak, flops);
        char item[64];
        std::snprintf(item, sizeof item, "%s\"%d\":%.6g", i ? "," : "", sizes[i], flops);
        json += item;
    }
    char tail[64];
    std::snprintf(tail, sizeof tail, "},\"peak_flops\":%.6g}", peak);
    std::printf("%s%s\n", json.c_str(), tail);
    return 0;
}
