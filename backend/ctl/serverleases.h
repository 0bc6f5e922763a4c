// tessera-ctl offers / rent / leases / release through a tessera-server (issue 48): with --server
// (or $TESSERA_SERVER) these act on the server's providers, as the person of --identity.
#pragma once

#include "backend/ctl/ctloptions.h"

#include <optional>

namespace tessera::ctl {

/// Runs offers, rent, leases or release on the server of --server/--identity (or
/// $TESSERA_SERVER/$TESSERA_IDENTITY): its exit code, or nullopt when no server is given (the
/// command then runs in-process, as before). rent waits until the lease is ready (exit 0) or
/// failed (exit 1), at most `rentWaitSeconds`; release until it is released. Exit 2 for a bad
/// identity or a refusal (another person's lease: PERMISSION_DENIED names them), 3 when the server
/// does not answer.
std::optional<int> leasesThroughServer(const CtlOptions& options, int rentWaitSeconds = 900);

} // namespace tessera::ctl
