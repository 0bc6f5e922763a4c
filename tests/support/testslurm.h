// A real Slurm cluster for the Slurm provider's tests: tests/support/test-slurm.sh run from C++
// (own munged, slurmctld and one slurmd per node on this machine, state in a temporary folder).
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace tessera::test {

/// Brings a cluster of `nodes` nodes (partition "debug") up in a fresh folder and down again
/// (jobs cancelled) in its destructor.
class TestSlurm {
public:
    explicit TestSlurm(int nodes) {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("cannot create a temporary folder");
            return;
        }
        QProcess p;
        p.start(script(), {QStringLiteral("up"), m_dir.path(), QString::number(nodes)});
        if (!p.waitForFinished(150000)) {
            p.kill();
            p.waitForFinished();
            m_error = QStringLiteral("test-slurm.sh up did not finish in 150 s");
            return;
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            m_missing = p.exitCode() == 3;
            m_error = QString::fromUtf8(p.readAllStandardError()).trimmed();
            if (m_error.isEmpty()) {
                m_error = QStringLiteral("test-slurm.sh up failed (%1)").arg(p.errorString());
            }
            return;
        }
        m_nodes = QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    }
    ~TestSlurm() { QProcess::execute(script(), {QStringLiteral("down"), m_dir.path()}); }
    TestSlurm(const TestSlurm&) = delete;
    TestSlurm& operator=(const TestSlurm&) = delete;

    /// Empty when the cluster is up; else why not (with the daemons' last log lines).
    QString error() const { return m_error; }
    /// True when the error is something missing here (root, a package): the test skips.
    bool missing() const { return m_missing; }
    /// The cluster's slurm.conf (SLURM_CONF for its clients).
    QString conf() const { return m_dir.filePath(QStringLiteral("slurm.conf")); }
    /// Its nodes' Slurm names: this machine's short host name for one node, else
    /// "<host>-1".."<host>-N".
    QStringList nodes() const { return m_nodes; }

    /// Runs a Slurm client (`squeue`, ...) against this cluster; returns its stdout, or
    /// "error: ..." when it failed.
    QString run(const QString& program, const QStringList& arguments) const {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_CONF"), conf());
        p.setProcessEnvironment(env);
        p.start(program, arguments);
        if (!p.waitForFinished(30000) || p.exitCode() != 0) {
            return QStringLiteral("error: ") + QString::fromUtf8(p.readAllStandardError());
        }
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    static QString script() {
        return QStringLiteral(TESSERA_SOURCE_DIR "/tests/support/test-slurm.sh");
    }

private:
    QTemporaryDir m_dir;
    QString m_error;
    QStringList m_nodes;
    bool m_missing = false;
};

} // namespace tessera::test
