// The cluster CA (issue 20): certificates tessera_tls makes are what a TLS peer expects (CA
// flags, SANs, key usage), verification names why it refuses (expired, another CA), and
// ClusterCa keeps its keys 0600, makes one CA for the folder and renews the backend's own.
#include "backend/tls/certificate_authority.h"
#include "backend/tls/clusterca.h"
#include "backend/tls/openssllifetime.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

#include <ctime>

using namespace tessera;

namespace {

tls::KeyAndCert makeCa(const char* name = "test CA") {
    auto ca = tls::createCa(name, tls::Validity::days(1));
    return ca ? *ca : tls::KeyAndCert{};
}

} // namespace

class TestCertificateAuthority : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // QtConcurrent's threads below may still be ending when the test's main returns.
    void initTestCase() { QVERIFY(tls::keepOpenSslUntilExit()); }

    void aWorkerCertificateNamesItsHostsAndChainsToTheCa() {
        const auto ca = makeCa();
        QVERIFY(!ca.certPem.empty());
        auto leaf =
            tls::issue(ca, {"tessera-worker n1", {"node1", "localhost"}, {"10.1.2.3", "::1"}},
                       tls::Validity::days(90));
        QVERIFY2(leaf, leaf ? "" : leaf.error().message.c_str());
        QVERIFY(tls::keyMatches(leaf->keyPem, leaf->certPem));
        QVERIFY(!tls::keyMatches(ca.keyPem, leaf->certPem));
        auto info = tls::inspect(leaf->certPem);
        QVERIFY(info);
        QCOMPARE(QString::fromStdString(info->subject), QStringLiteral("CN=tessera-worker n1"));
        QCOMPARE(QString::fromStdString(info->issuer), QStringLiteral("CN=test CA"));
        const std::vector<std::string> names = {"node1", "localhost", "10.1.2.3", "::1"};
        QCOMPARE(info->names, names);
        QVERIFY(info->notAfter - info->notBefore >= 90 * 86400);
        QCOMPARE(info->sha256.size(), size_t(32 * 3 - 1));
        QVERIFY(tls::verify(leaf->certPem, ca.certPem, std::time(nullptr)));
    }

    void verificationSaysExpiredOrAnotherCa() {
        const auto ca = makeCa("cluster A");
        const auto other = makeCa("cluster B");
        const std::time_t now = std::time(nullptr);
        auto expired = tls::issue(ca, {"old", {"old"}, {}}, {now - 10 * 86400, now - 86400});
        QVERIFY(expired);
        auto r = tls::verify(expired->certPem, ca.certPem, now);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(r.error().message.find("expired on") != std::string::npos,
                 r.error().message.c_str());

        auto foreign = tls::issue(other, {"stranger", {"stranger"}, {}}, tls::Validity::days(1));
        QVERIFY(foreign);
        r = tls::verify(foreign->certPem, ca.certPem, now);
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("issued by CN=cluster B, not by this cluster's CA "
                                        "(CN=cluster A)") != std::string::npos,
                 r.error().message.c_str());

        auto future = tls::issue(ca, {"early", {"early"}, {}}, {now + 86400, now + 2 * 86400});
        QVERIFY(future);
        r = tls::verify(future->certPem, ca.certPem, now);
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("clock") != std::string::npos, r.error().message.c_str());
    }

    void badInputIsRefusedWithAReason() {
        const auto ca = makeCa();
        auto r = tls::issue(ca, {"x", {}, {"10.0.0.300"}}, tls::Validity::days(1));
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
        QVERIFY(r.error().message.find("10.0.0.300") != std::string::npos);
        r = tls::issue({ca.keyPem, makeCa().certPem}, {"x", {"x"}, {}}, tls::Validity::days(1));
        QVERIFY(!r); // key of one CA, certificate of another
        QVERIFY(!tls::inspect("not a certificate"));
        // A NUL and a non-UTF-8 byte before a PEM header: every byte of the literal but its end.
        static constexpr char kBinaryPem[] = "\0\xff-----BEGIN CERTIFICATE-----\n";
        QVERIFY(!tls::inspect(std::string(kBinaryPem, sizeof kBinaryPem - 1)));
        QVERIFY(!tls::verify("junk", ca.certPem, std::time(nullptr)));
        QVERIFY(!tls::keyMatches("junk", ca.certPem));
    }

    void theClusterCaIsMadeOnceWithPrivateKeys() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("tls"));
        auto first = ClusterCa::open(folder);
        QVERIFY2(first, first ? "" : first.error().message.c_str());
        for (const char* key : {"ca.key", "backend.key"}) {
            const QFileInfo fi(folder + QLatin1Char('/') + QLatin1String(key));
            QVERIFY(fi.exists());
            QCOMPARE(fi.permissions() & ~(QFile::ReadUser | QFile::WriteUser),
                     QFile::ReadOwner | QFile::WriteOwner);
        }
        QCOMPARE(QFileInfo(folder).permissions() & (QFile::ReadGroup | QFile::ReadOther),
                 QFileDevice::Permissions());
        auto again = ClusterCa::open(folder);
        QVERIFY(again);
        QCOMPARE(again->caCertPem(), first->caCertPem());
        QCOMPARE(again->backendIdentity()->certPem, first->backendIdentity()->certPem);
        QVERIFY(
            tls::verify(first->backendIdentity()->certPem, first->caCertPem(), std::time(nullptr)));
    }

    void twoProcessesOpeningTogetherShareOneCa() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("tls"));
        auto a = QtConcurrent::run([&] { return ClusterCa::open(folder); });
        auto b = QtConcurrent::run([&] { return ClusterCa::open(folder); });
        const auto ra = a.result(), rb = b.result();
        QVERIFY(ra && rb);
        QCOMPARE(ra->caCertPem(), rb->caCertPem());
    }

    void aWorkerCertificateCoversItsAddressAndLoopback() {
        QTemporaryDir dir;
        auto ca = ClusterCa::open(dir.path());
        QVERIFY(ca);
        auto cert = ca->issueWorker(QStringLiteral("gpu-1"),
                                    {QStringLiteral("10.200.0.2"), QStringLiteral("gpu-1.lab")});
        QVERIFY2(cert, cert ? "" : cert.error().message.c_str());
        auto info = tls::inspect(cert->certPem);
        QVERIFY(info);
        const std::vector<std::string> names = {"localhost", "gpu-1.lab", "127.0.0.1",
                                                "10.200.0.2"};
        QCOMPARE(info->names, names);
        QVERIFY(tls::verify(cert->certPem, ca->caCertPem(), std::time(nullptr)));
        const auto bad = ca->issueWorker(QStringLiteral("x"), {QStringLiteral("a b;rm")});
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("a b;rm") != std::string::npos);
        QVERIFY(!ca->issueWorker(QStringLiteral("x"), {}));
    }

    void aMismatchedKeyIsNamedNotReplaced() {
        QTemporaryDir dir;
        QVERIFY(ClusterCa::open(dir.path()));
        const auto other = makeCa();
        QFile key(dir.filePath(QStringLiteral("ca.key")));
        QVERIFY(key.open(QIODevice::WriteOnly | QIODevice::Truncate));
        key.write(other.keyPem.c_str());
        key.close();
        auto r = ClusterCa::open(dir.path());
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("do not belong together") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(QFile(dir.filePath(QStringLiteral("ca.key"))).size(), qint64(other.keyPem.size()));
    }

    void anExpiringBackendCertificateIsRenewed() {
        QTemporaryDir dir;
        auto ca = ClusterCa::open(dir.path());
        QVERIFY(ca);
        // Replace the backend's certificate with one that has 10 days left.
        tls::KeyAndCert caPair;
        QFile k(dir.filePath(QStringLiteral("ca.key"))), c(dir.filePath(QStringLiteral("ca.crt")));
        QVERIFY(k.open(QIODevice::ReadOnly) && c.open(QIODevice::ReadOnly));
        caPair = {k.readAll().toStdString(), c.readAll().toStdString()};
        const std::time_t now = std::time(nullptr);
        auto soon = tls::issue(caPair, {"tessera-backend", {}, {}}, {now - 60, now + 10 * 86400});
        QVERIFY(soon);
        for (const auto& [name, text] :
             {std::pair{"backend.key", soon->keyPem}, std::pair{"backend.crt", soon->certPem}}) {
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text.c_str());
        }
        auto reopened = ClusterCa::open(dir.path());
        QVERIFY(reopened);
        QVERIFY(reopened->backendIdentity()->certPem != soon->certPem);
        QVERIFY(tls::inspect(reopened->backendIdentity()->certPem)->notAfter > now + 80 * 86400);
    }
};

QTEST_GUILESS_MAIN(TestCertificateAuthority)
#include "tst_certificate_authority.moc"
