// Adding a host to the SSH provider's hosts file (ssh-hosts.json) from the GUI: the file is
// edited as JSON, so that the other hosts and any field Tessera does not know stay as they are.
#pragma once

#include "backend/provision/sshhost.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

namespace tessera {

/// The existing entry that `host` would duplicate, as a message naming the form's field ("Name:
/// the hosts file already has …", "Address: …"), or empty when it is new. A duplicate has the
/// same node name (SshHost::nodeName(), so an unnamed "ssh-<host>" counts) or the same offer
/// id (user@host:port).
QString duplicateSshHost(const QList<SshHost>& existing, const SshHost& host);

/// Appends `host` (in sshHostToJson's form) to the "hosts" array of the JSON file `path`,
/// creating the file and its folder when missing, and writes it atomically (QSaveFile). Other
/// entries and unknown fields, in the entries and beside "hosts", are kept (JSON objects are
/// written with sorted keys). Returns every host of the file as loadSshHosts reads it after the
/// write. Errors, all with nothing written: InvalidArgument for a file that is not JSON (naming
/// the file, line and column), not an object, whose "hosts" is not an array, or that
/// loadSshHosts refuses; AlreadyExists for a duplicate (duplicateSshHost's message); Io naming
/// the file or folder that cannot be written.
Result<QList<SshHost>> addSshHostToFile(const QString& path, const SshHost& host);

} // namespace tessera
