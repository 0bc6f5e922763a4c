// The SSH hosts file edited in place (backend/provision/ssh/sshhostsfile.h): a rent's write-back of
// what it found and the Add SSH host form change only their entry, keep fields Tessera does not
// know, and never lose each other's change when they write at the same moment.
#include "backend/provision/ssh/sshhostsfile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace tessera;

namespace {

void writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(cannot read)");
}

QJsonObject readRoot(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

SshHost hostAt(const QString& address, const QString& name = QString()) {
    SshHost h;
    h.host = address;
    h.user = QStringLiteral("ml");
    h.name = name;
    return h;
}

/// Two hosts, one with a field Tessera does not know, and a key beside "hosts".
const QByteArray kTwoHosts = R"({
  "comment": "lab machines",
  "hosts": [
    {"host": "10.0.0.1", "user": "ml", "rack": "B7", "pricePerHour": 1.5},
    {"host": "10.0.0.2", "user": "ml", "gpus": 4, "gpuName": "old name"}
  ]
})";

} // namespace

class TstSshHostsFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writeBackChangesOnlyTheMachineFields() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, kTwoHosts);
        SshHost found = hostAt(QStringLiteral("10.0.0.1"));
        found.gpus = 8;
        found.gpuName = QStringLiteral("NVIDIA H100 80GB HBM3");
        found.gpuMemoryGiB = 79.6;
        found.cores = 96;
        found.pricePerHour = 99; // not a machine field: the file's 1.5 stays
        const Result<QList<SshHost>> r = writeFoundMachine(file, found);
        QVERIFY2(r, r ? "" : r.error().message.c_str());

        const QJsonObject root = readRoot(file);
        QCOMPARE(root.value(QStringLiteral("comment")).toString(), QStringLiteral("lab machines"));
        const QJsonArray hosts = root.value(QStringLiteral("hosts")).toArray();
        QCOMPARE(hosts.size(), 2);
        const QJsonObject first = hosts[0].toObject();
        QCOMPARE(first.value(QStringLiteral("rack")).toString(), QStringLiteral("B7"));
        QCOMPARE(first.value(QStringLiteral("pricePerHour")).toDouble(), 1.5);
        QCOMPARE(first.value(QStringLiteral("gpus")).toInt(), 8);
        QCOMPARE(first.value(QStringLiteral("gpuName")).toString(),
                 QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(first.value(QStringLiteral("gpuMemoryGiB")).toDouble(), 79.6);
        QCOMPARE(first.value(QStringLiteral("cores")).toInt(), 96);
        // The other entry is as it was.
        QCOMPARE(hosts[1].toObject(), QJsonDocument::fromJson(kTwoHosts)
                                          .object()
                                          .value(QStringLiteral("hosts"))
                                          .toArray()[1]
                                          .toObject());
        // What loadSshHosts returns is the file after the write.
        QCOMPARE(r->size(), 2);
        QCOMPARE((*r)[0].gpus, 8);
        QCOMPARE((*r)[1].gpuName, QStringLiteral("old name"));
    }

    void writeBackDropsWhatTheCheckNoLongerFinds() {
        // A machine whose GPUs were taken out: the old count must not stay in the file.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, kTwoHosts);
        SshHost found = hostAt(QStringLiteral("10.0.0.2"));
        found.cores = 16;
        QVERIFY(writeFoundMachine(file, found));
        const QJsonObject second =
            readRoot(file).value(QStringLiteral("hosts")).toArray()[1].toObject();
        QVERIFY(!second.contains(QStringLiteral("gpus")));
        QVERIFY(!second.contains(QStringLiteral("gpuName")));
        QCOMPARE(second.value(QStringLiteral("cores")).toInt(), 16);
    }

    void writeBackForARemovedHostWritesNothingNew() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, kTwoHosts);
        const QJsonObject before = readRoot(file);
        SshHost gone = hostAt(QStringLiteral("10.0.0.9"));
        gone.gpus = 2;
        const Result<QList<SshHost>> r = writeFoundMachine(file, gone);
        QVERIFY(r);
        QCOMPARE(readRoot(file), before);
    }

    void aBrokenFileIsNeverOverwritten_data() {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("says");
        QTest::newRow("not JSON") << QByteArray("{\"hosts\": [\n  {\"host\": }\n]}")
                                  << QStringLiteral("line 2, column");
        QTest::newRow("a list") << QByteArray("[]") << QStringLiteral("not a JSON object");
        QTest::newRow("hosts not a list")
            << QByteArray(R"({"hosts": {"host": "a"}})") << QStringLiteral("not a list");
        QTest::newRow("entry without host") << QByteArray(R"({"hosts": [{"user": "ml"}]})")
                                            << QStringLiteral("nothing was written");
    }

    void aBrokenFileIsNeverOverwritten() {
        QFETCH(QByteArray, data);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, data);
        const Result<QList<SshHost>> r = addSshHostToFile(file, hostAt(QStringLiteral("10.0.0.3")));
        QVERIFY(!r);
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(message.contains(file) || r.error().code == ErrorCode::InvalidArgument,
                 qPrintable(message));
        QCOMPARE(fileBytes(file), data);
    }

    void aMissingFileAndFolderAreCreated() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("new/folder/ssh-hosts.json"));
        const Result<QList<SshHost>> r = addSshHostToFile(file, hostAt(QStringLiteral("10.0.0.3")));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->size(), 1);
        QCOMPARE(r->first().host, QStringLiteral("10.0.0.3"));
    }

    void aFailingChangeLeavesTheFile() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, kTwoHosts);
        const Result<QList<SshHost>> r =
            editSshHostsFile(file, [](QJsonArray& entries, const QList<SshHost>&) {
                entries = QJsonArray();
                return Result<void>(fail(ErrorCode::PermissionDenied, "changed my mind"));
            });
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::PermissionDenied);
        QCOMPARE(fileBytes(file), kTwoHosts);
    }

    void writersAtTheSameMomentKeepEachOthersChange() {
        // The form adds hosts on one thread while rents write back on another: every added host
        // and every write-back is in the file at the end (unlocked, one writer's
        // read-modify-write could overwrite the other's).
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ssh-hosts.json"));
        writeFile(file, kTwoHosts);
        constexpr int kRounds = 40;
        std::thread adder([&file] {
            for (int i = 0; i < kRounds; ++i) {
                (void)addSshHostToFile(file, hostAt(QStringLiteral("10.1.0.%1").arg(i)));
            }
        });
        std::thread writer([&file] {
            for (int i = 1; i <= kRounds; ++i) {
                SshHost found = hostAt(QStringLiteral("10.0.0.1"));
                found.cores = i;
                (void)writeFoundMachine(file, found);
            }
        });
        adder.join();
        writer.join();
        const Result<QList<SshHost>> hosts = loadSshHosts(file);
        QVERIFY2(hosts, hosts ? "" : hosts.error().message.c_str());
        QCOMPARE(hosts->size(), 2 + kRounds);
        QCOMPARE(hosts->first().cores, kRounds);
        const QJsonObject first =
            readRoot(file).value(QStringLiteral("hosts")).toArray()[0].toObject();
        QCOMPARE(first.value(QStringLiteral("rack")).toString(), QStringLiteral("B7"));
    }
};

QTEST_GUILESS_MAIN(TstSshHostsFile)
#include "tst_sshhostsfile.moc"
