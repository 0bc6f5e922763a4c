// Test hosts for the SSH provider's tests: tests/support/test-hosts.sh run from C++. Each host
// is a network namespace with its own 198.18.K.x address, host name and sshd.
#pragma once

#include "backend/provision/ssh/sshhost.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace tessera::test {

/// Brings `count` hosts up in a fresh folder and down again in its destructor.
class TestHosts {
public:
    /// Full: sessions see this machine's files. Bare: sessions run chrooted in a root with only
    /// BusyBox (test-hosts.sh's TEST_HOSTS_BARE), like a cloud image without Tessera's libraries.
    enum Kind { Full, Bare };

    /// `nvidiaSmi`: with Bare, a script that is the hosts' /bin/nvidia-smi (TEST_HOSTS_NVIDIA_SMI).
    explicit TestHosts(int count, Kind kind = Full, const QString& nvidiaSmi = QString()) {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("cannot create a temporary folder");
            return;
        }
        QProcess p;
        if (kind == Bare) {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("TEST_HOSTS_BARE"), QStringLiteral("1"));
            if (!nvidiaSmi.isEmpty()) {
                env.insert(QStringLiteral("TEST_HOSTS_NVIDIA_SMI"), nvidiaSmi);
            }
            p.setProcessEnvironment(env);
        }
        p.start(script(), {QStringLiteral("up"), m_dir.path(), QString::number(count)});
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished(5000);
            m_error = QStringLiteral("test-hosts.sh up did not finish within 180 s");
            return;
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            m_missing = p.exitCode() == 3;
            m_error = QString::fromUtf8(p.readAllStandardError()).trimmed();
            if (m_error.isEmpty()) {
                m_error = QStringLiteral("test-hosts.sh up failed (%1)").arg(p.errorString());
            }
            return;
        }
        for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split('\n')) {
            const QStringList f = line.split(' ', Qt::SkipEmptyParts);
            if (f.size() == 3) {
                m_names << f[0];
                m_addresses << f[1];
            }
        }
    }
    ~TestHosts() { QProcess::execute(script(), {QStringLiteral("down"), m_dir.path()}); }
    TestHosts(const TestHosts&) = delete;
    TestHosts& operator=(const TestHosts&) = delete;

    /// Empty when the hosts are up; else why not.
    QString error() const { return m_error; }
    /// True when the error is something missing here (root, a package): the test skips.
    bool missing() const { return m_missing; }
    /// Host names (their UTS names) and addresses, host 1 first.
    QStringList names() const { return m_names; }
    QStringList addresses() const { return m_addresses; }
    /// Client key accepted for root on every host, and the known_hosts file with their keys.
    QString identityFile() const { return m_dir.filePath(QStringLiteral("id_ed25519")); }
    QString knownHostsFile() const { return m_dir.filePath(QStringLiteral("known_hosts")); }
    QString folder() const { return m_dir.path(); }
    /// K of the hosts' subnet 198.18.K.0/24 (their veth ends here are tv<K>h<i>).
    int subnet() const {
        QFile f(m_dir.filePath(QStringLiteral("subnet")));
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
    }

    /// Host `i` (1-based) dies: link down, every process in it killed.
    void kill(int i) {
        QProcess::execute(script(), {QStringLiteral("kill"), m_dir.path(), QString::number(i)});
    }

    /// Host `i`'s link goes down (cut) or comes back (mend); its processes live on.
    void cut(int i) {
        QProcess::execute(script(), {QStringLiteral("cut"), m_dir.path(), QString::number(i)});
    }
    void mend(int i) {
        QProcess::execute(script(), {QStringLiteral("mend"), m_dir.path(), QString::number(i)});
    }

    /// SSH provider settings for every host: node names "<prefix>1", "<prefix>2", ..., root
    /// with this folder's key and known_hosts, worker folders under `remoteBase`/<i>, price
    /// `firstPrice` × i dollars per hour (host 1 the cheapest), one slot each.
    QList<SshHost> sshHosts(const QString& prefix, const QString& remoteBase,
                            double firstPrice) const {
        QList<SshHost> out;
        for (qsizetype i = 0; i < m_addresses.size(); ++i) {
            SshHost h;
            h.host = m_addresses.at(i);
            h.name = prefix + QString::number(i + 1);
            h.user = QStringLiteral("root");
            h.identityFile = identityFile();
            h.knownHostsFile = knownHostsFile();
            h.remoteDir = remoteBase + QLatin1Char('/') + QString::number(i + 1);
            h.pricePerHour = firstPrice * double(i + 1);
            h.slots = 1;
            out << h;
        }
        return out;
    }

    static QString script() {
        return QStringLiteral(TESSERA_SOURCE_DIR "/tests/support/test-hosts.sh");
    }

private:
    QTemporaryDir m_dir;
    QString m_error;
    bool m_missing = false;
    QStringList m_names, m_addresses;
};

} // namespace tessera::test
