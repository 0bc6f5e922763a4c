// The Add SSH host form (see addsshhostdialog.h).
#include "app/rent/addsshhostdialog.h"

#include "backend/provision/ssh/sshhostsfile.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace tessera {

namespace {

QLineEdit* lineEdit(const char* name, const QString& placeholder, QWidget* parent) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

} // namespace

AddSshHostDialog::AddSshHostDialog(const QString& hostsFile, QWidget* parent)
    : QDialog(parent), m_hostsFile(hostsFile),
      m_name(lineEdit("sshHostName", tr("ssh-<address>"), this)),
      m_address(lineEdit("sshHostAddress", tr("gpu-box.lan or me@10.0.0.5"), this)),
      m_port(new QSpinBox(this)),
      m_user(lineEdit("sshHostUser", tr("from Address, else your local user name"), this)),
      m_identity(lineEdit("sshHostIdentity", tr("optional: ssh-agent and ~/.ssh's keys"), this)),
      m_knownHosts(lineEdit("sshHostKnownHosts", tr("~/.ssh/known_hosts"), this)),
      m_gpus(new QSpinBox(this)),
      m_gpuName(lineEdit("sshHostGpuName", tr("e.g. NVIDIA H100 80GB HBM3"), this)),
      m_gpuMemory(new QDoubleSpinBox(this)), m_cores(new QSpinBox(this)),
      m_price(new QDoubleSpinBox(this)), m_error(new QLabel(this)),
      m_test(new QPushButton(tr("&Test connection"), this)), m_connection(new QLabel(this)),
      m_fingerprint(new QLabel(this)), m_acceptKey(new QPushButton(tr("&Accept host key"), this)),
      m_rejectKey(new QPushButton(tr("Re&ject"), this)) {
    setWindowTitle(tr("Add SSH host"));
    setObjectName(QStringLiteral("addSshHostDialog"));
    m_knownHosts->setText(
        QDir(QFileInfo(hostsFile).absolutePath()).filePath(QStringLiteral("known_hosts")));
    m_knownHosts->setToolTip(tr("The host keys Tessera trusts for this machine. By default "
                                "Tessera's own file beside the hosts file, so ~/.ssh stays as "
                                "it is; name ~/.ssh/known_hosts to use the keys you trust "
                                "already."));
    m_port->setObjectName(QStringLiteral("sshHostPort"));
    m_port->setRange(1, 65535);
    m_port->setValue(22);
    m_gpus->setObjectName(QStringLiteral("sshHostGpus"));
    m_gpus->setRange(0, 1024);
    m_gpus->setSpecialValueText(tr("none (CPU only)"));
    m_gpuMemory->setObjectName(QStringLiteral("sshHostGpuMemory"));
    m_gpuMemory->setRange(0, 4096);
    m_gpuMemory->setDecimals(2);
    m_gpuMemory->setSuffix(tr(" GiB"));
    m_gpuMemory->setSpecialValueText(tr("unknown"));
    m_cores->setObjectName(QStringLiteral("sshHostCores"));
    m_cores->setRange(0, 1 << 20);
    m_cores->setSpecialValueText(tr("unknown"));
    m_price->setObjectName(QStringLiteral("sshHostPrice"));
    m_price->setRange(0, 10000);
    m_price->setDecimals(2);
    m_price->setPrefix(QStringLiteral("$"));
    m_price->setSuffix(tr("/h"));
    m_price->setSpecialValueText(tr("free (your own machine)"));

    auto* browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(QStringLiteral("sshHostIdentityBrowse"));
    connect(browse, &QPushButton::clicked, this, &AddSshHostDialog::pickIdentity);
    auto* identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("A&ddress:"), m_address);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("SSH &user:"), m_user);
    auto* identityLabel = new QLabel(tr("&Identity file:"), this);
    identityLabel->setBuddy(m_identity); // a row holding a layout gets no buddy of its own
    form->addRow(identityLabel, identityRow);
    form->addRow(tr("&Known hosts file:"), m_knownHosts);
    form->addRow(tr("&GPUs:"), m_gpus);
    form->addRow(tr("GPU m&odel:"), m_gpuName);
    form->addRow(tr("&Memory per GPU:"), m_gpuMemory);
    form->addRow(tr("CPU &cores:"), m_cores);
    form->addRow(tr("P&rice per hour:"), m_price);

    m_error->setObjectName(QStringLiteral("sshHostError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();

    m_test->setObjectName(QStringLiteral("testConnection"));
    m_connection->setObjectName(QStringLiteral("connectionStatus"));
    m_connection->setWordWrap(true);
    m_connection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connection->setText(tr("Not tested yet. The test shows the machine's host key for you to "
                             "check, then logs in."));
    m_fingerprint->setObjectName(QStringLiteral("hostKeyFingerprint"));
    m_fingerprint->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fingerprint->hide();
    m_acceptKey->setObjectName(QStringLiteral("acceptHostKey"));
    m_rejectKey->setObjectName(QStringLiteral("rejectHostKey"));
    m_acceptKey->hide();
    m_rejectKey->hide();
    auto* keyButtons = new QHBoxLayout;
    keyButtons->addWidget(m_acceptKey);
    keyButtons->addWidget(m_rejectKey);
    keyButtons->addStretch();
    auto* testRow = new QHBoxLayout;
    testRow->addWidget(m_test, 0, Qt::AlignTop);
    testRow->addWidget(m_connection, 1);
    auto* box = new QGroupBox(tr("Connection"), this);
    auto* boxLayout = new QVBoxLayout(box);
    boxLayout->addLayout(testRow);
    boxLayout->addWidget(m_fingerprint);
    boxLayout->addLayout(keyButtons);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setObjectName(QStringLiteral("saveSshHost"));
    connect(m_save, &QPushButton::clicked, this, &AddSshHostDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(box);
    layout->addStretch();
    layout->addWidget(buttons);

    connect(m_test, &QPushButton::clicked, this, &AddSshHostDialog::testConnection);
    connect(m_acceptKey, &QPushButton::clicked, this, &AddSshHostDialog::acceptHostKey);
    connect(m_rejectKey, &QPushButton::clicked, this, &AddSshHostDialog::rejectHostKey);
    for (QLineEdit* e : {m_address, m_user, m_identity, m_knownHosts}) {
        connect(e, &QLineEdit::textChanged, this, &AddSshHostDialog::dropProbe);
    }
    connect(m_port, &QSpinBox::valueChanged, this, &AddSshHostDialog::dropProbe);
    connect(m_address, &QLineEdit::textChanged, this, [this](const QString& a) {
        const QString host = a.mid(a.lastIndexOf(QLatin1Char('@')) + 1).trimmed();
        m_name->setPlaceholderText(host.isEmpty() ? tr("ssh-<address>")
                                                  : QStringLiteral("ssh-") + host);
    });
    resize(560, sizeHint().height());
}

SshHostFormInput AddSshHostDialog::input() const {
    SshHostFormInput in;
    in.name = m_name->text();
    in.address = m_address->text();
    in.port = m_port->value();
    in.user = m_user->text();
    in.identityFile = m_identity->text();
    in.knownHostsFile = m_knownHosts->text();
    in.gpus = m_gpus->value();
    in.gpuName = m_gpuName->text();
    in.gpuMemoryGiB = m_gpuMemory->value();
    in.cores = m_cores->value();
    in.pricePerHour = m_price->value();
    return in;
}

void AddSshHostDialog::setInput(const SshHostFormInput& in) {
    m_name->setText(in.name);
    m_address->setText(in.address);
    m_port->setValue(in.port);
    m_user->setText(in.user);
    m_identity->setText(in.identityFile);
    m_knownHosts->setText(in.knownHostsFile);
    m_gpus->setValue(in.gpus);
    m_gpuName->setText(in.gpuName);
    m_gpuMemory->setValue(in.gpuMemoryGiB);
    m_cores->setValue(in.cores);
    m_price->setValue(in.pricePerHour);
}

QString AddSshHostDialog::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

QString AddSshHostDialog::connectionText() const {
    return m_connection->text();
}

QString AddSshHostDialog::fingerprintText() const {
    return m_fingerprint->isHidden() ? QString() : m_fingerprint->text();
}

void AddSshHostDialog::showError(const QString& text) {
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

std::optional<SshHost> AddSshHostDialog::checked() {
    const SshHostFormCheck c = checkSshHostForm(input());
    if (c.ok()) {
        showError(QString());
        return c.host;
    }
    showError(c.error);
    QWidget* fields[] = {m_name,     m_address,    m_port, m_user,
                         m_identity, m_knownHosts, m_gpus, m_price};
    const char* keys[] = {"name",         "address",        "port", "user",
                          "identityFile", "knownHostsFile", "gpus", "price"};
    for (int i = 0; i < 8; ++i) {
        if (c.field == QLatin1String(keys[i])) {
            fields[i]->setFocus(Qt::OtherFocusReason);
        }
    }
    return std::nullopt;
}

bool AddSshHostDialog::save() {
    const std::optional<SshHost> host = checked();
    if (!host) {
        return false;
    }
    const Result<QList<SshHost>> hosts = addSshHostToFile(m_hostsFile, *host);
    if (!hosts) {
        showError(QString::fromStdString(hosts.error().message));
        if (hosts.error().code == ErrorCode::AlreadyExists) {
            m_name->setFocus(Qt::OtherFocusReason); // another name is the usual way out
        }
        return false;
    }
    Q_EMIT saved(*host, *hosts);
    accept();
    return true;
}

void AddSshHostDialog::dropProbe() {
    if (m_probe) {
        m_probe->deleteLater(); // kills a program it still runs; its signals stop here
        m_probe = nullptr;
        m_connection->setText(tr("Settings changed: test the connection again."));
    }
    m_fingerprint->hide();
    m_acceptKey->hide();
    m_rejectKey->hide();
    m_test->setEnabled(true);
}

void AddSshHostDialog::testConnection() {
    const std::optional<SshHost> host = checked();
    if (!host) {
        return;
    }
    dropProbe();
    m_probe = new SshHostProbe(*host, m_tools, this);
    connect(m_probe, &SshHostProbe::progress, m_connection, &QLabel::setText);
    connect(m_probe, &SshHostProbe::keysFound, this, &AddSshHostDialog::onKeysFound);
    connect(m_probe, &SshHostProbe::connected, this, &AddSshHostDialog::onConnected);
    connect(m_probe, &SshHostProbe::failed, this, [this](const QString& reason) {
        m_connection->setText(reason);
        m_acceptKey->hide();
        m_rejectKey->hide();
        m_test->setEnabled(true);
    });
    m_test->setEnabled(false);
    m_probe->start();
}

void AddSshHostDialog::onKeysFound(const QList<ScannedHostKey>& keys, HostKeyTrust trust) {
    QStringList lines;
    for (const ScannedHostKey& k : keys) {
        lines << QStringLiteral("%1  %2").arg(k.shortType(), -8).arg(k.fingerprint);
    }
    const QString file = m_probe ? m_probe->knownHostsFile() : QString();
    QString head;
    switch (trust) {
    case HostKeyTrust::Unknown:
        head =
            tr("%1 is not in %2 yet. Its host key fingerprints:").arg(m_probe->host().host, file);
        break;
    case HostKeyTrust::Trusted:
        head = tr("Host key already trusted in %1:").arg(file);
        break;
    case HostKeyTrust::Changed:
    case HostKeyTrust::Revoked:
        head = tr("WARNING: these keys are not the ones %1 holds for this host:").arg(file);
        break;
    }
    QString tail;
    if (trust == HostKeyTrust::Unknown) {
        tail = QLatin1Char('\n') +
               tr("Accept only if one matches what the machine itself shows\n(run there: "
                  "ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).");
    }
    m_keyLines = lines.join(QLatin1Char('\n'));
    m_fingerprint->setText(head + QLatin1Char('\n') + m_keyLines + tail);
    m_fingerprint->show();
    const bool ask = trust == HostKeyTrust::Unknown;
    m_acceptKey->setVisible(ask);
    m_rejectKey->setVisible(ask);
    if (ask) {
        m_acceptKey->setFocus(Qt::OtherFocusReason);
    }
}

void AddSshHostDialog::acceptHostKey() {
    if (m_probe && m_probe->stage() == SshHostProbe::Stage::AwaitingAcceptance) {
        m_acceptKey->hide();
        m_rejectKey->hide();
        m_probe->acceptKey();
        if (m_probe && m_probe->trust() == HostKeyTrust::Trusted) { // written: say so
            m_fingerprint->setText(tr("Accepted and added to %1:").arg(m_probe->knownHostsFile()) +
                                   QLatin1Char('\n') + m_keyLines);
        }
    }
}

void AddSshHostDialog::rejectHostKey() {
    if (m_probe && m_probe->stage() == SshHostProbe::Stage::AwaitingAcceptance) {
        m_probe->rejectKey();
    }
}

void AddSshHostDialog::onConnected(const SshMachine& m) {
    m_test->setEnabled(true);
    QString text = tr("Connected: %1.").arg(SshHostProbe::describe(m));
    if (m.os != QLatin1String("Linux") || m.mpi.isEmpty()) {
        text += QLatin1Char(' ') + tr("Renting needs Linux and Open MPI there (Debian package "
                                      "openmpi-bin).");
    }
    m_connection->setText(text);
    // What the machine has is what its offer should say (a rent's check would write it too).
    if (m.cores > 0) {
        m_cores->setValue(m.cores);
    }
    m_gpus->setValue(m.gpus);
    m_gpuName->setText(m.gpuName);
    m_gpuMemory->setValue(std::round(double(m.gpuMemoryBytes) / double(1ULL << 30) * 100) / 100);
}

void AddSshHostDialog::pickIdentity() {
    auto* picker = new QFileDialog(this, tr("Private key for %1").arg(m_address->text()),
                                   QDir::home().filePath(QStringLiteral(".ssh")));
    picker->setFileMode(QFileDialog::ExistingFile);
    picker->setFilter(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    picker->setAttribute(Qt::WA_DeleteOnClose);
    connect(picker, &QFileDialog::fileSelected, m_identity, &QLineEdit::setText);
    picker->open();
}

} // namespace tessera
