// Read-only, human-readable summary of a job spec for the job panel.
#pragma once

#include "tessera/v1/job.pb.h"

#include <QCoreApplication>
#include <QString>

namespace tessera {

/// Formats the spec's name, model, dataset, training settings and layout (with the world size
/// it needs) as a few lines of plain text, e.g. "Model: MLP 784 → 256 → 128 → 10".
class SpecSummary {
    Q_DECLARE_TR_FUNCTIONS(SpecSummary)

public:
    static QString text(const v1::JobSpec& spec);

    /// "Model: VIT 4 blocks, width 64, 4 heads, 7×7 patches — 8 layers, 137,290 parameters"
    /// (the layer and parameter counts from describeModel), or the user command.
    static QString modelLine(const v1::ModelSpec& model);
    /// Optimizer, learning rate and its schedule, weight decay, clipping.
    static QString optimizerLine(const v1::TrainingSpec& training);
    /// Parallel degrees, and for pipelines the stage layer ranges, micro-batches and schedule.
    static QString layoutLine(const v1::Layout& layout);
};

} // namespace tessera
