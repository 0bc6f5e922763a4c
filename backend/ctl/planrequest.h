// `tessera-ctl plan`'s request: a model, the machines, and a layout given by its degrees or a
// designer layout file, or --auto; read and checked from the command line's option values.
#pragma once

#include "worker/common/error.h"

#include <QString>

#include <map>
#include <set>
#include <string>

namespace tessera::ctl {

/// What `tessera-ctl plan` was asked. Sizes in sequences (samples) and tokens.
struct PlanRequest {
    QString model;                                    ///< --model: a config.json path or a name
    QString cluster = QStringLiteral("1x8 h100-sxm"); ///< --cluster "NxG device"
    QString layoutFile;                               ///< --layout: a designer layout file
    int dp = 0;                                       ///< --dp; 0 = the devices left by TP × PP
    int tp = 1, pp = 1;                               ///< --tp, --pp
    int vpp = 1;            ///< --vpp: model chunks per pipeline stage (interleaved 1F1B)
    int cp = 1;             ///< --cp: context-parallel width
    int ep = 1;             ///< --ep: expert-parallel width
    int microBatchSize = 1; ///< --micro-batch: sequences per micro-batch per DP rank
    int globalBatch = 0;    ///< --global-batch: sequences per optimizer step; 0 = the default
    int seqLen = 0;         ///< --seq-len: tokens per sequence; 0 = the model's (capped at 4096)
    int zero = 0;           ///< --zero 0..3
    QString recompute = QStringLiteral("none"); ///< --recompute none|selective|full
    bool sequenceParallel = false;              ///< --sp
    bool tpCommOverlap = false;                 ///< --tp-overlap
    QString precision; ///< --precision; empty = the model's (bf16 for imported models)
    /// --schedule 1f1b|gpipe|interleaved|zb-h1 (interleaved when only --vpp > 1 is given)
    QString schedule = QStringLiteral("1f1b");
    QString flashAttention = QStringLiteral("auto"); ///< --flash-attention auto|on|off
    bool autoPlan = false;                           ///< --auto: search the layouts instead
    int top = 5;                                     ///< --top K: layouts --auto prints
    bool json = false;                               ///< --json
    /// Which of the layout's options were given (to refuse them with --auto or --layout).
    std::set<std::string> given;
};

/// Global batch when --global-batch is not given: 512 sequences (of 4096 tokens, 2M tokens per
/// step: between LLaMA-2's 4M and GPT-3 175B's 1.6M of 2048 tokens, Touvron et al. 2023 and
/// Brown et al. 2020).
inline constexpr int kDefaultGlobalBatch = 512;

/// The names of plan's options: those its row of the subcommand table lists (ctlcli.cpp hands
/// their values here).
const std::vector<const char*>& planOptionNames();

/// Reads `values` (option name → its value as given) and `flags` (options given without a value)
/// into a request. Errors: InvalidArgument naming the option and what it takes — a number that
/// is not a positive whole number (--zero: 0..3), an unknown --recompute, --precision or
/// --schedule, --auto or --layout together with a layout's own options (--dp, --tp, --pp,
/// --vpp, --micro-batch), --vpp > 1 with another schedule than interleaved, no --model and no
/// --layout.
Result<PlanRequest> readPlanRequest(const std::map<std::string, std::string>& values,
                                    const std::set<std::string>& flags);

} // namespace tessera::ctl
