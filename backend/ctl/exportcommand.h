// `tessera-ctl export --to FORMAT LAYOUT`: a saved layout file as Megatron-LM, DeepSpeed or
// torchtitan settings, the same bytes the designer's Export dialog shows and saves.
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// Reads the layout file `options.specPath` and prints its `options.exportTo` export on stdout
/// (deepspeed: ds_config.json on stdout, the notes on what it cannot hold on stderr). Returns
/// kExitOk, or kExitBadInput with the reason on stderr: a file that cannot be read or is not a
/// layout file (named), or a layout the format cannot express (why, and what to change).
int exportLayout(const CtlOptions& options);

} // namespace tessera::ctl
