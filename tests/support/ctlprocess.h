// A tessera-ctl process started by a test, its output (stdout and stderr merged) collected while
// the test's thread goes on (serving a control socket, say).
#pragma once

#include "tests/backend/testcluster.h"

#include <QProcess>
#include <QString>
#include <QStringList>

namespace tessera::test {

/// `tessera-ctl ARGS` (or another of the build's programs) from the build, in the test's
/// environment. Killed when destroyed.
class CtlProcess {
public:
    explicit CtlProcess(const QStringList& args,
                        const QString& program = QStringLiteral("tessera-ctl")) {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead,
                         [this] { m_output += QString::fromUtf8(m_process.readAll()); });
        m_process.start(buildBin() + QLatin1Char('/') + program, args);
    }
    ~CtlProcess() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    CtlProcess(const CtlProcess&) = delete;
    CtlProcess& operator=(const CtlProcess&) = delete;

    bool ended() const { return m_process.state() == QProcess::NotRunning; }
    int exitCode() const { return m_process.exitCode(); }
    /// Everything it printed so far.
    QString output() {
        m_output += QString::fromUtf8(m_process.readAll());
        return m_output;
    }
    /// How often `text` occurs in output().
    int count(const QString& text) { return int(output().count(text)); }
    QProcess& process() { return m_process; }

private:
    QProcess m_process;
    QString m_output;
};

} // namespace tessera::test
