// `tessera-ctl certify --hosts H,H --out D [--name N]`: a certificate from the data folder's
// cluster CA for a worker a person starts by hand, and the flags to start it with; `--client
// NAME --out D` and `--revoke NAME`: people's certificates for tessera-server.
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// --hosts: writes D/worker.key (0600), D/worker.crt and D/ca.crt (D created 0700 if missing) and
/// prints the tessera-worker flags and the tessera-ctl flag that go with them. Returns the exit
/// code: kExitOk, or kExitBadInput with the reason on stderr (a host that is neither a DNS name nor
/// an IP address, a folder that cannot be written, existing files that would be overwritten).
/// --client NAME: D/client.key, D/client.crt and D/ca.crt, a person's certificate for
/// tessera-server (ClientCertificates::issue). --revoke NAME: revokes NAME's certificates.
int certify(const CtlOptions& options);

} // namespace tessera::ctl
