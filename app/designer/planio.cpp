// Plan conversions (see planio.h).
#include "app/designer/planio.h"

#include "app/designer/drawnlayout.h"

#include <QCoreApplication>
#include <QtGlobal>

#include <algorithm>

namespace tessera::designer {

namespace {
QString trPlan(const char* text) {
    return QCoreApplication::translate("tessera::designer::PlanIo", text);
}
} // namespace

v1::PlanFile planFromJobSpec(v1::PlanFile plan, const v1::JobSpec& spec) {
    plan.set_name(spec.name());
    plan.clear_hf_config_json();
    plan.set_seq_len(0);
    *plan.mutable_model() = spec.model();
    *plan.mutable_layout() = spec.layout();
    v1::PlanSettings* s = plan.mutable_settings();
    s->set_global_batch(spec.training().global_batch());
    s->set_optimizer(spec.training().optimizer().empty() ? "sgd" : spec.training().optimizer());
    s->set_zero_stage(spec.layout().zero_stage());
    v1::JobSpec job = spec;
    job.clear_model();
    job.clear_layout();
    job.clear_job_id();
    job.clear_placement();
    *plan.mutable_job() = job;
    return plan;
}

QList<v1::PlanNode> nodesFromCluster(const planner::PlanCluster& cluster) {
    QList<v1::PlanNode> nodes;
    for (const planner::PlanNode& n : cluster.nodes) {
        v1::PlanNode node;
        node.set_name(n.name);
        node.set_device(n.deviceId);
        node.set_devices(n.devices);
        node.set_price_per_hour(n.pricePerHour);
        node.set_hypothetical(true);
        nodes.append(node);
    }
    return nodes;
}

QList<v1::PlanNode> nodesFromWorkers(const QList<WorkerNode>& workers, const QString& gpuDevice) {
    QList<v1::PlanNode> nodes;
    for (const WorkerNode& w : workers) {
        if (w.state != NodeState::Ready) {
            continue;
        }
        v1::PlanNode node;
        node.set_name(w.name.toStdString());
        const bool gpu = w.cudaDevices > 0;
        const planner::DeviceType* known =
            gpu ? planner::findDeviceByCudaName(w.gpuName.toStdString()) : nullptr;
        node.set_device(!gpu ? "cpu" : known ? known->id : gpuDevice.toStdString());
        node.set_devices(gpu ? w.cudaDevices : std::max(1, w.slots));
        node.set_hypothetical(false);
        nodes.append(node);
    }
    return nodes;
}

std::string runName(const std::string& what, const v1::Layout& layout) {
    const int dp = std::max(1, layout.data_parallel()), pp = std::max(1, layout.stages_size()),
              tp = std::max(1, layout.tensor_parallel());
    std::string degrees = "DP" + std::to_string(dp) + " × PP" + std::to_string(pp);
    if (tp > 1) {
        degrees += " × TP" + std::to_string(tp);
    }
    return what + " · " + degrees + " (designer)";
}

QString launchBlocker(const v1::PlanFile& plan) {
    if (!plan.hf_config_json().empty()) {
        return trPlan(QT_TRANSLATE_NOOP(
            "tessera::designer::PlanIo",
            "Imported config.json models are for planning only: tessera-train runs the "
            "built-in MLP, ViT and GPT. Pick a built-in model to launch."));
    }
    if (plan.model().family().empty()) {
        return trPlan(QT_TRANSLATE_NOOP("tessera::designer::PlanIo", "No built-in model chosen."));
    }
    if (plan.settings().zero_stage() > 1) {
        return trPlan(
            QT_TRANSLATE_NOOP("tessera::designer::PlanIo",
                              "The engine runs ZeRO stage 0 or 1; set ZeRO to 0 or 1 to launch."));
    }
    if (Result<v1::Placement> placement = drawnPlacement(plan); !placement) {
        return QString::fromStdString(placement.error().message);
    }
    return {};
}

Result<v1::JobSpec> jobSpecFromPlan(const v1::PlanFile& plan) {
    const QString blocker = launchBlocker(plan);
    if (!blocker.isEmpty()) {
        return fail(ErrorCode::InvalidArgument, blocker.toStdString());
    }
    v1::JobSpec spec = plan.job();
    spec.clear_job_id();
    spec.clear_placement();
    *spec.mutable_model() = plan.model();
    // Named after what it runs, not after the example the plan started from.
    std::string model = plan.model().family();
    if (!spec.dataset().name().empty()) {
        model += " on " + spec.dataset().name();
    }
    spec.set_name(runName(model, plan.layout()));
    if (Result<void> drawn = applyDrawnLayout(plan, &spec); !drawn) {
        return relay(drawn);
    }
    return spec;
}

Result<void> applyDrawnLayout(const v1::PlanFile& plan, v1::JobSpec* spec) {
    *spec->mutable_layout() = plan.layout();
    spec->mutable_layout()->set_zero_stage(plan.settings().zero_stage());
    // A layout drawn on GPUs needs GPUs: auto-provision rents GPU machines for it, and the
    // controller refuses CPU-only workers instead of running it on their cores.
    const bool allGpu = !plan.nodes().empty() &&
                        std::all_of(plan.nodes().begin(), plan.nodes().end(),
                                    [](const v1::PlanNode& n) { return n.device() != "cpu"; });
    if (spec->layout().device().empty() && allGpu) {
        spec->mutable_layout()->set_device("cuda");
    }
    if (plan.settings().global_batch() > 0) {
        spec->mutable_training()->set_global_batch(plan.settings().global_batch());
    }
    if (!plan.settings().optimizer().empty()) {
        spec->mutable_training()->set_optimizer(plan.settings().optimizer());
    }
    // Drawn on live workers: each rank runs where it was drawn.
    Result<v1::Placement> placement = drawnPlacement(plan);
    if (!placement) {
        return relay(placement);
    }
    *spec->mutable_placement() = std::move(*placement);
    return {};
}

} // namespace tessera::designer
