// What tessera-rsh makes of mpirun's remote-shell words: the argv (and leading NAME=value
// environment words) of the program to Exec, and the peer to run it on.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::daemon {

/// A remote command split into words the way a POSIX shell would (without running anything).
struct RemoteCommand {
    std::vector<std::string> argv;
    std::map<std::string, std::string> env; ///< leading NAME=value words
};

/// Joins `words` with spaces and splits them with glibc wordexp(WRDE_NOCMD): quote removal,
/// no command substitution. Leading NAME=value words become `env`. Open MPI's wrapper for Bourne
/// login shells, `( test ! -r ./.profile || . ./.profile; COMMAND )`, is taken off (no profile
/// is read: Exec runs no shell).
/// Errors: InvalidArgument naming the words for shell operators (| & ; < > ( ) { } newline),
/// command substitution, bad quoting, or an empty command.
Result<RemoteCommand> parseRemoteCommand(const std::vector<std::string>& words);

/// Reads the PeerList at `path` (protobuf JSON or binary) and returns the peer named `name`.
/// Errors: NotFound for the file or the name (listing the known names), InvalidArgument when
/// the file is neither format.
Result<v1::PeerWorker> findPeer(const std::string& path, const std::string& name);

} // namespace tessera::daemon
