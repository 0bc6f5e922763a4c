// How tessera-ctl reaches a tessera-server elsewhere (issue 48): --server HOST:PORT (or
// $TESSERA_SERVER) with --identity D (or $TESSERA_IDENTITY), D from `tessera-ctl certify
// --client NAME` on the server.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/service/datafolderlock.h"
#include "backend/tls/certificate_authority.h"

#include <memory>
#include <optional>

namespace tessera::ctl {

/// A server to go through: its address and the person's TLS identity.
struct ServerContact {
    FolderOwner owner;                             ///< pid 0, role "server", endpoint HOST:PORT
    std::shared_ptr<const tls::Identity> identity; ///< client.crt, client.key, ca.crt
};

/// Reads D/client.crt, D/client.key and D/ca.crt. Errors: Io naming a file that cannot be read
/// (and what makes one); InvalidArgument when the key is not the certificate's, or a file is not
/// PEM.
Result<std::shared_ptr<const tls::Identity>> readClientIdentity(const QString& dir);

/// The server of --server/--identity, else of $TESSERA_SERVER/$TESSERA_IDENTITY (not with
/// --workers or --local); nullopt when none is given. Errors: InvalidArgument for a server
/// without an identity or a bad $TESSERA_SERVER; those of readClientIdentity.
Result<std::optional<ServerContact>> serverContact(const CtlOptions& options);

} // namespace tessera::ctl
