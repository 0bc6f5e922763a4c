// tessera-bench-plan: the planner's predictions for the calibration benchmark
// (run_calibration_bench.py). For a job spec on a local cluster of N one-slot CPU workers
// ("local-1".."local-N", as tessera-ctl rents them), with the stored calibration:
//   tessera-bench-plan --spec S.json --nodes N --calibration C.json
// prints one JSON line {"step_s":..., "mem_bytes":[per rank], "workspace_bytes":..., ...};
// with --autoplan it plans the spec's model, batch and optimizer itself and prints the best
// layout as {"layout": <v1::Layout JSON>, "zero": z, "step_s": ..., "reason": ...}.
#include "backend/planner/calibration.h"
#include "backend/planner/planner.h"
#include "worker/common/spec_io.h"

#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace tessera;

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr,
                 "tessera-bench-plan: %s\nusage: tessera-bench-plan --spec S.json --nodes N "
                 "[--calibration C.json] [--autoplan]\n",
                 why.c_str());
    return 2;
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') {
            out += '\\';
        }
        out += ch;
    }
    return out + "\"";
}

} // namespace

int main(int argc, char** argv) {
    std::string specPath, calPath;
    int nodes = 0;
    bool autoplan = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--spec" && more) {
            specPath = argv[++i];
        } else if (a == "--calibration" && more) {
            calPath = argv[++i];
        } else if (a == "--nodes" && more) {
            nodes = std::atoi(argv[++i]);
        } else if (a == "--autoplan") {
            autoplan = true;
        } else {
            return usage("unknown argument '" + a + "'");
        }
    }
    if (specPath.empty() || nodes < 1) {
        return usage("--spec and --nodes (>= 1) are required");
    }
    auto spec = loadJobSpec(specPath);
    if (!spec) {
        return usage(spec.error().message);
    }
    std::vector<planner::NodeCalibration> cal;
    if (!calPath.empty()) {
        auto c = planner::loadCalibration(calPath);
        if (!c) {
            return usage(c.error().message);
        }
        cal = *c;
    }
    auto model = planner::modelFromSpec(spec->model());
    if (!model) {
        return usage(model.error().message);
    }
    planner::PlanCluster cluster;
    for (int i = 1; i <= nodes; ++i) {
        cluster.nodes.push_back({"local-" + std::to_string(i), "cpu", 1, 0.0});
    }
    planner::PlanOptions opt;
    opt.globalBatch = spec->training().global_batch();
    opt.optimizer = spec->training().optimizer() == "adamw" ? "adamw" : "sgd";
    if (autoplan) {
        planner::AutoPlanGoal goal;
        goal.top = 1;
        auto found = planner::autoPlan(*model, cluster, opt, goal, cal);
        if (!found) {
            return usage(found.error().message);
        }
        const auto& plans = *found;
        if (plans.empty()) {
            return usage("auto-plan found no layout that fits");
        }
        std::string layout;
        (void)google::protobuf::util::MessageToJsonString(plans[0].layout, &layout);
        std::printf("{\"layout\": %s, \"zero\": %d, \"step_s\": %.6g, \"reason\": %s}\n",
                    layout.c_str(), plans[0].options.zeroStage, plans[0].estimate.stepSeconds,
                    quoted(plans[0].reason).c_str());
        return 0;
    }
    opt.zeroStage = spec->layout().zero_stage();
    auto e = planner::estimate(*model, cluster, spec->layout(), opt, cal);
    if (!e) {
        return usage(e.error().message);
    }
    std::string mem;
    double workspace = 0;
    for (const planner::DeviceEstimate& d : e->devices) {
        if (d.rank >= 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%.0f", mem.empty() ? "" : ", ",
                          d.total() - d.workspace);
            mem += buf;
            workspace = d.workspace;
        }
    }
    std::string problems;
    for (const std::string& p : e->problems) {
        problems += (problems.empty() ? "" : ", ") + quoted(p);
    }
    std::printf("{\"step_s\": %.6g, \"compute_s\": %.6g, \"tp_s\": %.6g, \"pp_s\": %.6g, "
                "\"bubble_s\": %.6g, \"dp_s\": %.6g, \"opt_s\": %.6g, \"loss_s\": %.6g, "
                "\"mem_bytes\": [%s], "
                "\"workspace_bytes\": %.0f, \"problems\": [%s]}\n",
                e->stepSeconds, e->computeSeconds, e->tpCommSeconds, e->ppCommSeconds,
                e->bubbleSeconds, e->dpCommSeconds, e->optimizerSeconds, e->lossSyncSeconds,
                mem.c_str(), workspace, problems.c_str());
    return 0;
}
