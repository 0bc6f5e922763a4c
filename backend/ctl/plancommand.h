// `tessera-ctl plan`: the planner without a window, for scripts and for checking it against
// published runs. One layout (its degrees, or a designer layout file) or --auto's best ones, as
// a table or as JSON.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/planner/planner.h"

namespace tessera::ctl {

/// Even stages of `model` for `stages` pipeline stages: the decoder blocks split as evenly as
/// whole blocks go (the first `blocks % stages` stages one more), the embedding with the first
/// stage, the final norm, head and multi-token-prediction modules with the last (Megatron-LM's
/// default split). A model without blocks (MLP) is split by layer count. `stages` is clamped
/// to 1..blocks. Fills `layout`'s stages (none for one stage).
void setEvenStages(const planner::PlanModel& model, int stages, v1::Layout& layout);

/// Runs `tessera-ctl plan` for `options.planValues`/`planFlags`: prints the table or JSON on
/// stdout and returns kExitOk — also for a layout that does not fit, which the output says
/// ("fits": false and the problems). kExitBadInput with the reason on stderr: an option's value,
/// a model file that cannot be read or is refused (the field named), an unknown model name or
/// device, degrees that do not divide the cluster or the batch.
int runPlanCommand(const CtlOptions& options);

} // namespace tessera::ctl
