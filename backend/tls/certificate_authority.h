// The cluster CA's crypto (issue 20): a self-signed CA and the certificates it issues to workers
// and to the backend, with OpenSSL 3 (libssl-dev). No Qt, so daemon tests can make certificates.
// Keys are EC P-256 (the curve every TLS 1.2/1.3 stack gRPC links supports; 256-bit keys are
// quick to make: a rent does not wait on RSA prime search). PEM in and out.
#pragma once

#include "worker/common/error.h"

#include <ctime>
#include <string>
#include <vector>

namespace tessera::tls {

/// A private key and its certificate, both PEM ("-----BEGIN PRIVATE KEY-----" PKCS#8 and
/// "-----BEGIN CERTIFICATE-----").
struct KeyAndCert {
    std::string keyPem;
    std::string certPem;
};

/// A TLS identity to connect or serve with: this side's key and certificate, and the CA the
/// other side must chain to.
struct Identity {
    std::string caPem;
    std::string certPem;
    std::string keyPem;
};

/// Who a certificate is for. `dnsNames` and `ipAddresses` become its subjectAltName, the names a
/// TLS client checks the server against (RFC 6125: the common name is not checked).
struct Subject {
    std::string commonName;               ///< e.g. "tessera-worker gpu-3"; at most 64 bytes
    std::vector<std::string> dnsNames;    ///< host names the others use ("node3", "localhost")
    std::vector<std::string> ipAddresses; ///< IPv4 or IPv6 literals ("10.0.0.3", "::1")
    /// The subject's OU ("tessera users" marks a person's client certificate); "" for none.
    std::string organizationalUnit;
    /// True: extendedKeyUsage clientAuth only (a person's certificate can never serve); false:
    /// serverAuth and clientAuth (a worker or the server).
    bool clientOnly = false;
};

/// A validity window, seconds since the epoch (UTC).
struct Validity {
    std::time_t notBefore = 0;
    std::time_t notAfter = 0;
    /// From now minus 5 minutes (clock skew between machines) for `days` days.
    static Validity days(int days);
};

/// Creates a self-signed CA certificate: basicConstraints CA:TRUE with pathlen 0, keyUsage
/// keyCertSign + cRLSign, a random 128-bit serial. Errors: Internal with OpenSSL's reason.
Result<KeyAndCert> createCa(const std::string& commonName, const Validity& validity);

/// Issues a leaf certificate signed by `ca` for `subject`: a new key, extendedKeyUsage serverAuth
/// and clientAuth (a worker is a server to the backend and a client of its peers' Exec; clientAuth
/// only with Subject::clientOnly), subjectAltName from the subject, OU when it has one. Errors:
/// InvalidArgument for an IP literal that does not parse or a CA key/cert that does not load or
/// match; Internal for other OpenSSL failures.
Result<KeyAndCert> issue(const KeyAndCert& ca, const Subject& subject, const Validity& validity);

/// What a certificate says about itself, for messages and renewal decisions.
struct CertificateInfo {
    std::string subject;            ///< one line, RFC 2253 ("CN=tessera-worker gpu-3")
    std::string commonName;         ///< the subject's CN ("" when it has none)
    std::string organizationalUnit; ///< the subject's OU ("" when it has none)
    std::string serial;             ///< the serial number, lowercase hex without leading zeros
    std::string issuer;             ///< the same for the issuer
    std::time_t notBefore = 0;      ///< seconds since the epoch
    std::time_t notAfter = 0;       ///< seconds since the epoch
    std::vector<std::string> names; ///< subjectAltName entries, DNS names and IP literals
    std::string sha256;             ///< fingerprint, lowercase hex with ':' between bytes
};

/// Reads the first certificate of `certPem`. Errors: InvalidArgument when it is not a PEM
/// certificate.
Result<CertificateInfo> inspect(const std::string& certPem);

/// Checks that `certPem` was signed by `caCertPem` and is valid at `at` (purpose not checked).
/// Errors: PermissionDenied naming why ("expired on …", "not issued by …"), InvalidArgument for
/// PEM that does not load.
Result<void> verify(const std::string& certPem, const std::string& caCertPem, std::time_t at);

/// True when `keyPem` is the private key of `certPem`.
bool keyMatches(const std::string& keyPem, const std::string& certPem);

} // namespace tessera::tls
