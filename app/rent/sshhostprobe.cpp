// Connection test of one SSH host, step by step (see sshhostprobe.h).
#include "app/rent/sshhostprobe.h"

#include "backend/provision/asyncprocess.h"
#include "backend/provision/devicefit.h"

#include <QFileInfo>

namespace tessera {

namespace {

/// The last non-empty line a program wrote, for messages.
QString lastLine(const QByteArray& text) {
    const QStringList lines = QString::fromUtf8(text).trimmed().split(QLatin1Char('\n'));
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

/// sshArguments() without the shared master connection: a test leaves nothing running.
QStringList probeArguments(const SshHost& host, const QString& command) {
    const QStringList all = sshArguments(host, command);
    QStringList out;
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all[i] == QLatin1String("-o") && i + 1 < all.size() &&
            all[i + 1].startsWith(QLatin1String("Control"))) {
            ++i;
            continue;
        }
        if (all[i] == QLatin1String("--")) {
            out << QStringLiteral("-o") << QStringLiteral("ControlPath=none");
        }
        out << all[i];
    }
    return out;
}

} // namespace

SshHostProbe::SshHostProbe(const SshHost& host, const SshTools& tools, QObject* parent)
    : QObject(parent), m_host(host), m_tools(tools) {}

QString SshHostProbe::where() const {
    return QStringLiteral("%1:%2").arg(m_host.host).arg(m_host.port);
}

QString SshHostProbe::knownHostsFile() const {
    return expandHome(m_host.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts")
                                                      : m_host.knownHostsFile);
}

void SshHostProbe::fail(const QString& reason) {
    m_stage = Stage::Failed;
    Q_EMIT failed(reason);
}

void SshHostProbe::start() {
    if (m_stage != Stage::Idle) {
        return;
    }
    m_stage = Stage::Scanning;
    Q_EMIT progress(tr("Fetching the host key of %1…").arg(where()));
    runAsync(this, m_tools.keyscan,
             {QStringLiteral("-T"), QStringLiteral("5"), QStringLiteral("-p"),
              QString::number(m_host.port), m_host.host},
             {}, 20000, [this](const ProcessResult& r) {
                 if (!r.startError.isEmpty()) {
                     fail(tr("Cannot run %1 (%2): install the Debian package openssh-client.")
                              .arg(m_tools.keyscan, r.startError));
                     return;
                 }
                 m_keys = parseKeyscan(QString::fromUtf8(r.out));
                 for (ScannedHostKey& k : m_keys) {
                     k.hostToken = knownHostsToken(m_host.host, m_host.port);
                 }
                 if (m_keys.isEmpty()) {
                     const QString said = lastLine(r.err);
                     fail(tr("%1 sent no host key%2: check the address and the port, and that "
                             "sshd runs there.")
                              .arg(where(), r.timedOut       ? tr(" in time")
                                            : said.isEmpty() ? QString()
                                                             : QStringLiteral(" (%1)").arg(said)));
                     return;
                 }
                 fingerprint();
             });
}

void SshHostProbe::fingerprint() {
    QByteArray lines;
    for (const ScannedHostKey& k : std::as_const(m_keys)) {
        lines += k.line().toUtf8() + '\n';
    }
    runAsync(this, m_tools.keygen,
             {QStringLiteral("-l"), QStringLiteral("-f"), QStringLiteral("-")}, lines, 10000,
             [this](const ProcessResult& r) {
                 const QStringList prints = parseFingerprints(QString::fromUtf8(r.out));
                 if (!r.ok() || prints.size() != m_keys.size()) {
                     fail(tr("Cannot compute the fingerprints of %1's host keys with %2 (%3): "
                             "install the Debian package openssh-client.")
                              .arg(where(), m_tools.keygen,
                                   r.startError.isEmpty() ? lastLine(r.err) : r.startError));
                     return;
                 }
                 for (qsizetype i = 0; i < m_keys.size(); ++i) {
                     m_keys[i].fingerprint = prints[i];
                 }
                 lookUp();
             });
}

void SshHostProbe::lookUp() {
    const QString file = knownHostsFile();
    if (!QFileInfo::exists(file)) {
        found(HostKeyTrust::Unknown);
        return;
    }
    runAsync(this, m_tools.keygen,
             {QStringLiteral("-F"), knownHostsToken(m_host.host, m_host.port), QStringLiteral("-f"),
              file},
             {}, 10000, [this, file](const ProcessResult& r) {
                 if (r.exitCode == 1 && r.out.trimmed().isEmpty()) {
                     found(HostKeyTrust::Unknown); // the file has no line for this host
                 } else if (r.ok()) {
                     found(compareKnownHosts(QString::fromUtf8(r.out), m_keys));
                 } else {
                     fail(tr("Cannot read the known hosts file %1 (%2): check that it is a "
                             "readable file.")
                              .arg(file, r.startError.isEmpty() ? lastLine(r.err) : r.startError));
                 }
             });
}

void SshHostProbe::found(HostKeyTrust trust) {
    m_trust = trust;
    const QString file = knownHostsFile();
    const QString token = knownHostsToken(m_host.host, m_host.port);
    switch (trust) {
    case HostKeyTrust::Unknown:
        m_stage = Stage::AwaitingAcceptance;
        Q_EMIT keysFound(m_keys, trust);
        Q_EMIT progress(tr("Compare the fingerprint with the machine's own, then accept or "
                           "reject it."));
        return;
    case HostKeyTrust::Trusted:
        Q_EMIT keysFound(m_keys, trust);
        login();
        return;
    case HostKeyTrust::Changed:
    case HostKeyTrust::Revoked:
        Q_EMIT keysFound(m_keys, trust);
        fail(tr("%1 now shows a host key that %2 does not hold for it%3: someone may be "
                "intercepting the connection, or the machine was reinstalled. Ask its owner; "
                "only if the new fingerprint is right, remove the old key with ssh-keygen -R "
                "'%4' -f %2 and test again.")
                 .arg(where(), file,
                      trust == HostKeyTrust::Revoked ? tr(" (the key is marked revoked)")
                                                     : QString(),
                      token));
        return;
    }
}

void SshHostProbe::acceptKey() {
    if (m_stage != Stage::AwaitingAcceptance) {
        return;
    }
    if (Result<void> written = appendKnownHosts(knownHostsFile(), m_keys); !written) {
        fail(QString::fromStdString(written.error().message));
        return;
    }
    m_trust = HostKeyTrust::Trusted;
    login();
}

void SshHostProbe::rejectKey() {
    if (m_stage == Stage::AwaitingAcceptance) {
        fail(tr("The host key of %1 was rejected: nothing was written.").arg(where()));
    }
}

void SshHostProbe::login() {
    m_stage = Stage::Connecting;
    Q_EMIT progress(tr("Logging in to %1…").arg(m_host.offerId()));
    const QString command = QStringLiteral("cd && sh -c ") + shellQuote(sshCheckScript());
    runAsync(this, m_tools.ssh, probeArguments(m_host, command), {}, 30000,
             [this](const ProcessResult& r) {
                 if (!r.startError.isEmpty()) {
                     fail(tr("Cannot run %1 (%2): install the Debian package openssh-client.")
                              .arg(m_tools.ssh, r.startError));
                 } else if (!r.ok()) {
                     fail(explainSshFailure(m_host, tr("testing the connection"), r.exitCode,
                                            r.timedOut, QString::fromUtf8(r.err + r.out)));
                 } else {
                     m_stage = Stage::Connected;
                     Q_EMIT connected(parseSshCheck(QString::fromUtf8(r.out)));
                 }
             });
}

QString SshHostProbe::describe(const SshMachine& m) {
    QStringList parts;
    parts << (m.os.isEmpty() ? tr("unknown system") : m.os);
    if (m.cores > 0) {
        parts << (m.cores == 1 ? tr("1 core") : tr("%1 cores").arg(m.cores));
    }
    if (m.memoryBytes > 0) {
        parts << tr("%1 RAM").arg(gibText(double(m.memoryBytes)));
    }
    parts << (m.mpi.isEmpty() ? tr("no Open MPI") : m.mpi);
    parts << (m.gpus > 0
                  ? tr("%1 × %2 (%3)").arg(m.gpus).arg(m.gpuName, gibText(double(m.gpuMemoryBytes)))
                  : tr("no GPU"));
    return parts.join(QStringLiteral(" · "));
}

} // namespace tessera
