// "Test connection" of the Add SSH host form: fetch the host's keys, show their fingerprints,
// add them to the known_hosts file only once the person accepts them, then log in for real and
// check what the machine has. Every step is an asynchronous process: the GUI thread never waits.
#pragma once

#include "app/rent/hostkeys.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/provision/ssh/sshmachine.h"

#include <QObject>
#include <QPointer>

class QProcess;

namespace tessera {

/// The programs a probe runs (names looked up on PATH, or absolute paths). Tests point them at
/// scripts; the defaults are OpenSSH's.
struct SshTools {
    QString ssh = QStringLiteral("ssh");
    QString keyscan = QStringLiteral("ssh-keyscan");
    QString keygen = QStringLiteral("ssh-keygen");
};

/// One connection test of one host. start() scans (ssh-keyscan -T 5 -p PORT HOST), computes
/// the fingerprints (ssh-keygen -lf -) and looks the host up in its known_hosts file
/// (ssh-keygen -F), then emits keysFound(). With a key already trusted it goes on to log in at
/// once; with an unknown key it waits in AwaitingAcceptance until acceptKey() (writes the keys,
/// then logs in) or rejectKey(); a changed or revoked key ends it failed (never replaced). The
/// login is ssh with the provider's own options (BatchMode, StrictHostKeyChecking=yes, its
/// known_hosts file; no shared master connection) running the rent's machine check.
class SshHostProbe : public QObject {
    Q_OBJECT
public:
    enum class Stage { Idle, Scanning, AwaitingAcceptance, Connecting, Connected, Failed };
    Q_ENUM(Stage)

    /// `host` needs host and port; user, identityFile and knownHostsFile as the provider uses
    /// them (an empty knownHostsFile is ssh's ~/.ssh/known_hosts).
    SshHostProbe(const SshHost& host, const SshTools& tools = {}, QObject* parent = nullptr);

    /// Starts the scan (only from Idle).
    void start();
    /// Only in AwaitingAcceptance: adds the scanned keys to the known_hosts file, then logs in.
    void acceptKey();
    /// Only in AwaitingAcceptance: nothing is written; ends Failed with reason "rejected".
    void rejectKey();

    Stage stage() const { return m_stage; }
    const SshHost& host() const { return m_host; }
    QList<ScannedHostKey> keys() const { return m_keys; }
    HostKeyTrust trust() const { return m_trust; }
    /// The known_hosts file the keys are checked against and written to ("~/" expanded).
    QString knownHostsFile() const;

    /// "Linux · 16 cores · 62.8 GiB RAM · Open MPI 4.1.4 · 1 × NVIDIA H200 (139.8 GiB)".
    static QString describe(const SshMachine& machine);

Q_SIGNALS:
    /// What the probe is doing now, for a status line.
    void progress(QString text);
    /// The scan found `keys` (fingerprints filled in); `trust` says what the file knew.
    void keysFound(QList<tessera::ScannedHostKey> keys, tessera::HostKeyTrust trust);
    /// Logged in and checked the machine.
    void connected(tessera::SshMachine machine);
    /// The probe ended without a connection; `reason` names the host and what to do.
    void failed(QString reason);

private:
    void fingerprint();
    void lookUp();
    void found(HostKeyTrust trust);
    void login();
    void fail(const QString& reason);
    QString where() const;

    SshHost m_host;
    SshTools m_tools;
    Stage m_stage = Stage::Idle;
    QList<ScannedHostKey> m_keys;
    HostKeyTrust m_trust = HostKeyTrust::Unknown;
};

} // namespace tessera
