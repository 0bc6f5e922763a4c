// Loading --tls-cert/--tls-key/--tls-ca with checks a person can act on.
#include "worker/daemon/security/tls_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tessera::daemon {

namespace {

constexpr std::size_t kMaxPemBytes = 1 << 20; // a chain of a few certificates is a few KiB

Result<std::string> readPem(const std::string& path, const char* flag, const char* what,
                            const char* marker) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        return fail(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                    std::string(flag) + " '" + path + "' cannot be read (" + std::strerror(err) +
                        "): give the file holding " + what);
    }
    if (!S_ISREG(st.st_mode) || st.st_size > off_t(kMaxPemBytes)) {
        return fail(ErrorCode::InvalidArgument, std::string(flag) + " '" + path +
                                                    "' is not a PEM file of at most 1 MiB "
                                                    "holding " +
                                                    what);
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!in && !in.eof()) {
        return fail(ErrorCode::Io, std::string(flag) + " '" + path + "' cannot be read");
    }
    std::string text = ss.str();
    if (text.find(marker) == std::string::npos) {
        return fail(ErrorCode::InvalidArgument, std::string(flag) + " '" + path +
                                                    "' holds no PEM block '" + marker +
                                                    "': give the file holding " + what);
    }
    return text;
}

} // namespace

Result<TlsFiles> TlsFiles::load(const std::string& certPath, const std::string& keyPath,
                                const std::string& caPath) {
    TlsFiles files;
    files.certPath = certPath;
    files.keyPath = keyPath;
    files.caPath = caPath;
    auto cert =
        readPem(certPath, "--tls-cert", "this worker's certificate", "-----BEGIN CERTIFICATE-----");
    if (!cert) {
        return relay(cert);
    }
    auto key = readPem(keyPath, "--tls-key", "this worker's private key", "PRIVATE KEY-----");
    if (!key) {
        return relay(key);
    }
    struct stat st {};
    if (::stat(keyPath.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "--tls-key '" + keyPath + "' can be read by other users (mode " +
                        std::to_string((st.st_mode >> 6) & 7) +
                        std::to_string((st.st_mode >> 3) & 7) + std::to_string(st.st_mode & 7) +
                        "): run 'chmod 600 " + keyPath + "'");
    }
    auto ca =
        readPem(caPath, "--tls-ca", "the cluster CA's certificate", "-----BEGIN CERTIFICATE-----");
    if (!ca) {
        return relay(ca);
    }
    files.certPem = std::move(*cert);
    files.keyPem = std::move(*key);
    files.caPem = std::move(*ca);
    return files;
}

} // namespace tessera::daemon
