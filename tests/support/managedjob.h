// A managed job for the recovery tests (issue 22): the Fashion-MNIST MLP on DP2, 40 steps with
// the loss every step and a checkpoint every 10, relaunched at most once; and rank 0's loss at a
// step among metric points.
#pragma once

#include "backend/core/jobtypes.h"
#include "worker/common/spec_io.h"

#include <QList>
#include <QString>

#include <cmath>
#include <string>

namespace tessera::test {

/// The job, checkpointing into `checkpointDir` (absolute), with recovery.onNodeLoss
/// `onNodeLoss`. The spec's file is part of the source tree; a broken one fails loudly.
inline v1::JobSpec managedFashionJob(const QString& checkpointDir,
                                     const std::string& onNodeLoss = "replace") {
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    if (!spec) {
        qFatal("%s", spec.error().message.c_str());
    }
    spec->mutable_training()->set_epochs(0);
    spec->mutable_training()->set_max_steps(40);
    spec->mutable_training()->set_log_every(1);
    spec->mutable_checkpoint()->set_every_steps(10);
    spec->mutable_checkpoint()->set_dir(checkpointDir.toStdString());
    spec->mutable_recovery()->set_max_restarts(1);
    spec->mutable_recovery()->set_on_node_loss(onNodeLoss);
    return *spec;
}

/// Rank 0's loss at `step` among `points`; NaN if absent (the last one wins: a relaunch
/// computes again the steps after its checkpoint).
inline double lossAt(const QList<MetricPoint>& points, qint64 step) {
    double loss = std::nan("");
    for (const MetricPoint& p : points) {
        if (p.step == step && p.rank == 0 && p.values.contains(QStringLiteral("loss"))) {
            loss = p.values.value(QStringLiteral("loss"));
        }
    }
    return loss;
}

} // namespace tessera::test
