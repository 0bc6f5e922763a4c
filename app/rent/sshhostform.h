// What the Add SSH host form's fields say, checked: a host for the hosts file, or a message that
// names the field to fix.
#pragma once

#include "backend/provision/ssh/sshhost.h"

#include <QString>

namespace tessera {

/// The form's fields as typed (strings untrimmed).
struct SshHostFormInput {
    QString name;           ///< node name; empty = "ssh-<host>"
    QString address;        ///< "host" or "user@host"
    int port = 22;          ///< 1-65535
    QString user;           ///< empty = the user in address, else ssh's default
    QString identityFile;   ///< private key; empty = ssh-agent and ssh's default keys
    QString knownHostsFile; ///< empty = ~/.ssh/known_hosts
    int gpus = 0;           ///< 0 = CPU only (or not known yet)
    QString gpuName;        ///< e.g. "NVIDIA H100 80GB HBM3"
    double gpuMemoryGiB = 0;
    int cores = 0;           ///< 0 = not known yet
    double pricePerHour = 0; ///< US dollars per hour; 0 = the user's own
};

/// The result of checkSshHostForm.
struct SshHostFormCheck {
    SshHost host;  ///< the entry (valid when error is empty)
    QString field; ///< the field at fault: "name", "address", "port", "user", "identityFile",
                   ///< "knownHostsFile", "gpus", "price"; empty when all is well
    QString error; ///< starts with the field's label ("Address: …") and says what to do
    bool ok() const { return error.isEmpty(); }
};

/// Checks the fields: address required (host name, IPv4 or IPv6 address; "user@" in front sets
/// the user, which must then agree with the SSH user field), name and user in the characters
/// a node name and a login may have, an identity file that exists, is readable and is not the
/// ".pub" half, a known hosts file that is not a folder, GPU model and memory only with GPUs,
/// no negative numbers. Reads the file system (stat only).
SshHostFormCheck checkSshHostForm(const SshHostFormInput& input);

} // namespace tessera
