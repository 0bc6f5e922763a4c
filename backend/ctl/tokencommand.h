// `tessera-ctl token FILE`: a fresh bearer token for a worker started by hand.
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// Writes a new token (32 random bytes from the system's generator as 64 hex digits, 256 bits:
/// far above the worker's 128-bit minimum, worker/common/bearer_token.h) into the new file
/// `options.target` with mode 0600, or prints it when the target is "-". Returns kExitOk, or
/// kExitBadInput with the reason on stderr: an existing file (a running worker may use it; the
/// person removes it), a folder that cannot be written.
int writeToken(const CtlOptions& options);

} // namespace tessera::ctl
