// tessera-server's settings file (issue 48): <data folder>/server.json.
#pragma once

#include "worker/common/error.h"

#include <QString>
#include <QStringList>

namespace tessera {

/// What server.json says. Every field is optional; a missing file is all defaults:
///
///     {"admins": ["alice"], "listen": "0.0.0.0:7443", "names": ["head.example.org"]}
///
/// * `admins`: users (client certificates' names) who may cancel and release anyone's jobs and
///   leases. The server's own user on the Unix socket is always one.
/// * `listen`: HOST:PORT to serve over TCP with mutual TLS (`tessera-server --listen` wins);
///   "" = the Unix socket only.
/// * `names`: host names and addresses clients reach the server at, put into its certificate
///   besides this machine's host name and addresses.
struct ServerConfig {
    QStringList admins;
    QString listen;
    QStringList names;

    /// <dataDir()>/server.json.
    static QString defaultPath();
    /// Reads `path`; a file that does not exist gives the defaults. Errors: InvalidArgument naming
    /// the file and what is wrong (not JSON, a field of the wrong type, an admin's name that
    /// cannot be a user's, an unknown field); Io when it exists but cannot be read.
    static Result<ServerConfig> read(const QString& path);
};

} // namespace tessera
