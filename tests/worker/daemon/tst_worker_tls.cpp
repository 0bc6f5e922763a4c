// tessera-worker over mutual TLS (issue 20): the right certificate and token are served; a
// plaintext client, a client without a certificate or with one from another CA, and a worker
// whose own certificate the client's CA did not issue are all refused at the handshake; the
// token gate still stands behind TLS. Start-up refuses what would be an open door: plaintext
// beyond loopback without --insecure, a key file others can read, half the TLS flags, root.
#include "worker_process.h"

#include "backend/tls/certificate_authority.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <grpcpp/grpcpp.h>

#include <unistd.h>

using namespace tessera;

namespace {

const std::string kToken = "tls-test-token-9c4e1b7a3f5d2086";

bool writeFile(const QString& path, const std::string& text, QFile::Permissions perms) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(text.data(), qint64(text.size())) == qint64(text.size()) &&
           f.setPermissions(perms);
}

constexpr QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner;
constexpr QFile::Permissions kPublic = kPrivate | QFile::ReadGroup | QFile::ReadOther;

std::shared_ptr<grpc::ChannelCredentials> mtls(const std::string& caPem,
                                               const tls::KeyAndCert& own) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = caPem;
    o.pem_cert_chain = own.certPem;
    o.pem_private_key = own.keyPem;
    return grpc::SslCredentials(o);
}

grpc::Status getInfo(tessera::v1::WorkerService::Stub& stub, const std::string& token) {
    grpc::ClientContext ctx;
    authorize(ctx, token, 5);
    v1::WorkerInfo info;
    return stub.GetInfo(&ctx, v1::GetInfoRequest(), &info);
}

QString describe(const grpc::Status& s) {
    return QStringLiteral("%1: %2")
        .arg(int(s.error_code()))
        .arg(QString::fromStdString(s.error_message()));
}

} // namespace

class TestWorkerTls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        auto ca = tls::createCa("Tessera cluster CA (test)", tls::Validity::days(1));
        auto other = tls::createCa("another cluster's CA", tls::Validity::days(1));
        QVERIFY(ca && other);
        m_ca = *ca;
        m_otherCa = *other;
        auto worker = tls::issue(m_ca, {"tessera-worker tls", {"localhost"}, {"127.0.0.1"}},
                                 tls::Validity::days(1));
        auto backend = tls::issue(m_ca, {"tessera-backend", {}, {}}, tls::Validity::days(1));
        auto stranger = tls::issue(m_otherCa, {"stranger", {}, {}}, tls::Validity::days(1));
        QVERIFY(worker && backend && stranger);
        m_backend = *backend;
        m_stranger = *stranger;
        QVERIFY(writeFile(path("worker.crt"), worker->certPem, kPublic));
        QVERIFY(writeFile(path("worker.key"), worker->keyPem, kPrivate));
        QVERIFY(writeFile(path("ca.crt"), m_ca.certPem, kPublic));
        QVERIFY(writeTokenFile(path("token"), kToken));
        m_worker = std::make_unique<WorkerProcess>(path("work"), path("token"),
                                                   QStringLiteral("tls"), tlsFlags());
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
        // spdlog writes its line just after the "listening on" one on stdout: wait for it.
        QTRY_VERIFY_WITH_TIMEOUT(m_worker->log().contains("mutual TLS"), 10000);
    }

    void theClusterCertificateAndTokenAreServed() {
        auto stub = m_worker->stub(mtls(m_ca.certPem, m_backend));
        const grpc::Status s = getInfo(*stub, kToken);
        QVERIFY2(s.ok(), qPrintable(describe(s)));
    }

    void theTokenGateStandsBehindTls() {
        auto stub = m_worker->stub(mtls(m_ca.certPem, m_backend));
        const grpc::Status s = getInfo(*stub, "wrong");
        QCOMPARE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY2(s.error_message().find("wrong bearer token") != std::string::npos,
                 qPrintable(describe(s)));
    }

    void refusedAtTheHandshake_data() {
        QTest::addColumn<QString>("client");
        QTest::newRow("plaintext") << QStringLiteral("plaintext");
        QTest::newRow("no client certificate") << QStringLiteral("no-cert");
        QTest::newRow("certificate from another CA") << QStringLiteral("other-ca");
        QTest::newRow("client trusts another CA") << QStringLiteral("trusts-other");
    }

    void refusedAtTheHandshake() {
        QFETCH(QString, client);
        std::shared_ptr<grpc::ChannelCredentials> creds;
        if (client == QLatin1String("plaintext")) {
            creds = grpc::InsecureChannelCredentials();
        } else if (client == QLatin1String("no-cert")) {
            grpc::SslCredentialsOptions o;
            o.pem_root_certs = m_ca.certPem;
            creds = grpc::SslCredentials(o);
        } else if (client == QLatin1String("other-ca")) {
            creds = mtls(m_ca.certPem, m_stranger); // trusts the worker; its own cert is foreign
        } else {
            creds = mtls(m_otherCa.certPem, m_backend); // does not trust the worker's CA
        }
        auto stub = m_worker->stub(creds);
        const grpc::Status s = getInfo(*stub, kToken);
        QCOMPARE(s.error_code(), grpc::StatusCode::UNAVAILABLE);
        qInfo().noquote() << client << "->" << describe(s);
    }

    void startUpRefusesAnOpenDoor_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("asRootWithoutFlag");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plaintext beyond loopback")
            << QStringList{"--listen", "0.0.0.0:0"} << false << "reaches beyond this machine";
        QTest::newRow("only --tls-cert")
            << QStringList{"--tls-cert", path("worker.crt")} << false << "--tls-key";
        QTest::newRow("--insecure with certificates")
            << (tlsFlags() << "--insecure") << false << "excludes";
        QTest::newRow("key readable by others")
            << QStringList{"--tls-cert",     path("worker.crt"), "--tls-key",
                           path("open.key"), "--tls-ca",         path("ca.crt")}
            << false << "chmod 600";
        QTest::newRow("CA file is not PEM")
            << QStringList{"--tls-cert",       path("worker.crt"), "--tls-key",
                           path("worker.key"), "--tls-ca",         path("token")}
            << false << "holds no PEM block";
        QTest::newRow("missing certificate")
            << QStringList{"--tls-cert",       path("nope.crt"), "--tls-key",
                           path("worker.key"), "--tls-ca",       path("ca.crt")}
            << false << "--tls-cert";
        QTest::newRow("root without --allow-root") << QStringList{} << true << "as root";
    }

    void startUpRefusesAnOpenDoor() {
        QFETCH(QStringList, args);
        QFETCH(bool, asRootWithoutFlag);
        QFETCH(QString, expected);
        if (asRootWithoutFlag && ::geteuid() != 0) {
            QSKIP("needs to run as root to see the root refusal");
        }
        QFile::copy(path("worker.key"), path("open.key"));
        QFile::setPermissions(path("open.key"), kPublic);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (asRootWithoutFlag) {
            env.remove(QStringLiteral("TESSERA_ALLOW_RUN_AS_ROOT"));
        }
        p.setProcessEnvironment(env);
        p.start(WorkerProcess::binary(),
                QStringList{"--token-file", path("token"), "--work-dir", path("refused")} + args);
        QVERIFY(p.waitForFinished(15000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(expected), qPrintable(err));
        QVERIFY2(!err.contains(QLatin1String("listening")), qPrintable(err));
    }

    void insecureBeyondLoopbackStillChecksTheToken() {
        WorkerProcess open(path("work-open"), path("token"), QStringLiteral("open"),
                           {"--insecure"});
        open.setListen(QStringLiteral("0.0.0.0:0"));
        QString error;
        QVERIFY2(open.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(open.log().contains("--insecure"), 10000);
        auto stub = open.stub();
        QCOMPARE(getInfo(*stub, "wrong").error_code(), grpc::StatusCode::UNAUTHENTICATED);
        const grpc::Status s = getInfo(*stub, kToken);
        QVERIFY2(s.ok(), qPrintable(describe(s)));
    }

private:
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }
    QStringList tlsFlags() const {
        return {"--tls-cert",       path("worker.crt"), "--tls-key",
                path("worker.key"), "--tls-ca",         path("ca.crt")};
    }

    QTemporaryDir m_dir;
    tls::KeyAndCert m_ca, m_otherCa, m_backend, m_stranger;
    std::unique_ptr<WorkerProcess> m_worker;
};

QTEST_GUILESS_MAIN(TestWorkerTls)
#include "tst_worker_tls.moc"
