// Auto-plan speed (issue 4): a 100-layer model on 64 devices (8 nodes × 8 H100) must be planned
// in under a second. Prints the time against a peer measured in the same run: one estimate() of
// a single layout × the number of layouts auto-plan evaluated, i.e. the search's overhead ratio.
// Exit code 1 when the 1 s goal is missed.
#include "backend/planner/planner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace tessera;
using namespace tessera::planner;
using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

int main() {
    // LLaMA-shaped, 97 blocks + embedding + final norm + head = 100 layers.
    auto model = modelFromHfConfig(R"({"model_type":"llama","hidden_size":8192,
        "intermediate_size":28672,"num_attention_heads":64,"num_key_value_heads":8,
        "num_hidden_layers":97,"vocab_size":32000,"max_position_embeddings":4096})");
    auto cluster = parseHypotheticalCluster("8x8 h100-sxm");
    if (!model || !cluster || model->layers.size() != 100) {
        std::fprintf(stderr, "bench_autoplan: setup failed\n");
        return 2;
    }
    PlanOptions o;
    o.globalBatch = 512;
    o.recompute = "selective";
    o.sequenceParallel = true;
    std::vector<double> plan, single;
    AutoPlanStats stats;
    std::vector<RankedPlan> plans;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = Clock::now();
        auto found = autoPlan(*model, *cluster, o, {}, {}, &stats);
        if (!found) {
            std::fprintf(stderr, "bench_autoplan: %s\n", found.error().message.c_str());
            return 2;
        }
        plans = std::move(*found);
        plan.push_back(seconds(t0, Clock::now()));
    }
    if (plans.empty()) {
        std::fprintf(stderr, "bench_autoplan: nothing fits\n");
        return 2;
    }
    // Peer: estimate() of the winning layout (context + per-layer costs + simulation each time).
    for (int rep = 0; rep < 5; ++rep) {
        const int n = 200;
        const auto t0 = Clock::now();
        for (int i = 0; i < n; ++i) {
            auto e = estimate(*model, *cluster, plans[0].layout, plans[0].options);
            if (!e) {
                return 2;
            }
        }
        single.push_back(seconds(t0, Clock::now()) / n);
    }
    std::sort(plan.begin(), plan.end());
    std::sort(single.begin(), single.end());
    const double p = plan[plan.size() / 2], s = single[single.size() / 2];
    const double peer = s * stats.evaluated;
    std::printf("auto-plan, 100 layers on 64 H100 (median of 5): %.1f ms, %d layouts evaluated, "
                "%d fit\n",
                1e3 * p, stats.evaluated, stats.fitting);
    std::printf("peer: one estimate() %.1f us x %d layouts = %.1f ms; search / peer = %.2f\n",
                1e6 * s, stats.evaluated, 1e3 * peer, p / peer);
    std::printf("best: %s\n", plans[0].reason.c_str());
    std::printf("goal < 1 s: %s\n", p < 1.0 ? "met" : "MISSED");
    return p < 1.0 ? 0 : 1;
}
