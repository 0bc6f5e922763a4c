// tcpdump for the tests that prove what crosses a test network is encrypted (issue 20): the
// packets to or from some TCP ports on one interface, written as they come, read back as bytes.
#pragma once

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

namespace tessera::test {

/// One tcpdump run. start() returns once tcpdump listens; stop() ends it and returns the
/// capture file's bytes (headers and payloads, which is what a search for a secret needs).
class PacketCapture {
public:
    PacketCapture() = default;
    ~PacketCapture() { (void)stop(); }
    PacketCapture(const PacketCapture&) = delete;
    PacketCapture& operator=(const PacketCapture&) = delete;

    /// Captures on `interface` ("any" for all) the packets of TCP `ports` into `pcap`, running
    /// tcpdump behind `prefix` (e.g. {"ip", "netns", "exec", NS}; empty: here). Returns "" once
    /// tcpdump listens, else why not (not installed: the Debian package to install).
    QString start(const QStringList& prefix, const QString& interface, const QList<int>& ports,
                  const QString& pcap) {
        const QString tcpdump = QStandardPaths::findExecutable(
            QStringLiteral("tcpdump"), {QStringLiteral("/usr/bin"), QStringLiteral("/usr/sbin")});
        if (tcpdump.isEmpty()) {
            return QStringLiteral("tcpdump is not installed (Debian package tcpdump)");
        }
        QStringList filter;
        for (int port : ports) {
            filter << QStringLiteral("tcp port %1").arg(port);
        }
        QStringList args = prefix;
        args << tcpdump << QStringLiteral("-i") << interface << QStringLiteral("-U")
             << QStringLiteral("-w") << pcap << filter.join(QStringLiteral(" or "));
        m_pcap = pcap;
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(args.takeFirst(), args);
        QByteArray said;
        for (int n = 0; n < 100 && !said.contains("listening on"); ++n) {
            m_process.waitForReadyRead(100);
            said += m_process.readAll();
        }
        if (!said.contains("listening on")) {
            m_process.kill();
            m_process.waitForFinished(5000);
            return QStringLiteral("tcpdump did not start listening: ") + QString::fromUtf8(said);
        }
        return QString();
    }

    /// Ends tcpdump (it flushes on SIGTERM) and returns everything it captured.
    QByteArray stop() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
        QFile f(m_pcap);
        return !m_pcap.isEmpty() && f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private:
    QProcess m_process;
    QString m_pcap;
};

} // namespace tessera::test
