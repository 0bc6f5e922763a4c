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
};

} // namespace tessera
