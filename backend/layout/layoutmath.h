// Pure layout arithmetic of the designer, the exporters and tessera-ctl: degrees, world size and
// the rank order. Where each rank runs as drawn, and the drop rules, are in
// app/designer/drawnlayout.h.
#pragma once

#include "tessera/v1/job.pb.h"

namespace tessera::designer {

/// What one device runs under a layout. rank = -1: the device is past the world size (idle).
struct DeviceRole {
    int rank = -1;
    int stage = 0;             ///< pipeline stage (0 = first)
    int tp = 0;                ///< tensor-parallel rank inside the stage's TP group
    int dp = 0;                ///< data-parallel replica
    int first = -1, last = -1; ///< the stage's inclusive layer range (-1 when idle or unknown)
};

/// Pipeline stages of `layout` (an empty stage list is one stage holding every layer).
int stageCount(const v1::Layout& layout);
/// Tensor-parallel width (0 counts as 1).
int tpWidth(const v1::Layout& layout);
/// Data-parallel degree (0 counts as 1).
int dpDegree(const v1::Layout& layout);
/// World size = DP · PP · TP (ARCHITECTURE.md §3).
int worldSize(const v1::Layout& layout);

/// The role of rank `device` when rank r runs on device r (the undrawn default): r = (dp·PP +
/// stage)·TP + tp (Megatron-LM's --use-tp-pp-dp-mapping order); rank -1 past the world size.
DeviceRole roleOf(const v1::Layout& layout, int device);

/// `layout` with an explicit stage list: an empty list becomes one stage [0, layers − 1].
v1::Layout withExplicitStages(const v1::Layout& layout, int layers);

} // namespace tessera::designer
