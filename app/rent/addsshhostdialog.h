// The "Add SSH host…" form of the Rent dialog: a machine's address, login and devices, a
// connection test that shows the host key's fingerprint for the person to accept (never
// accepted on their behalf), and Save, which adds the host to the SSH provider's hosts file.
#pragma once

#include "app/rent/sshhostform.h"
#include "app/rent/sshhostprobe.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace tessera {

/// Non-blocking dialog (open it with open() or show()). Save checks the fields
/// (checkSshHostForm: the message names the field, which gets the focus), then
/// addSshHostToFile(); on success it emits saved() and closes. "Test connection" runs an
/// SshHostProbe: the fingerprints appear with "Accept host key" / "Reject"; only an accepted
/// key is written to the known hosts file, then the login is tested and what the machine has
/// (GPUs, their model and memory, cores) fills those fields. Editing the address, port, user,
/// key or known hosts file drops a test in progress.
class AddSshHostDialog : public QDialog {
    Q_OBJECT
public:
    /// `hostsFile`: the provider's ssh-hosts.json (need not exist yet). The known hosts file
    /// defaults to "known_hosts" beside it: Tessera's own, so ~/.ssh is left alone.
    explicit AddSshHostDialog(const QString& hostsFile, QWidget* parent = nullptr);

    /// The programs the connection test runs (tests use stand-ins; OpenSSH by default).
    void setTools(const SshTools& tools) { m_tools = tools; }

    /// The fields as typed, and setting them all.
    SshHostFormInput input() const;
    void setInput(const SshHostFormInput& input);

    /// The message under the fields (a field's problem, or why Save failed); empty when none.
    QString errorText() const;
    /// The connection test's status line, and its fingerprint lines ("ED25519 SHA256:…").
    QString connectionText() const;
    QString fingerprintText() const;
    /// The test in progress or last finished; null before the first and after an edit.
    SshHostProbe* probe() const { return m_probe; }
    QPushButton* testButton() const { return m_test; }
    QPushButton* acceptKeyButton() const { return m_acceptKey; }
    QPushButton* rejectKeyButton() const { return m_rejectKey; }
    QPushButton* saveButton() const { return m_save; }

public Q_SLOTS:
    /// Checks the fields and writes the host; true (and saved(), and the dialog accepted) on
    /// success, else false with errorText() saying why.
    bool save();
    /// Checks the fields and starts a connection test.
    void testConnection();
    /// The person accepts the shown host key (only while the test waits for it).
    void acceptHostKey();
    /// The person rejects it: nothing is written.
    void rejectHostKey();

Q_SIGNALS:
    /// `host` was added; `hosts` is the whole file as the provider should now offer it.
    void saved(tessera::SshHost host, QList<tessera::SshHost> hosts);

private:
    /// The fields checked; on failure shows the message and focuses the field.
    std::optional<SshHost> checked();
    void showError(const QString& text);
    void dropProbe();
    void onKeysFound(const QList<ScannedHostKey>& keys, HostKeyTrust trust);
    void onConnected(const SshMachine& machine);
    void pickIdentity();

    QString m_hostsFile;
    SshTools m_tools;
    QPointer<SshHostProbe> m_probe;
    QString m_keyLines; ///< the shown keys' "TYPE  SHA256:…" lines
    QLineEdit* m_name;
    QLineEdit* m_address;
    QSpinBox* m_port;
    QLineEdit* m_user;
    QLineEdit* m_identity;
    QLineEdit* m_knownHosts;
    QSpinBox* m_gpus;
    QLineEdit* m_gpuName;
    QDoubleSpinBox* m_gpuMemory;
    QSpinBox* m_cores;
    QDoubleSpinBox* m_price;
    QLabel* m_error;
    QPushButton* m_test;
    QLabel* m_connection;
    QLabel* m_fingerprint;
    QPushButton* m_acceptKey;
    QPushButton* m_rejectKey;
    QPushButton* m_save;
};

} // namespace tessera
