// The rules Tessera keeps with a GPU cloud besides its wire format: requests spaced within the
// API's documented rate limits (CloudPace), instances known by name when a listing leaves their
// tags out, preferred regions tried first, the firewall rules between the installation's own
// instances, host key fingerprints as ssh prints them, and the settings file's "pace".
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudpace.h"
#include "backend/provision/cloud/cloudpeerfirewall.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/cloudsettings.h"
#include "backend/provision/cloud/instancename.h"
#include "backend/provision/cloud/lambdaapi.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

QByteArray uniqueKey() {
    static int n = 0;
    return QByteArray("pace-test-") + QByteArray::number(++n);
}

} // namespace

class TstCloudRules : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;

private Q_SLOTS:
    void initTestCase() { qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8()); }

    // Reservations keep the interval from every other one, first come first served; a launch
    // waits for its own interval without holding up the requests before it. (On a clock the
    // test moves: nothing here depends on how fast the machine is.)
    void paceSpacesRequests() {
        qint64 now = 50000;
        CloudPace pace([&] { return now; });
        const CloudPacing p{1000, 12000, QStringLiteral("/launch")};
        QCOMPARE(pace.reserve(p, false), 0);
        QCOMPARE(pace.reserve(p, false), 1000);
        QCOMPARE(pace.reserve(p, true), 2000);
        QCOMPARE(pace.reserve(p, true), 14000); // the launch interval
        QCOMPARE(pace.reserve(p, false), 3000); // fits in the gap before that launch
        now += 30000; // every slot, the last launch's interval too, in the past
        QCOMPARE(pace.reserve(p, false), 0);
        QCOMPARE(pace.reserve(p, true), 1000);
    }

    void paceHoldsOffAfterA429() {
        qint64 now = 0;
        CloudPace pace([&] { return now; });
        pace.holdOff(5000);
        QCOMPARE(pace.reserve(CloudPacing{}, false), 5000);
        now += 6000;
        QCOMPARE(pace.reserve(CloudPacing{}, false), 0);
    }

    void paceOffSendsAtOnce() {
        CloudPace pace([] { return qint64(7); });
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(pace.reserve(CloudPacing{}, i % 2 == 0), 0);
        }
    }

    // Every caller in the process with one key shares one schedule; another key has its own.
    void onePacePerKey() {
        QCOMPARE(CloudPace::forKey(uniqueKey()) == CloudPace::forKey(uniqueKey()), false);
        const QByteArray key = uniqueKey();
        QCOMPARE(CloudPace::forKey(key), CloudPace::forKey(key));
    }

    void lambdaDefaultsKeepAMargin() {
        const CloudPacing p = LambdaCloudApi::documentedPacing();
        QVERIFY(p.requestIntervalMs > 1000); // 1 request/s documented
        QVERIFY(p.launchIntervalMs > 12000); // 1 launch per 12 s documented
        QCOMPARE(p.launchPath, QStringLiteral("/instance-operations/launch"));
    }

    void instanceNameCarriesOwnerAndLease() {
        const QString owner = QStringLiteral("0123456789abcdef");
        const QString lease = QStringLiteral("lease-20261207-101500-0a1b");
        const QString name = cloudInstanceName(owner, lease);
        QCOMPARE(name, QStringLiteral("tessera-0123456789abcdef-lease-20261207-101500-0a1b"));
        QVERIFY(name.size() <= 64);
        CloudInstance untagged;
        untagged.name = name;
        const InstanceOwner fromName = instanceOwner(untagged);
        QCOMPARE(fromName.owner, owner);
        QCOMPARE(fromName.lease, lease);
        QVERIFY(fromName.fromName);
        CloudInstance tagged = untagged;
        tagged.tags = {{QString::fromLatin1(kLeaseTag), QStringLiteral("lease-x")},
                       {QString::fromLatin1(kOwnerTag), QStringLiteral("ffffffffffffffff")}};
        QCOMPARE(instanceOwner(tagged).lease, QStringLiteral("lease-x")); // tags win
        QVERIFY(!instanceOwner(tagged).fromName);
    }

    void foreignNamesIdentifyNothing_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << QString();
        QTest::newRow("a person's") << QStringLiteral("tessera-dev-box");
        QTest::newRow("old form") << QStringLiteral("tessera lambda-0a1b");
        QTest::newRow("short owner") << QStringLiteral("tessera-0123-lease-20261207-101500-0a1b");
        QTest::newRow("trailing") << QStringLiteral(
            "tessera-0123456789abcdef-lease-20261207-101500-0a1b-copy");
        QTest::newRow("upper hex")
            << QStringLiteral("tessera-0123456789ABCDEF-lease-20261207-101500-0a1b");
    }
    void foreignNamesIdentifyNothing() {
        QFETCH(QString, name);
        CloudInstance i;
        i.name = name;
        QVERIFY(instanceOwner(i).lease.isEmpty());
        QVERIFY(instanceOwner(i).owner.isEmpty());
    }

    void preferredRegionsComeFirst_data() {
        QTest::addColumn<QStringList>("capacity");
        QTest::addColumn<QStringList>("preferred");
        QTest::addColumn<QStringList>("tried");
        const QStringList cloud{"us-west-1", "us-east-1", "europe-central-1"};
        QTest::newRow("none preferred") << cloud << QStringList{} << cloud;
        QTest::newRow("one preferred") << cloud << QStringList{"europe-central-1"}
                                       << QStringList{"europe-central-1", "us-west-1", "us-east-1"};
        QTest::newRow("order kept") << cloud << QStringList{"us-east-1", "europe-central-1"}
                                    << QStringList{"us-east-1", "europe-central-1", "us-west-1"};
        QTest::newRow("preferred without capacity skipped")
            << cloud << QStringList{"asia-south-1", "us-east-1"}
            << QStringList{"us-east-1", "us-west-1", "europe-central-1"};
        QTest::newRow("duplicates once")
            << cloud << QStringList{"us-east-1", "us-east-1"}
            << QStringList{"us-east-1", "us-west-1", "europe-central-1"};
        QTest::newRow("no capacity") << QStringList{} << QStringList{"us-east-1"} << QStringList{};
    }
    void preferredRegionsComeFirst() {
        QFETCH(QStringList, capacity);
        QFETCH(QStringList, preferred);
        QFETCH(QStringList, tried);
        QCOMPARE(orderRegions(capacity, preferred), tried);
    }

    void peerRulesOpenTcpToEachPeerOnly() {
        const auto rules =
            CloudPeerFirewall::peerRules({"198.51.100.7", "198.51.100.2", "198.51.100.7"});
        QCOMPARE(rules.size(), 2);
        QCOMPARE(rules.at(0).sourceNetwork, QStringLiteral("198.51.100.2/32"));
        QCOMPARE(rules.at(1).sourceNetwork, QStringLiteral("198.51.100.7/32"));
        for (const CloudFirewallRule& r : rules) {
            QCOMPARE(r.protocol, QStringLiteral("tcp"));
            QCOMPARE(r.portMin, 1);
            QCOMPARE(r.portMax, 65535);
            QVERIFY(r.description.size() <= 128);
        }
        QVERIFY(CloudPeerFirewall::peerRules({}).isEmpty()); // nothing opened without peers
    }

    // The fingerprint ssh shows in its "host key has changed" message is ssh-keygen -l's.
    void fingerprintAsSshPrintsIt() {
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("k"));
        QProcess gen;
        gen.start(QStringLiteral("ssh-keygen"), {"-q", "-t", "ed25519", "-N", "", "-f", key});
        if (!gen.waitForFinished(30000) || gen.exitCode() != 0) {
            QSKIP("ssh-keygen is missing: apt-get install openssh-client");
        }
        QFile pub(key + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QString line = QString::fromLatin1(pub.readAll()).trimmed();
        QProcess list;
        list.start(QStringLiteral("ssh-keygen"), {"-l", "-E", "sha256", "-f", key + ".pub"});
        QVERIFY(list.waitForFinished(30000));
        const QString expected =
            QString::fromLatin1(list.readAllStandardOutput()).section(' ', 1, 1);
        QVERIFY(expected.startsWith(QLatin1String("SHA256:")));
        QCOMPARE(hostKeyFingerprint(line), expected);
        QCOMPARE(hostKeyFingerprint(QStringLiteral("not a key")),
                 QStringLiteral("(not an OpenSSH public key)"));
    }

    void settingsPace_data() {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("request");
        QTest::addColumn<int>("launch");
        QTest::newRow("absent") << QByteArray("{}") << true << -1 << -1;
        QTest::newRow("both") << QByteArray(R"({"pace": {"requestIntervalMs": 250,
                                                          "launchIntervalMs": 0}})")
                              << true << 250 << 0;
        QTest::newRow("negative") << QByteArray(R"({"pace": {"requestIntervalMs": -1}})") << false
                                  << 0 << 0;
        QTest::newRow("text") << QByteArray(R"({"pace": {"launchIntervalMs": "12"}})") << false << 0
                              << 0;
        QTest::newRow("fraction") << QByteArray(R"({"pace": {"requestIntervalMs": 0.5}})") << false
                                  << 0 << 0;
        QTest::newRow("huge") << QByteArray(R"({"pace": {"requestIntervalMs": 1e12}})") << false
                              << 0 << 0;
        QTest::newRow("not an object") << QByteArray(R"({"pace": 5})") << false << 0 << 0;
    }
    void settingsPace() {
        QFETCH(QByteArray, file);
        QFETCH(bool, ok);
        QFETCH(int, request);
        QFETCH(int, launch);
        QFile f(QDir(cloudDir()).filePath(QStringLiteral("lambda.json")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(file);
        f.close();
        const Result<CloudSettings> s = loadCloudSettings(QStringLiteral("lambda"));
        QCOMPARE(bool(s), ok);
        if (ok) {
            QCOMPARE(s->requestIntervalMs, request);
            QCOMPARE(s->launchIntervalMs, launch);
        } else {
            QVERIFY2(QString::fromStdString(s.error().message).contains(QLatin1String("pace")),
                     s.error().message.c_str());
        }
        f.remove();
    }
};

QTEST_GUILESS_MAIN(TstCloudRules)
#include "tst_cloudrules.moc"
