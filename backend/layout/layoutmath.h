// Pure layout arithmetic of the designer, the exporters and tessera-ctl: degrees, world size and
// the rank order. Where each rank runs as drawn, and the drop rules, are in
// app/designer/drawnlayout.h.
#pragma once

#include "tessera/v1/job.pb.h"

#include <utility>
#include <vector>

namespace tessera::designer {

/// What one device runs under a layout. rank = -1: the device is past the world size (idle).
struct DeviceRole {
    int rank = -1;
    int stage = 0;   ///< pipeline stage (0 = first)
    int tp = 0;      ///< tensor-parallel rank inside the stage's TP group
    int dp = 0;      ///< data-parallel replica
    int cp = 0;      ///< context-parallel rank: which part of each sequence
    int cpWidth = 1; ///< the layout's context-parallel degree (the cards name CP only when > 1)
    /// Expert-parallel rank: which 1/EP of each layer's routed experts the device holds (its
    /// group is EP consecutive (dp, cp) pairs: dp·CP + cp).
    int ep = 0;
    int first = -1, last = -1; ///< the stage's inclusive layer range (-1 when idle or unknown)
    /// Interleaved schedule: the layer ranges of the stage's model chunks 1..V−1 (chunk 0 is
    /// [first, last]); empty otherwise.
    std::vector<std::pair<int, int>> laterChunks;
    /// The routed experts of each MoE layer the device holds under EP (inclusive), -1 = all of
    /// them or a dense model (set by the designer, which knows the model).
    int firstExpert = -1, lastExpert = -1;
};

/// Pipeline stages (ranks) of `layout`: an empty stage list is one stage holding every layer;
/// under the interleaved schedule the list holds virtual_stages model chunks per stage (chunk j
/// on stage j mod the count), and a DeviceRole's layer range is its stage's first chunk.
int stageCount(const v1::Layout& layout);
/// Tensor-parallel width (0 counts as 1).
int tpWidth(const v1::Layout& layout);
/// Data-parallel degree (0 counts as 1).
int dpDegree(const v1::Layout& layout);
/// Context-parallel degree (0 counts as 1).
int cpDegree(const v1::Layout& layout);
/// Expert-parallel degree (0 counts as 1); adds no ranks.
int epDegree(const v1::Layout& layout);
/// World size = DP · PP · CP · TP (ARCHITECTURE.md §3), computed in 64 bits and capped at
/// kMaxWorldSize + 1 (spec_io.h): a file's or a control's huge degrees never overflow.
int worldSize(const v1::Layout& layout);

/// The role of rank `device` when rank r runs on device r (the undrawn default): r = ((dp·PP +
/// stage)·CP + cp)·TP + tp (Megatron-LM's --use-tp-pp-dp-mapping order with CP inside); rank
/// -1 past the world size.
DeviceRole roleOf(const v1::Layout& layout, int device);

/// `layout` with an explicit stage list: an empty list becomes one stage [0, layers − 1].
v1::Layout withExplicitStages(const v1::Layout& layout, int layers);

} // namespace tessera::designer
