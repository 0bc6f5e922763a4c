// Where a client of the control API finds its tessera-server, and who it is there.
#pragma once

#include "backend/tls/certificate_authority.h"

#include <QString>

#include <memory>

namespace tessera::client {

/// A server's gRPC target and the credentials to reach it.
struct ServerAddress {
    /// "unix:/…/backend.sock" (this machine's server, the data folder's user is the caller) or
    /// "HOST:PORT" (a tessera-server's TCP listener, mutual TLS with `identity`).
    QString endpoint;
    /// A person's client certificate and the cluster CA (`tessera-ctl certify --client NAME`);
    /// null on a Unix socket.
    std::shared_ptr<const tls::Identity> identity;

    bool isLocal() const { return endpoint.startsWith(QLatin1String("unix:")); }
    /// For titles and messages: "this machine" for a Unix socket, else HOST:PORT.
    QString describe() const;
};

} // namespace tessera::client
