// tessera-ctl's cloud commands against the fake Lambda Cloud (real test hosts behind it): the
// key stored 0600 from stdin, offers, rent to a ready worker, leases, release until terminated,
// cost — each with --json; and a tessera-ctl killed (SIGKILL) between the launch request and
// its reply, whose instance the next tessera-ctl finds and releases.
#include "tests/support/fakelambda.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace tessera;

namespace {
const QString kKey = QStringLiteral("ctl-cloud-test-key");
}

class TstCtlCloud : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
    std::unique_ptr<test::FakeLambda> m_fake;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TESSERA_DATA_DIR"), m_data.path());
        e.insert(QStringLiteral("TESSERA_LAMBDA_API_URL"), m_fake->url());
        e.insert(QStringLiteral("TESSERA_LAMBDA_SSH_USER"), QStringLiteral("root"));
        return e;
    }

    /// Runs tessera-ctl with `args` (and `input` on stdin); its exit code, -1 if it crashed.
    int ctl(const QStringList& args, QByteArray* out = nullptr, const QByteArray& input = {}) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"), args);
        p.write(input);
        p.closeWriteChannel();
        if (!p.waitForFinished(240000)) {
            p.kill();
            p.waitForFinished();
        }
        const QByteArray err = p.readAllStandardError();
        if (out) {
            *out = p.readAllStandardOutput();
        }
        if (p.exitCode() != 0) {
            qInfo().noquote() << "tessera-ctl" << args.join(' ') << "said:" << err;
        }
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    QJsonObject ctlJson(const QStringList& args, int* code = nullptr) {
        QByteArray out;
        const int c = ctl(args + QStringList{QStringLiteral("--json")}, &out);
        if (code) {
            *code = c;
        }
        return QJsonDocument::fromJson(out).object();
    }

    /// `tessera-ctl rent gpu_1x_a10` started in `rent`, with the key stored and the fake holding
    /// the launch reply; returns once the cloud has recorded the instance.
    void startHeldRent(QProcess& rent) {
        QCOMPARE(ctl({QStringLiteral("cloud-key")}, nullptr, kKey.toUtf8() + "\n"), 0);
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 600}});
        rent.setProcessEnvironment(env());
        rent.start(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"),
                   {QStringLiteral("rent"), QStringLiteral("gpu_1x_a10")});
        QTRY_VERIFY_WITH_TIMEOUT(!m_fake->listed().isEmpty(), 60000);
    }

private Q_SLOTS:
    void initTestCase() {
        m_fake = std::make_unique<test::FakeLambda>(kKey);
        QVERIFY2(m_fake->error().isEmpty(), qPrintable(m_fake->error()));
    }

    void keyOffersRentLeasesReleaseCost() {
        QCOMPARE(ctl({QStringLiteral("offers")}), 2); // no key yet: bad input, says how to add
        QCOMPARE(ctl({QStringLiteral("cloud-key")}, nullptr, kKey.toUtf8() + "\n"), 0);
        const QString keyFile =
            QDir(m_data.path()).filePath(QStringLiteral("cloud/lambda-api-key"));
        QCOMPARE(QFile::permissions(keyFile) & 0x0077, QFile::Permissions());

        const QJsonArray offers = ctlJson({QStringLiteral("offers")}).value("offers").toArray();
        QVERIFY(offers.size() >= 3);
        QVERIFY(offers.first().toObject().value("pricePerHour").toDouble() > 0);

        int code = -1;
        const QJsonObject rented =
            ctlJson({QStringLiteral("rent"), QStringLiteral("gpu_1x_a10")}, &code)
                .value("lease")
                .toObject();
        QCOMPARE(code, 0);
        QCOMPARE(rented.value("state").toString(), QStringLiteral("ready"));
        const QString lease = rented.value("id").toString();
        const QString instance = rented.value("instance").toString();
        QVERIFY(!instance.isEmpty());

        const QJsonObject listed = ctlJson({QStringLiteral("leases")});
        QVERIFY(listed.value("reconciled").toBool());
        QCOMPARE(listed.value("leases").toArray().size(), 1);
        QCOMPARE(listed.value("leases").toArray().first().toObject().value("id").toString(), lease);

        const QJsonArray released =
            ctlJson({QStringLiteral("release"), lease}, &code).value("released").toArray();
        QCOMPARE(code, 0);
        QCOMPARE(released.first().toObject().value("state").toString(), QStringLiteral("released"));
        QVERIFY2(m_fake->terminated(instance, kKey), qPrintable(m_fake->status(instance, kKey)));

        const QJsonObject cost = ctlJson({QStringLiteral("cost")});
        QVERIFY(cost.value("total").toDouble() > 0);
        QCOMPARE(cost.value("perHour").toDouble(), 0.0);
    }

    void killedBetweenLaunchAndReply() {
        QProcess rent;
        startHeldRent(rent); // the cloud has the instance, the reply has not come
        if (QTest::currentTestFailed()) {
            return;
        }
        rent.kill();
        rent.waitForFinished();
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0}});

        const QJsonObject listed = ctlJson({QStringLiteral("leases")});
        const QJsonArray lost = listed.value("lost").toArray();
        QCOMPARE(lost.size(), 1);
        const QString instance = lost.first().toObject().value("instance").toString();
        QVERIFY(!lost.first().toObject().value("lease").toString().isEmpty());
        int code = -1;
        ctlJson({QStringLiteral("release"), QStringLiteral("--all")}, &code);
        QCOMPARE(code, 0);
        QVERIFY(ctlJson({QStringLiteral("leases")}).value("lost").toArray().isEmpty());
        QVERIFY2(m_fake->terminated(instance, kKey), qPrintable(m_fake->status(instance, kKey)));
    }

    // A second tessera-ctl beside a rent in progress leaves it alone (no "lost instance"), and
    // the interrupted rent terminates what it launched before it exits.
    void rentBesideLeasesAndInterrupted() {
        QProcess rent;
        startHeldRent(rent);
        if (QTest::currentTestFailed()) {
            return;
        }
        const QString instance = m_fake->listed().first().toObject().value("id").toString();
        int code = -1;
        const QJsonObject listed = ctlJson({QStringLiteral("leases")}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(listed.value("lost").toArray().isEmpty(), "a rent in progress was called lost");
        QCOMPARE(listed.value("leases").toArray().size(), 1);
        rent.terminate(); // SIGTERM, as Ctrl-C
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0}});
        QVERIFY(rent.waitForFinished(120000));
        QCOMPARE(rent.exitStatus(), QProcess::NormalExit);
        QCOMPARE(rent.exitCode(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(m_fake->terminated(instance, kKey), 30000);
        QVERIFY(ctlJson({QStringLiteral("leases")}).value("lost").toArray().isEmpty());
    }

    void cleanupTestCase() { m_fake.reset(); }
};

QTEST_GUILESS_MAIN(TstCtlCloud)
#include "tst_ctlcloud.moc"
