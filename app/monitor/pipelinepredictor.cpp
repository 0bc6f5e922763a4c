// The planner's pipeline prediction for the monitor (see pipelinepredictor.h).
#include "app/monitor/pipelinepredictor.h"

#include "app/designer/stagetimes.h"
#include "backend/layout/layoutmath.h"

namespace tessera {

PipelinePredictor::PipelinePredictor(QObject* parent) : QObject(parent) {
    connect(&m_runner, &designer::EstimateRunner::ready, this, &PipelinePredictor::onReady);
}

planner::PlanCluster PipelinePredictor::clusterOf(const v1::JobSpec& spec) {
    const auto deviceId = [](const std::string& device) {
        return device == "cuda" ? std::string("h100-sxm") : std::string("cpu");
    };
    planner::PlanCluster cluster;
    for (const auto& slot : spec.placement().slots()) {
        if (slot.ranks() > 0) {
            cluster.nodes.push_back({slot.worker(), deviceId(slot.device()), slot.ranks(), 0.0});
        }
    }
    if (cluster.nodes.empty()) {
        const int world = designer::worldSize(spec.layout());
        for (int i = 0; i < world; ++i) {
            cluster.nodes.push_back(
                {"rank" + std::to_string(i), deviceId(spec.layout().device()), 1, 0.0});
        }
    }
    return cluster;
}

void PipelinePredictor::predict(const QString& jobId, const v1::JobSpec& spec) {
    const int stages = designer::stageCount(spec.layout());
    const QString title = tr("Predicted");
    if (spec.model().command_size() > 0) {
        Q_EMIT predicted(jobId, {}, stages, false, title,
                         tr("No prediction: the job runs a user command, which the planner "
                            "cannot describe."));
        return;
    }
    Result<planner::PlanModel> model =
        planner::modelFromSpec(spec.model(), spec.model().vocab_size());
    if (!model) {
        Q_EMIT predicted(
            jobId, {}, stages, false, title,
            tr("No prediction: %1").arg(QString::fromStdString(model.error().message)));
        return;
    }
    m_jobId = jobId; // what onReady() reports on
    m_layout = spec.layout();
    m_model = *model;
    designer::EstimateInput input{m_model, clusterOf(spec), m_layout, {}, m_calibration.current()};
    if (spec.training().global_batch() > 0) {
        input.options.globalBatch = spec.training().global_batch();
    }
    // The engine's default optimizer is momentum SGD (job.proto TrainingSpec.optimizer).
    input.options.optimizer = spec.training().optimizer() == "adamw" ? "adamw" : "sgd";
    input.options.zeroStage = m_layout.zero_stage();
    m_calibrated = false;
    for (const planner::NodeCalibration& c : input.calibration) {
        for (const planner::PlanNode& n : input.cluster.nodes) {
            m_calibrated = m_calibrated || c.node == n.name;
        }
    }
    m_runner.request(std::move(input), false);
}

void PipelinePredictor::onReady() {
    const designer::EstimateOutput& out = m_runner.output();
    QString why;
    double compute = 0;
    if (!out.estimate) {
        why = QString::fromStdString(out.estimate.error().message);
    } else if (!out.estimate->problems.empty()) {
        why = QString::fromStdString(out.estimate->problems.front());
    } else {
        compute = out.estimate->computeSeconds;
    }
    designer::PredictedPipeline p = designer::predictPipeline(&m_model, m_layout, compute);
    QString title;
    if (p.seconds) {
        title = tr("Predicted by the planner: %1, %2 stages, %3 micro-batches (%4)")
                    .arg(designer::scheduleName(p.kind))
                    .arg(p.stages)
                    .arg(p.microBatches)
                    .arg(m_calibrated ? tr("calibrated numbers") : tr("datasheet numbers"));
    } else {
        title = tr("Predicted shape in relative units: %1, %2 stages, %3 micro-batches (no "
                   "estimate: %4)")
                    .arg(designer::scheduleName(p.kind))
                    .arg(p.stages)
                    .arg(p.microBatches)
                    .arg(why.isEmpty() ? tr("zero compute time") : why);
    }
    Q_EMIT predicted(m_jobId, p.boxes, p.stages, p.seconds, title,
                     tr("No prediction: the layout's schedule is invalid."));
}

} // namespace tessera
