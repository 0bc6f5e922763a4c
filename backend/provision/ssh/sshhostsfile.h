// Editing the SSH provider's hosts file (ssh-hosts.json) in place: the file is changed as JSON,
// so the other hosts and any field Tessera does not know stay as they are, and every writer in
// the process (the Add SSH host form, a rent's write-back of what it found) takes turns.
#pragma once

#include "backend/provision/ssh/sshhost.h"
#include "worker/common/error.h"

#include <QJsonArray>
#include <QList>
#include <QString>

#include <functional>

namespace tessera {

/// The existing entry that `host` would duplicate, as a message naming the form's field ("Name:
/// the hosts file already has …", "Address: …"), or empty when it is new. A duplicate has the
/// same node name (SshHost::nodeName(), so an unnamed "ssh-<host>" counts) or the same offer
/// id (user@host:port).
QString duplicateSshHost(const QList<SshHost>& existing, const SshHost& host);

/// A change to the hosts file: gets the "hosts" array as JSON (entries with every field they
/// have) and the same entries as loadSshHosts reads them, index for index; edits `entries`, or
/// fails to leave the file untouched.
using SshHostsChange =
    std::function<Result<void>(QJsonArray& entries, const QList<SshHost>& hosts)>;

/// Reads the JSON file `path`, applies `change` to its "hosts" array and writes it back
/// atomically (QSaveFile), creating the file and its folder when missing. Entries `change` does
/// not touch, unknown fields and keys beside "hosts" are kept (JSON objects are written with
/// sorted keys). Calls are serialised within the process (a mutex), so two writers never lose
/// each other's change; safe from any thread. Returns every host of the file as loadSshHosts
/// reads it after the write. Errors, all with nothing written: InvalidArgument for a file that
/// is not JSON (naming the file, line and column), not an object, whose "hosts" is not an array,
/// or that loadSshHosts refuses; whatever `change` returns; Io naming the file or folder that
/// cannot be read or written.
Result<QList<SshHost>> editSshHostsFile(const QString& path, const SshHostsChange& change);

/// Appends `host` (in sshHostToJson's form) to the hosts file (editSshHostsFile). Errors: those
/// of editSshHostsFile, and AlreadyExists for a duplicate (duplicateSshHost's message).
Result<QList<SshHost>> addSshHostToFile(const QString& path, const SshHost& host);

/// Writes what a rent's check found on the machine (`found`'s gpus, gpuName, gpuMemoryGiB and
/// cores) into the entry whose offer id is `found.offerId()`, keeping its other fields (known or
/// not) as they are; nothing is written when no entry has that id any more (the user removed
/// it). Errors: those of editSshHostsFile.
Result<QList<SshHost>> writeFoundMachine(const QString& path, const SshHost& found);

} // namespace tessera
