// Where the autoscaler's policy is kept between starts: QSettings, group "autoscale" (the app's
// Auto-provision dialog writes it; the app and `tessera-ctl serve` read it).
#pragma once

#include "backend/autoscale/autoscaler.h"

namespace tessera {

/// Reads the policy QSettings holds (defaults: off, no budget caps, 8 nodes, 5 min idle).
/// Needs QCoreApplication's organization and application names set ("Tessera", "tessera").
AutoscalePolicy loadAutoscalePolicy();
/// Stores `policy` in QSettings (same group and keys as loadAutoscalePolicy).
void saveAutoscalePolicy(const AutoscalePolicy& policy);

} // namespace tessera
