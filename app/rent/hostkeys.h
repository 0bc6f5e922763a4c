// Host keys of an SSH host as the Add SSH host form handles them: what ssh-keyscan printed, the
// SHA-256 fingerprints ssh-keygen computed, whether a known_hosts file already trusts them, and
// adding them to that file once the person has accepted them.
#pragma once

#include "worker/common/error.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace tessera {

/// One host key a scan found. Plain value type.
struct ScannedHostKey {
    QString hostToken;   ///< "host" for port 22, else "[host]:port" (known_hosts' spelling)
    QString type;        ///< "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa", ...
    QString key;         ///< the key's base64 blob
    QString fingerprint; ///< "SHA256:…" (from ssh-keygen -lf -); empty until computed

    /// The known_hosts line for this key: "<hostToken> <type> <key>".
    QString line() const;
    /// "ED25519", "ECDSA", "RSA", ... from the type, for people.
    QString shortType() const;
};

/// What a known_hosts file says about the keys a scan found.
enum class HostKeyTrust {
    Unknown, ///< the file has no key for this host: the person must compare and accept
    Trusted, ///< the file already holds one of the scanned keys for this host
    Changed, ///< the file holds other keys for this host: possibly an attack, never replaced
    Revoked, ///< the file marks a scanned key @revoked
};

/// The host as known_hosts and ssh-keyscan write it: "host" for port 22, else "[host]:port".
QString knownHostsToken(const QString& host, int port);

/// `path` with a leading "~/" (or a lone "~") replaced by the home folder, as ssh does.
QString expandHome(const QString& path);

/// The keys in ssh-keyscan's standard output: lines "<host> <type> <base64>"; comments, blank
/// lines and lines that do not look like a key are skipped. Order kept; duplicates dropped.
QList<ScannedHostKey> parseKeyscan(const QString& out);

/// The fingerprints in `ssh-keygen -lf -` output, one per key line in order: the second field of
/// each "<bits> SHA256:<hash> <comment> (<TYPE>)" line. Lines without one are skipped.
QStringList parseFingerprints(const QString& out);

/// Compares `ssh-keygen -F <host> -f <file>` output (the file's lines for the host, comments
/// starting with '#') with the scanned keys. @cert-authority lines are not host keys and are
/// ignored; a scanned key on a @revoked line is Revoked.
HostKeyTrust compareKnownHosts(const QString& keygenFindOutput,
                               const QList<ScannedHostKey>& scanned);

/// Appends the keys' known_hosts lines to `path` (after "~/" expansion), creating its folder
/// (mode 0700) and the file (mode 0600) if missing; the file's other lines are kept. Errors: Io
/// naming the file and what the system said.
Result<void> appendKnownHosts(const QString& path, const QList<ScannedHostKey>& keys);

} // namespace tessera
