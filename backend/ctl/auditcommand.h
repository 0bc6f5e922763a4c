// `tessera-ctl audit`: the audit log of tessera-server (issue 48).
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// Prints the newest --limit lines of the audit log (a table, or --json), oldest first: through
/// --server, else through the data folder's backend, else from the history itself. Returns
/// kExitOk, kExitBadInput (a bad identity, an unreadable history) or kExitUnreachable.
int audit(const CtlOptions& options);

} // namespace tessera::ctl
