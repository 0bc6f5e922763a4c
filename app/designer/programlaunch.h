// "Launch with program…": the drawn layout as a job that runs the user's own program.
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>
#include <QStringList>

namespace tessera::designer {

/// The program a layout is launched with.
struct ProgramChoice {
    QString program;       ///< argv[0]: a path on the workers, or a name on their PATH
    QStringList arguments; ///< argv[1..], no shell
    QString workdir;       ///< local folder shipped to the nodes as the ranks' working
                           ///< directory (absolute); empty = none, the program is on the nodes
    QString launcher = QStringLiteral("mpirun"); ///< "mpirun" or "torchrun" (model.launcher)
};

/// Splits a command line as a POSIX shell would split words (quotes, backslashes; no
/// expansion): `--lr 3e-4 --name "my run"` → {"--lr", "3e-4", "--name", "my run"}.
/// Errors: InvalidArgument for an unterminated quote.
Result<QStringList> splitArguments(const QString& text);

/// The JobSpec that runs `choice` over the drawn layout, for every model (also an imported
/// config.json one) and every ZeRO stage, since the program, not Tessera's engine, trains:
/// model.command / launcher / workdir from `choice`; model.config = the model description the
/// ranks read from TESSERA_LAYOUT_FILE's modelConfig (an imported model's config.json as it is,
/// or the built-in model's fields in the spec's JSON names: family, dim, blocks, heads, ...);
/// the layout with the plan's ZeRO stage (and "cuda" when drawn on GPUs only); the plan job's
/// training, dataset and checkpoint sections with the plan's global batch and optimizer.
/// Errors: InvalidArgument naming what to fix: no program, a launcher that is not mpirun or
/// torchrun, a workdir that is not an absolute path of a folder, a config.json that is not a
/// JSON object.
Result<v1::JobSpec> jobSpecForProgram(const v1::PlanFile& plan, const ProgramChoice& choice);

} // namespace tessera::designer
