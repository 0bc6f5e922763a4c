// OpenSSH connection sharing for the SSH provider: every ssh call of one rent goes through one
// master connection (ControlMaster) whose socket lives in a folder only this user can enter.
#pragma once

#include "backend/provision/ssh/sshhost.h"

#include <QString>
#include <QStringList>

namespace tessera {

/// How long an idle master connection stays after its last ssh call, seconds (ControlPersist).
inline constexpr int kSshControlPersistS = 60;

/// The folder for master sockets: $XDG_RUNTIME_DIR/tessera-ssh when that path is short, else
/// /tmp/tessera-ssh-<uid>; created with mode 0700. Empty when it cannot be made private (not a
/// folder, a link, owned by another user, not creatable): ssh calls then share nothing. Checked
/// once per run (the result is cached).
QString sshControlDir();

/// ssh options that share one connection per host setting: ControlMaster=auto, ControlPath in
/// sshControlDir() named by a hash of the host's address, port, user, key and known_hosts file
/// (so that changed settings never ride an old connection, and a host key check is never
/// skipped), ControlPersist=kSshControlPersistS. A stale socket (its master gone) is replaced
/// by a fresh connection (ssh unlinks it). Empty when sshControlDir() is empty.
QStringList sshControlOptions(const SshHost& host);

/// The master socket for `host`'s settings (sshControlDir()/<20 hex of a SHA-256>), or empty
/// when sshControlDir() is empty. It exists while a master connection serves the host.
QString sshControlPath(const SshHost& host);

/// Closes the host's master connection, if any: `ssh -O stop` (started detached under
/// `timeout 5`) removes its socket at once, so the next call connects afresh, and the master
/// ends when its last session does: a call that reached it a moment before still completes
/// (`-O exit` would cut it off with exit 255). Best effort, never blocks, reports nothing.
/// Call it when a lease is over.
void closeSshMaster(const SshHost& host);

/// Removes the host's master socket without asking the master: after a call that timed out or
/// lost its connection the master may be stuck, and the next call must connect afresh instead
/// of waiting on it. Sessions still running through that master go on; it ends on its own
/// (ServerAlive or ControlPersist).
void dropSshMaster(const SshHost& host);

} // namespace tessera
