// Pure layout arithmetic of the designer: which rank, pipeline stage, TP rank and DP replica a
// device runs, and the layout edits (assign a layer range to a device's stage, remove a stage,
// set degrees). No widgets: the scene, the panel and the tests share these functions.
#pragma once

#include "tessera/v1/job.pb.h"

#include <QColor>

namespace tessera::designer {

/// What one device runs under a layout. rank = -1: the device is past the world size (idle).
struct DeviceRole {
    int rank = -1;
    int stage = 0; ///< pipeline stage (0 = first)
    int tp = 0;    ///< tensor-parallel rank inside the stage's TP group
    int dp = 0;    ///< data-parallel replica
};

/// Pipeline stages of `layout` (an empty stage list is one stage holding every layer).
int stageCount(const v1::Layout& layout);
/// Tensor-parallel width (0 counts as 1).
int tpWidth(const v1::Layout& layout);
/// Data-parallel degree (0 counts as 1).
int dpDegree(const v1::Layout& layout);
/// World size = DP · PP · TP (DESIGN.md §4).
int worldSize(const v1::Layout& layout);

/// The role of the device with cluster-wide index `device` (devices numbered node by node):
/// rank r = device when r < world size, and r = (dp·PP + stage)·TP + tp (Megatron's order).
DeviceRole roleOf(const v1::Layout& layout, int device);

/// `layout` with an explicit stage list: an empty list becomes one stage [0, layers − 1].
v1::Layout withExplicitStages(const v1::Layout& layout, int layers);

/// Drop of the inclusive layer range [first, last] on device `device`: that device's stage gets
/// the range, its neighbours' boundaries follow (the previous stage ends at first − 1, the next
/// starts at last + 1), so a contiguous split stays contiguous. A device past the world size
/// appends a new stage (the world grows by DP · TP). Ranges are clamped to [0, layers − 1].
v1::Layout assignLayers(const v1::Layout& layout, int layers, int device, int first, int last);

/// Removes `stage`; its layers go to the previous stage (or the next, for stage 0). The last
/// remaining stage cannot be removed (returns the layout unchanged).
v1::Layout removeStage(const v1::Layout& layout, int layers, int stage);

/// Colour of pipeline stage `stage`: a qualitative palette (Okabe-Ito, colour-blind safe), light
/// enough for black text.
QColor stageColor(int stage);

} // namespace tessera::designer
