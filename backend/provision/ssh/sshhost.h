// A machine the user owns, reached over OpenSSH: its settings, the ssh command line for it, and
// the list of such hosts kept as JSON (dataDir()/ssh-hosts.json).
#pragma once

#include "worker/common/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace tessera {

/// One SSH host. Its host key must already be in `knownHostsFile`: Tessera never accepts an
/// unknown or changed key.
struct SshHost {
    QString name;            ///< cluster node name; empty = "ssh-" + host
    QString host;            ///< address or DNS name
    int port = 22;           ///< sshd's TCP port
    QString user;            ///< login; empty = ssh's default (the local user name)
    QString identityFile;    ///< private key; empty = ssh-agent and ssh's default keys
    QString knownHostsFile;  ///< empty = ssh's default (~/.ssh/known_hosts)
    double pricePerHour = 0; ///< US dollars per hour, for cost totals (0: the user's own)
    int slots = 0;           ///< ranks the worker takes; 0 = one per core (GPU: one per GPU)
    QString remoteDir;       ///< Tessera's folder on the host; empty = ~/.cache/tessera
    // What the machine has: from the settings file until a rent's check finds it out (then the
    // check's findings are written back). All 0/empty = unknown, offered as one CPU slot.
    int gpus = 0;            ///< GPUs (nvidia-smi); 0 = none or unknown
    QString gpuName;         ///< the first GPU's name, e.g. "NVIDIA H100 80GB HBM3"
    double gpuMemoryGiB = 0; ///< memory of one GPU (the smallest), GiB (2^30 bytes)
    int cores = 0;           ///< CPU cores (nproc); 0 = unknown
    /// The backend reaches the worker through an SSH tunnel (sshtunnels.h) instead of its TCP
    /// port, for a host whose firewall lets in only SSH (a cloud's default). The job's other
    /// workers and ranks still reach it directly.
    bool tunnel = false;

    /// name, or "ssh-<host>" when name is empty.
    QString nodeName() const;
    /// remoteDir, or ".cache/tessera" (relative to the login's home) when empty.
    QString baseDir() const;
    /// The offer id: "user@host:port" (user omitted when empty).
    QString offerId() const;
};

/// ssh's arguments (not the program) to run `remoteCommand` through the host's login shell:
/// BatchMode=yes (never prompts), StrictHostKeyChecking=yes (unknown or changed host keys are
/// refused), ConnectTimeout=10 s, ServerAliveInterval=2 s × ServerAliveCountMax=3 (a host that
/// vanishes mid-command ends the call in about 6 s), IdentitiesOnly with identityFile, and a
/// shared master connection (sshControlOptions, sshconnection.h).
QStringList sshArguments(const SshHost& host, const QString& remoteCommand);

/// ssh's arguments for a tunnel that carries connections to the Unix socket `localSocket` here
/// to 127.0.0.1:`remotePort` on the host: the options of sshArguments but no shared master (the
/// tunnel lives as long as the lease, apart from the short-lived calls), -N, ExitOnForwardFailure
/// (a socket it cannot make ends it), StreamLocalBindUnlink (a stale socket file is replaced),
/// StreamLocalBindMask=0177 (only this user may connect), ServerAliveInterval=5 s ×
/// ServerAliveCountMax=3.
QStringList sshTunnelArguments(const SshHost& host, const QString& localSocket, int remotePort);

/// `s` in single quotes for a POSIX shell (embedded quotes escaped).
QString shellQuote(const QString& s);

/// A message for a failed ssh call during `step` ("checking the machine", ...): names the host,
/// what ssh said, and what to do (host key not trusted, key refused, unreachable, timed out).
QString explainSshFailure(const SshHost& host, const QString& step, int exitCode, bool timedOut,
                          const QString& stderrText);

/// The host as a JSON object (the hosts file's entry format) and back.
QJsonObject sshHostToJson(const SshHost& host);
SshHost sshHostFromJson(const QJsonObject& object);

/// Reads hosts from a JSON file: {"hosts": [{"host": ..., "port": ..., ...}]} with the fields of
/// SshHost (gpuMemoryGiB in GiB). A missing file is an empty list. Errors: InvalidArgument naming
/// the file and the bad entry (no host, a port outside 1-65535, a negative number).
Result<QList<SshHost>> loadSshHosts(const QString& path);
/// The hosts of a hosts file's bytes `text` (`path` names it in messages), checked as
/// loadSshHosts checks them. Errors: as loadSshHosts.
Result<QList<SshHost>> parseSshHosts(const QByteArray& text, const QString& path);
/// Writes hosts to a JSON file (atomically). Errors: Io naming the file.
Result<void> saveSshHosts(const QString& path, const QList<SshHost>& hosts);

} // namespace tessera
