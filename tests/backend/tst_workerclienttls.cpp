// WorkerClient against a worker serving mutual TLS (issue 20): with the cluster's identity the
// call goes through; with a certificate from another CA, trusting another CA, or no TLS at all
// it is refused with a message that names why and what to do, the text tessera-ctl and the app
// show.
#include "backend/cluster/workerclient.h"
#include "backend/tls/clusterca.h"
#include "testcluster.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

bool writePrivate(const QString& path, const std::string& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return false;
    }
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return f.write(text.data(), qint64(text.size())) == qint64(text.size());
}

} // namespace

class TestWorkerClientTls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        const QString missing = test::missingPrograms();
        if (!missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QVERIFY(m_dir.isValid());
        auto ca = ClusterCa::open(m_dir.filePath("cluster"));
        QVERIFY2(ca, ca ? "" : ca.error().message.c_str());
        m_ca = std::make_shared<ClusterCa>(*ca);
        auto other = ClusterCa::open(m_dir.filePath("other"));
        QVERIFY2(other, other ? "" : other.error().message.c_str());
        m_other = std::make_shared<ClusterCa>(*other);

        auto leaf = m_ca->issueWorker("tls-solo", {"127.0.0.1"});
        QVERIFY2(leaf, leaf ? "" : leaf.error().message.c_str());
        QVERIFY(writePrivate(m_dir.filePath("worker.key"), leaf->keyPem));
        QVERIFY(writePrivate(m_dir.filePath("worker.crt"), leaf->certPem));
        QVERIFY(writePrivate(m_dir.filePath("token"), "tls-client-token-9c4e1b7a3f5d2086"));

        m_worker.setStandardErrorFile(m_dir.filePath("worker.log"));
        m_worker.start(QDir(test::buildBin()).filePath("tessera-worker"),
                       {"--listen", "127.0.0.1:0", "--token-file", m_dir.filePath("token"),
                        "--work-dir", m_dir.filePath("work"), "--slots", "1", "--name", "tls-solo",
                        "--tls-cert", m_dir.filePath("worker.crt"), "--tls-key",
                        m_dir.filePath("worker.key"), "--tls-ca", m_ca->caCertPath()});
        QVERIFY(QTest::qWaitFor([&] { return m_worker.canReadLine(); }, 15000));
        m_address = QString::fromUtf8(m_worker.readLine()).trimmed().section(' ', -1);
        QVERIFY2(m_address.startsWith("127.0.0.1:"), qPrintable(m_address));
    }

    void theClusterIdentityIsServed() {
        const WorkerClient client(m_address, "tls-client-token-9c4e1b7a3f5d2086",
                                  m_ca->backendIdentity());
        auto info = client.getInfo(10000);
        QVERIFY2(info, info ? "" : info.error().message.c_str());
        QCOMPARE(QString::fromStdString(info->worker_id()), QString("tls-solo"));
    }

    // Through a Unix socket that carries connections to the worker's port (what an SSH tunnel's
    // local end does, sshtunnels.h): the worker's certificate names "localhost", which is what
    // WorkerClient expects there.
    void reachedThroughATunnelSocket() {
        const QString socket = m_dir.filePath(QStringLiteral("tunnel.sock"));
        QProcess relay;
        relay.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        relay.start(QStringLiteral("/usr/bin/python3"), {"-c", QStringLiteral(R"(
import os, socket, sys, threading
host, port = sys.argv[1].rsplit(':', 1)
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[2])
s.listen()
print('ready', flush=True)
def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    try:
        b.shutdown(socket.SHUT_WR)
    except OSError:
        pass
while True:
    c, _ = s.accept()
    t = socket.create_connection((host, int(port)))
    threading.Thread(target=pipe, args=(c, t), daemon=True).start()
    threading.Thread(target=pipe, args=(t, c), daemon=True).start()
)"),
                                                         m_address, socket});
        QVERIFY(QTest::qWaitFor([&] { return relay.canReadLine(); }, 15000));
        const WorkerClient client(QStringLiteral("unix:") + socket,
                                  "tls-client-token-9c4e1b7a3f5d2086", m_ca->backendIdentity());
        auto info = client.getInfo(10000);
        relay.kill();
        relay.waitForFinished(5000);
        QVERIFY2(info, info ? "" : info.error().message.c_str());
        QCOMPARE(QString::fromStdString(info->worker_id()), QString("tls-solo"));
    }

    void refusalsSayWhy_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plaintext client") << 0 << "connect with the cluster's certificates";
        QTest::newRow("our certificate from another CA") << 1 << "not by this cluster's CA";
        QTest::newRow("we trust another CA") << 2 << "its certificate was refused";
    }

    void refusalsSayWhy() {
        QFETCH(int, which);
        QFETCH(QString, expected);
        std::shared_ptr<const tls::Identity> identity;
        if (which == 1) { // trusts the right CA, presents a certificate the other CA issued
            auto mixed = std::make_shared<tls::Identity>(*m_other->backendIdentity());
            mixed->caPem = m_ca->caCertPem();
            identity = mixed;
        } else if (which == 2) {
            identity = m_other->backendIdentity();
        }
        const WorkerClient client(m_address, "tls-client-token-9c4e1b7a3f5d2086", identity);
        auto info = client.getInfo(10000);
        QVERIFY(!info);
        const QString message = QString::fromStdString(info.error().message);
        qInfo().noquote() << message;
        QCOMPARE(info.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(m_address), qPrintable(message));
    }

    void cleanupTestCase() {
        m_worker.terminate();
        m_worker.waitForFinished(10000);
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<ClusterCa> m_ca, m_other;
    QProcess m_worker;
    QString m_address;
};

QTEST_GUILESS_MAIN(TestWorkerClientTls)
#include "tst_workerclienttls.moc"
