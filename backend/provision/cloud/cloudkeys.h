// Secrets and keys for renting from a cloud: the API key file, Tessera's SSH client key, a host
// key made for each instance before it boots (so the first SSH connection already checks it),
// the cloud-init user data that installs that host key, and the installation id that tags
// every instance Tessera launches. All in <data>/cloud (folder 0700, secrets 0600).
#pragma once

#include "worker/common/error.h"

#include <QObject>
#include <QString>

#include <functional>

namespace tessera {

/// <data folder>/cloud, created 0700 if missing.
QString cloudDir();

/// The API key file of cloud `providerId`: <cloudDir>/<providerId>-api-key.
QString apiKeyPath(const QString& providerId);
/// The key in `path` (its first line, trimmed). Errors: NotFound (no file: says how to add
/// one), PermissionDenied (readable by group or others: "chmod 600 …", as ssh refuses such
/// keys), InvalidArgument (empty, over 4 KiB, or with control characters).
Result<QString> readApiKeyFile(const QString& path);
/// Whether `key` can be an API key: one line of printable characters, at most 4 KiB. Errors:
/// InvalidArgument.
Result<void> checkApiKey(const QString& key);
/// Writes `key` into `path` as a 0600 file (atomically). Errors: InvalidArgument (empty, control
/// characters), Io naming the file.
Result<void> writeApiKeyFile(const QString& path, const QString& key);

/// This data folder's random id (16 hex characters, made once, in <cloudDir>/installation-id):
/// the value of the "tessera-owner" tag on every instance it launches, so that Tessera tells its
/// own lost instances from another installation's on the same account.
QString installationId();

/// Tessera's SSH client key for cloud instances: <cloudDir>/ssh/id_ed25519.
QString cloudClientKeyPath();
/// Makes the client key with ssh-keygen when missing (off the calling thread), then gives its
/// public key line. Errors: Io (ssh-keygen missing or failing: names the package).
void ensureCloudClientKey(QObject* owner, std::function<void(Result<QString>)> done);

/// An SSH host key made for one instance.
/// The SHA-256 fingerprint of OpenSSH public key line `publicKey` ("ssh-ed25519 AAAA… comment"),
/// as ssh prints it: "SHA256:" + unpadded base64 of the key blob's SHA-256 (ssh-keygen -l).
/// "(not an OpenSSH public key)" for anything else.
QString hostKeyFingerprint(const QString& publicKey);

struct HostKey {
    QString privateKey; ///< OpenSSH private key (PEM-like block)
    QString publicKey;  ///< "ssh-ed25519 AAAA… comment"
};
/// Makes an ed25519 host key in `folder` (ssh_host_ed25519_key, 0600) with ssh-keygen, off the
/// calling thread. Errors: Io.
void makeHostKey(QObject* owner, const QString& folder, const QString& comment,
                 std::function<void(Result<HostKey>)> done);

/// cloud-init user data that replaces the instance's SSH host keys with `key` before sshd
/// starts (cloud-init's ssh module: ssh_deletekeys, ssh_keys.ed25519_private/_public).
QString hostKeyUserData(const HostKey& key);

/// Writes a known_hosts file that trusts `publicKey` for `address` only. Errors: Io.
Result<void> writeKnownHosts(const QString& path, const QString& address, const QString& publicKey);

} // namespace tessera
