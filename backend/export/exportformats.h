// The layout exporters: the drawn layout as other frameworks' settings (Megatron-LM arguments,
// DeepSpeed's ds_config.json with notes, a torchtitan TOML job config), used by the designer's
// Export dialog and by `tessera-ctl export`, byte for byte the same.
#pragma once

#include "backend/export/deepspeedexport.h"
#include "backend/export/megatronexport.h"
#include "backend/export/torchtitanexport.h"

namespace tessera::designer {

// Every function reads the plan the designer shows: the model (a built-in spec, or an imported
// Hugging Face config.json in `hf_config_json`), `layout` (DP degree, TP width, stages as
// inclusive ranges of the model's layer list [embedding, block0..block{n-1}, ln_f, head, and
// DeepSeek-V3's multi-token-prediction modules] for decoder language models, micro-batches,
// schedule) and `settings` (global batch in samples,
// 0 = 64; ZeRO stage 0-3; recompute none/selective/full; sequence parallelism; precision
// fp32/tf32/bf16, empty = the model's default: fp32 for built-ins, bf16 for imported models;
// optimizer sgd/adamw, empty = adamw).
//
// The micro-batch size in samples is global batch / (DP × micro-batches); every function refuses
// (InvalidArgument naming the numbers) a batch that does not divide, stages that do not cover
// the layer list in order, and a model that cannot be built. Output is deterministic (fixed key
// order, "\n" line ends), so it can be compared with golden files. Where a format cannot express
// the drawn layout the function returns an InvalidArgument error that says why and what to
// change; where it expresses it only approximately the text says so in a comment (a note for
// DeepSpeed's JSON, which has no comments). The files (flags, keys, their comments) are English,
// as the tools read them; the errors and the DeepSpeed notes are for a person: translated
// (context tessera::designer::LayoutExport), counts in the user's locale, file names, flags and
// keys quoted as they are.

} // namespace tessera::designer
