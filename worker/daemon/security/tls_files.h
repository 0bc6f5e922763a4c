// The PEM files of a worker's TLS identity (--tls-cert/--tls-key/--tls-ca): read and checked once
// at start, so that a wrong path or a key readable by others is named before gRPC sees the PEM.
#pragma once

#include "worker/common/error.h"

#include <string>

namespace tessera::daemon {

/// A worker's certificate, its private key and the cluster CA that every peer must chain to.
struct TlsFiles {
    std::string certPem; ///< this worker's certificate (PEM), presented to every peer
    std::string keyPem;  ///< its private key (PEM)
    std::string caPem;   ///< the cluster CA certificate(s) (PEM) peers are verified against
    std::string certPath, keyPath, caPath; ///< where they came from, for messages and children

    /// Reads the three files. Errors: NotFound/Io naming the file and flag; InvalidArgument when
    /// a file holds no PEM block of the right kind, or when the key file can be read by group or
    /// others (mode must be 0600 or stricter: "chmod 600 F").
    static Result<TlsFiles> load(const std::string& certPath, const std::string& keyPath,
                                 const std::string& caPath);
};

/// The environment variables that hand a TLS identity to tessera-rsh in a job's processes:
/// TESSERA_TLS_CERT, TESSERA_TLS_KEY, TESSERA_TLS_CA (file paths).
inline constexpr const char* kTlsCertEnv = "TESSERA_TLS_CERT";
inline constexpr const char* kTlsKeyEnv = "TESSERA_TLS_KEY";
inline constexpr const char* kTlsCaEnv = "TESSERA_TLS_CA";

} // namespace tessera::daemon
