// Setting up renting from the GUI: the Add SSH host form (field checks that name the field, the
// hosts file written without losing what it held, duplicates and broken files refused), the
// connection test's host key flow (stand-in ssh-keyscan and ssh; the real ssh-keygen) where
// nothing is trusted before the person accepts, the Rent dialog's empty states, the memory of
// the local offer, and the Auto-provision dialog's OK / Apply / Cancel.
#include "app/rent/addsshhostdialog.h"
#include "app/rent/hostkeys.h"
#include "app/rent/offertablemodel.h"
#include "app/rent/rentdialog.h"
#include "app/settings/autoscalesettings.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/local/localleases.h"
#include "backend/provision/ssh/sshhostsfile.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/service/backendclient.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/support/scriptedprovider.h"

#include <QCheckBox>
#include <QCryptographicHash>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data, bool executable = false) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size()) {
        return false;
    }
    f.close();
    return !executable || f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

/// OpenSSH's SHA-256 fingerprint of a base64 key blob, computed here to check ssh-keygen's.
QString sha256Fingerprint(const QString& blob) {
    const QByteArray digest = QCryptographicHash::hash(QByteArray::fromBase64(blob.toLatin1()),
                                                       QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") +
           QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

/// A fresh ed25519 public key's "type blob" (ssh-keygen), or empty.
QStringList newPublicKey(const QString& path) {
    if (QProcess::execute(QStringLiteral("ssh-keygen"),
                          {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                           QStringLiteral("-N"), QString(), QStringLiteral("-f"), path}) != 0) {
        return {};
    }
    return QString::fromLatin1(readAll(path + QStringLiteral(".pub"))).split(QLatin1Char(' '));
}

} // namespace

class TstRentSetup : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        const QStringList key = newPublicKey(m_dir.filePath(QStringLiteral("hostkey")));
        const QStringList other = newPublicKey(m_dir.filePath(QStringLiteral("otherkey")));
        if (key.size() < 2 || other.size() < 2) {
            QSKIP("ssh-keygen is missing: install the Debian package openssh-client");
        }
        m_keyBlob = key[1].trimmed();
        m_otherBlob = other[1].trimmed();
        // Stand-ins: keyscan prints the host key (its arguments kept), ssh prints what the
        // machine check prints on a GPU box and records that it ran.
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("keyscan")),
                          QStringLiteral("#!/bin/sh\necho \"$*\" > '%1/keyscan.args'\n"
                                         "echo '# a comment line' \n"
                                         "echo \"[$5]:$4 ssh-ed25519 %2\"\n")
                              .arg(m_dir.path(), m_keyBlob)
                              .toUtf8(),
                          true));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("ssh")),
                          QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1/ssh.args'\n"
                                         "echo os=Linux; echo cores=12; echo mem_kb=16000000\n"
                                         "echo 'mpi=mpirun (Open MPI) 4.1.4'\n"
                                         "echo 'gpu=NVIDIA L4, 23034'\n")
                              .arg(m_dir.path())
                              .toUtf8(),
                          true));
        QVERIFY(writeFile(
            m_dir.filePath(QStringLiteral("keyscan-refused")),
            "#!/bin/sh\necho 'connect to 127.0.0.1 port 2222: Connection refused' >&2\n", true));
    }

    void init() {
        m_case = std::make_unique<QTemporaryDir>();
        QVERIFY(m_case->isValid());
        QFile::remove(m_dir.filePath(QStringLiteral("ssh.args")));
        QFile::remove(m_dir.filePath(QStringLiteral("keyscan.args")));
    }

    void formChecksNameTheField_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("identity");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QString>("gpuName");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("says");
        QTest::newRow("no address") << ""
                                    << "  "
                                    << ""
                                    << "" << 0 << ""
                                    << "address"
                                    << "Address: enter";
        QTest::newRow("user@ only") << ""
                                    << "me@"
                                    << ""
                                    << "" << 0 << ""
                                    << "address"
                                    << "Address: \"me@\"";
        QTest::newRow("space in host") << ""
                                       << "gpu box"
                                       << ""
                                       << "" << 0 << ""
                                       << "address"
                                       << "Address: \"gpu box\" is not";
        QTest::newRow("option as host") << ""
                                        << "-oProxyCommand=x"
                                        << ""
                                        << "" << 0 << ""
                                        << "address"
                                        << "Address:";
        QTest::newRow("two users") << ""
                                   << "me@box"
                                   << "you"
                                   << "" << 0 << ""
                                   << "user"
                                   << "SSH user: \"you\" differs";
        QTest::newRow("bad user") << ""
                                  << "box"
                                  << "-x"
                                  << "" << 0 << ""
                                  << "user"
                                  << "SSH user: \"-x\"";
        QTest::newRow("bad name") << "lab a"
                                  << "box"
                                  << ""
                                  << "" << 0 << ""
                                  << "name"
                                  << "Name: \"lab a\"";
        QTest::newRow("missing key") << ""
                                     << "box"
                                     << ""
                                     << "/nowhere/id_x" << 0 << ""
                                     << "identityFile"
                                     << "Identity file: /nowhere/id_x does";
        QTest::newRow("public key") << ""
                                    << "box"
                                    << ""
                                    << "@pub" << 0 << ""
                                    << "identityFile"
                                    << "is the public key";
        QTest::newRow("model, no GPUs") << ""
                                        << "box"
                                        << ""
                                        << "" << 0 << "NVIDIA L4"
                                        << "gpus"
                                        << "GPUs: 0";
    }

    void formChecksNameTheField() {
        QFETCH(QString, name);
        QFETCH(QString, address);
        QFETCH(QString, user);
        QFETCH(QString, identity);
        QFETCH(int, gpus);
        QFETCH(QString, gpuName);
        QFETCH(QString, field);
        QFETCH(QString, says);
        SshHostFormInput in;
        in.name = name;
        in.address = address;
        in.user = user;
        in.identityFile = identity == QLatin1String("@pub")
                              ? m_dir.filePath(QStringLiteral("hostkey.pub"))
                              : identity;
        in.gpus = gpus;
        in.gpuName = gpuName;
        const SshHostFormCheck c = checkSshHostForm(in);
        QCOMPARE(c.field, field);
        QVERIFY2(c.error.startsWith(says) || c.error.contains(says), qPrintable(c.error));
    }

    void formAcceptsUserAtHost() {
        SshHostFormInput in;
        in.address = QStringLiteral(" me@10.0.0.5 ");
        in.port = 2222;
        in.identityFile = m_dir.filePath(QStringLiteral("hostkey"));
        in.gpus = 2;
        in.gpuName = QStringLiteral("NVIDIA L4");
        in.gpuMemoryGiB = 22.5;
        in.pricePerHour = 0.8;
        const SshHostFormCheck c = checkSshHostForm(in);
        QVERIFY2(c.ok(), qPrintable(c.error));
        QCOMPARE(c.host.user, QStringLiteral("me"));
        QCOMPARE(c.host.host, QStringLiteral("10.0.0.5"));
        QCOMPARE(c.host.offerId(), QStringLiteral("me@10.0.0.5:2222"));
        QCOMPARE(c.host.nodeName(), QStringLiteral("ssh-10.0.0.5"));
        QCOMPARE(c.host.gpus, 2);
        QCOMPARE(c.host.pricePerHour, 0.8);
    }

    void saveWithABadFieldWritesNothing() {
        const QString file = m_case->filePath(QStringLiteral("ssh-hosts.json"));
        AddSshHostDialog dialog(file);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        QVERIFY2(dialog.errorText().startsWith(QLatin1String("Address:")),
                 qPrintable(dialog.errorText()));
        QCOMPARE(dialog.focusWidget(),
                 dialog.findChild<QLineEdit*>(QStringLiteral("sshHostAddress")));
        QVERIFY(dialog.isVisible());
        QVERIFY(!QFile::exists(file));
    }

    void saveKeepsOtherHostsAndUnknownFields() {
        const QString file = m_case->filePath(QStringLiteral("ssh-hosts.json"));
        QVERIFY(writeFile(file, R"({"comment": "mine", "hosts": [
            {"name": "lab-a", "host": "10.0.0.5", "user": "me", "_note": "keep me",
             "custom": {"x": [1, 2]}, "gpus": 8}]})"));
        AddSshHostDialog dialog(file);
        QList<SshHost> offered;
        connect(&dialog, &AddSshHostDialog::saved, this,
                [&offered](const SshHost&, const QList<SshHost>& all) { offered = all; });
        dialog.show();
        auto* address = dialog.findChild<QLineEdit*>(QStringLiteral("sshHostAddress"));
        auto* name = dialog.findChild<QLineEdit*>(QStringLiteral("sshHostName"));
        auto* price = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("sshHostPrice"));
        QVERIFY(address && name && price);
        QTest::keyClicks(name, QStringLiteral("lab-b"));
        QTest::keyClicks(address, QStringLiteral("root@10.0.0.6"));
        price->setValue(1.25);
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(offered.size(), 2);
        const QJsonObject root = QJsonDocument::fromJson(readAll(file)).object();
        QCOMPARE(root.value(QStringLiteral("comment")).toString(), QStringLiteral("mine"));
        const QJsonArray hosts = root.value(QStringLiteral("hosts")).toArray();
        QCOMPARE(hosts.size(), 2);
        const QJsonObject first = hosts[0].toObject();
        QCOMPARE(first.value(QStringLiteral("_note")).toString(), QStringLiteral("keep me"));
        QCOMPARE(first.value(QStringLiteral("custom")).toObject().value(QStringLiteral("x")),
                 QJsonValue(QJsonArray{1, 2}));
        QCOMPARE(first.value(QStringLiteral("gpus")).toInt(), 8);
        const QJsonObject second = hosts[1].toObject();
        QCOMPARE(second.value(QStringLiteral("name")).toString(), QStringLiteral("lab-b"));
        QCOMPARE(second.value(QStringLiteral("host")).toString(), QStringLiteral("10.0.0.6"));
        QCOMPARE(second.value(QStringLiteral("user")).toString(), QStringLiteral("root"));
        QCOMPARE(second.value(QStringLiteral("pricePerHour")).toDouble(), 1.25);
        QCOMPARE(second.value(QStringLiteral("knownHostsFile")).toString(),
                 m_case->filePath(QStringLiteral("known_hosts"))); // Tessera's own, beside it
        const Result<QList<SshHost>> loaded = loadSshHosts(file);  // what the provider reads
        QVERIFY(loaded.has_value());
        QCOMPARE(loaded->size(), 2);
    }

    void saveRefusesADuplicate() {
        const QString file = m_case->filePath(QStringLiteral("ssh-hosts.json"));
        const QByteArray before = R"({"hosts": [{"name": "lab-a", "host": "10.0.0.5", "user": "me"},
                                               {"host": "10.0.0.7"}]})";
        QVERIFY(writeFile(file, before));
        SshHost sameName;
        sameName.name = QStringLiteral("lab-a");
        sameName.host = QStringLiteral("10.0.0.9");
        Result<QList<SshHost>> r = addSshHostToFile(file, sameName);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::AlreadyExists);
        QVERIFY2(r.error().message.starts_with("Name:") &&
                     r.error().message.find("lab-a") != std::string::npos,
                 r.error().message.c_str());
        SshHost sameAddress;
        sameAddress.name = QStringLiteral("lab-c");
        sameAddress.host = QStringLiteral("10.0.0.5");
        sameAddress.user = QStringLiteral("me");
        r = addSshHostToFile(file, sameAddress);
        QVERIFY(!r);
        QVERIFY2(r.error().message.starts_with("Address: me@10.0.0.5:22"),
                 r.error().message.c_str());
        SshHost unnamedTwin; // "ssh-10.0.0.7" is the unnamed entry's node name
        unnamedTwin.host = QStringLiteral("10.0.0.7");
        unnamedTwin.port = 2222;
        QVERIFY(!addSshHostToFile(file, unnamedTwin));
        QCOMPARE(readAll(file), before);

        // Through the form: the message is shown, the name field gets the focus.
        AddSshHostDialog dialog(file);
        dialog.show();
        SshHostFormInput in;
        in.name = QStringLiteral("lab-a");
        in.address = QStringLiteral("10.0.0.8");
        in.knownHostsFile = m_case->filePath(QStringLiteral("known_hosts"));
        dialog.setInput(in);
        QVERIFY(!dialog.save());
        QVERIFY2(dialog.errorText().startsWith(QLatin1String("Name:")),
                 qPrintable(dialog.errorText()));
        QVERIFY(dialog.isVisible());
        QCOMPARE(readAll(file), before);
    }

    void saveRefusesABrokenFileAndKeepsIt() {
        const QString file = m_case->filePath(QStringLiteral("ssh-hosts.json"));
        const QByteArray broken = "{\n  \"hosts\": [\n    {\"host\": \"a\",}\n  ]\n}\n";
        QVERIFY(writeFile(file, broken));
        SshHost h;
        h.host = QStringLiteral("10.0.0.6");
        const Result<QList<SshHost>> r = addSshHostToFile(file, h);
        QVERIFY(!r);
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains(file) && message.contains(QLatin1String("line 3")) &&
                     message.contains(QLatin1String("nothing was written")),
                 qPrintable(message));
        QCOMPARE(readAll(file), broken);
        // An entry the provider would refuse: also named, also kept.
        const QByteArray badPort = R"({"hosts": [{"host": "a", "port": 0}]})";
        QVERIFY(writeFile(file, badPort));
        const Result<QList<SshHost>> r2 = addSshHostToFile(file, h);
        QVERIFY(!r2);
        QVERIFY2(r2.error().message.find("entry 1") != std::string::npos,
                 r2.error().message.c_str());
        QCOMPARE(readAll(file), badPort);
        const QByteArray notAList = R"({"hosts": {"host": "a"}})";
        QVERIFY(writeFile(file, notAList));
        QVERIFY(!addSshHostToFile(file, h));
        QCOMPARE(readAll(file), notAList);
    }

    void saveCreatesTheFileAndItsFolder() {
        const QString file = m_case->filePath(QStringLiteral("new/data/ssh-hosts.json"));
        SshHost h;
        h.host = QStringLiteral("10.0.0.6");
        const Result<QList<SshHost>> r = addSshHostToFile(file, h);
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(r->size(), 1);
        QCOMPARE(loadSshHosts(file)->first().host, QStringLiteral("10.0.0.6"));
    }

    void parsesKeyscanAndFingerprints() {
        const QString out = QStringLiteral("# 10.0.0.5:22 SSH-2.0-OpenSSH_9.2\n\n"
                                           "10.0.0.5 ssh-ed25519 %1\n"
                                           "10.0.0.5 ssh-ed25519 %1\n" // once only
                                           "10.0.0.5 garbage here\n"
                                           "[10.0.0.5]:2222 ecdsa-sha2-nistp256 %2\n")
                                .arg(m_keyBlob, m_otherBlob);
        const QList<ScannedHostKey> keys = parseKeyscan(out);
        QCOMPARE(keys.size(), 2);
        QCOMPARE(keys[0].type, QStringLiteral("ssh-ed25519"));
        QCOMPARE(keys[0].shortType(), QStringLiteral("ED25519"));
        QCOMPARE(keys[1].hostToken, QStringLiteral("[10.0.0.5]:2222"));
        QCOMPARE(keys[1].shortType(), QStringLiteral("ECDSA"));
        QCOMPARE(knownHostsToken(QStringLiteral("h"), 22), QStringLiteral("h"));
        QCOMPARE(knownHostsToken(QStringLiteral("h"), 2222), QStringLiteral("[h]:2222"));
        QCOMPARE(parseFingerprints(QStringLiteral("256 SHA256:abc h (ED25519)\nnoise\n"
                                                  "3072 SHA256:def h (RSA)\n")),
                 (QStringList{"SHA256:abc", "SHA256:def"}));
        // ssh-keygen's fingerprint is OpenSSH's SHA-256 of the blob.
        QProcess keygen;
        keygen.start(QStringLiteral("ssh-keygen"),
                     {QStringLiteral("-l"), QStringLiteral("-f"), QStringLiteral("-")});
        keygen.write(keys[0].line().toUtf8() + '\n');
        keygen.closeWriteChannel();
        QVERIFY(keygen.waitForFinished(20000));
        QCOMPARE(parseFingerprints(QString::fromUtf8(keygen.readAllStandardOutput())),
                 QStringList{sha256Fingerprint(m_keyBlob)});
    }

    void comparesWithKnownHosts() {
        const QList<ScannedHostKey> scanned = {
            {QStringLiteral("h"), QStringLiteral("ssh-ed25519"), m_keyBlob, QString()}};
        QCOMPARE(compareKnownHosts(QString(), scanned), HostKeyTrust::Unknown);
        QCOMPARE(compareKnownHosts(
                     QStringLiteral("# Host h found: line 1\nh ssh-ed25519 %1\n").arg(m_keyBlob),
                     scanned),
                 HostKeyTrust::Trusted);
        QCOMPARE(compareKnownHosts(QStringLiteral("h ssh-ed25519 %1\n").arg(m_otherBlob), scanned),
                 HostKeyTrust::Changed);
        QCOMPARE(
            compareKnownHosts(QStringLiteral("@cert-authority h ssh-ed25519 %1\n").arg(m_otherBlob),
                              scanned),
            HostKeyTrust::Unknown);
        QCOMPARE(compareKnownHosts(
                     QStringLiteral("@revoked h ssh-ed25519 %1\nh ssh-ed25519 %1\n").arg(m_keyBlob),
                     scanned),
                 HostKeyTrust::Revoked);
    }

    void hostKeyIsTrustedOnlyAfterAccept() {
        const QString knownHosts = m_case->filePath(QStringLiteral("keys/known_hosts"));
        AddSshHostDialog dialog(m_case->filePath(QStringLiteral("ssh-hosts.json")));
        dialog.setTools(tools());
        dialog.setInput(input(knownHosts));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        // The test shows the fingerprint and waits; nothing is trusted, nothing logs in.
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog.acceptKeyButton()->isVisible() ||
                (dialog.probe() && dialog.probe()->stage() == SshHostProbe::Stage::Failed),
            20000);
        QVERIFY2(dialog.acceptKeyButton()->isVisible(), qPrintable(dialog.connectionText()));
        QCOMPARE(
            QString::fromUtf8(readAll(m_dir.filePath(QStringLiteral("keyscan.args")))).trimmed(),
            QStringLiteral("-T 5 -p 2222 127.0.0.1"));
        QVERIFY2(dialog.fingerprintText().contains(sha256Fingerprint(m_keyBlob)),
                 qPrintable(dialog.fingerprintText()));
        QVERIFY(dialog.fingerprintText().contains(QLatin1String("ED25519")));
        QCOMPARE(dialog.probe()->stage(), SshHostProbe::Stage::AwaitingAcceptance);
        QVERIFY(!QFile::exists(knownHosts));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("ssh.args"))));

        // Reject: still nothing written, nothing run.
        QTest::mouseClick(dialog.rejectKeyButton(), Qt::LeftButton);
        QCOMPARE(dialog.probe()->stage(), SshHostProbe::Stage::Failed);
        QVERIFY(!dialog.acceptKeyButton()->isVisible());
        QVERIFY2(dialog.connectionText().contains(QLatin1String("rejected")),
                 qPrintable(dialog.connectionText()));
        QVERIFY(!QFile::exists(knownHosts));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("ssh.args"))));

        // Test again and accept: the key is written, then ssh logs in with strict checking.
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.acceptKeyButton()->isVisible(), 20000);
        QTest::mouseClick(dialog.acceptKeyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.probe()->stage() == SshHostProbe::Stage::Connected ||
                                     dialog.probe()->stage() == SshHostProbe::Stage::Failed,
                                 20000);
        QVERIFY2(dialog.connectionText().startsWith(QStringLiteral("Connected: Linux · 12 cores")),
                 qPrintable(dialog.connectionText()));
        QVERIFY2(dialog.fingerprintText().startsWith(QLatin1String("Accepted and added to ")) &&
                     dialog.fingerprintText().contains(sha256Fingerprint(m_keyBlob)),
                 qPrintable(dialog.fingerprintText()));
        QCOMPARE(QString::fromUtf8(readAll(knownHosts)),
                 QStringLiteral("[127.0.0.1]:2222 ssh-ed25519 %1\n").arg(m_keyBlob));
        QCOMPARE(QFileInfo(knownHosts).permissions() & (QFile::ReadOther | QFile::WriteOther),
                 QFile::Permissions());
        const QStringList args =
            QString::fromUtf8(readAll(m_dir.filePath(QStringLiteral("ssh.args"))))
                .split(QLatin1Char('\n'));
        for (const char* want :
             {"BatchMode=yes", "StrictHostKeyChecking=yes", "ControlPath=none"}) {
            QVERIFY2(args.contains(QLatin1String(want)), want);
        }
        QVERIFY(args.contains(QStringLiteral("UserKnownHostsFile=") + knownHosts));
        QCOMPARE(args.filter(QStringLiteral("ControlMaster")), QStringList());
        QCOMPARE(args.at(args.indexOf(QStringLiteral("-p")) + 1), QStringLiteral("2222"));
        QCOMPARE(args.at(args.indexOf(QStringLiteral("-l")) + 1), QStringLiteral("me"));
        // What the machine has fills the device fields.
        QCOMPARE(dialog.input().gpus, 1);
        QCOMPARE(dialog.input().gpuName, QStringLiteral("NVIDIA L4"));
        QCOMPARE(dialog.input().cores, 12);
        QVERIFY(qAbs(dialog.input().gpuMemoryGiB - 22.49) < 0.01);

        // A second test finds the key trusted: no question, straight to the login.
        QFile::remove(m_dir.filePath(QStringLiteral("ssh.args")));
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.probe()->stage(), SshHostProbe::Stage::Connected, 20000);
        QVERIFY(!dialog.acceptKeyButton()->isVisible());
        QVERIFY2(dialog.fingerprintText().contains(QLatin1String("already trusted")),
                 qPrintable(dialog.fingerprintText()));
        QCOMPARE(readAll(knownHosts).count('\n'), 1); // not added twice
    }

    void aChangedHostKeyIsNeverReplaced() {
        const QString knownHosts = m_case->filePath(QStringLiteral("known_hosts"));
        const QByteArray before =
            QStringLiteral("[127.0.0.1]:2222 ssh-ed25519 %1\n").arg(m_otherBlob).toUtf8();
        QVERIFY(writeFile(knownHosts, before));
        AddSshHostDialog dialog(m_case->filePath(QStringLiteral("ssh-hosts.json")));
        dialog.setTools(tools());
        dialog.setInput(input(knownHosts));
        dialog.show();
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog.probe() && dialog.probe()->stage() == SshHostProbe::Stage::Failed, 20000);
        QCOMPARE(dialog.probe()->trust(), HostKeyTrust::Changed);
        QVERIFY(!dialog.acceptKeyButton()->isVisible());
        QVERIFY2(dialog.fingerprintText().startsWith(QLatin1String("WARNING")),
                 qPrintable(dialog.fingerprintText()));
        QVERIFY2(
            dialog.connectionText().contains(QLatin1String("ssh-keygen -R '[127.0.0.1]:2222'")),
            qPrintable(dialog.connectionText()));
        dialog.acceptHostKey(); // not waiting for it: does nothing
        QCOMPARE(readAll(knownHosts), before);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("ssh.args"))));
    }

    void editingDropsAPendingKey() {
        const QString knownHosts = m_case->filePath(QStringLiteral("known_hosts"));
        AddSshHostDialog dialog(m_case->filePath(QStringLiteral("ssh-hosts.json")));
        dialog.setTools(tools());
        dialog.setInput(input(knownHosts));
        dialog.show();
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.acceptKeyButton()->isVisible(), 20000);
        auto* port = dialog.findChild<QSpinBox*>(QStringLiteral("sshHostPort"));
        port->setValue(2200); // the key shown belongs to another port now
        QVERIFY(!dialog.probe());
        QVERIFY(!dialog.acceptKeyButton()->isVisible());
        QVERIFY(dialog.fingerprintText().isEmpty());
        dialog.acceptHostKey();
        QVERIFY(!QFile::exists(knownHosts));
    }

    void aHostWithoutSshdSaysSo() {
        AddSshHostDialog dialog(m_case->filePath(QStringLiteral("ssh-hosts.json")));
        SshTools t = tools();
        t.keyscan = m_dir.filePath(QStringLiteral("keyscan-refused"));
        dialog.setTools(t);
        dialog.setInput(input(m_case->filePath(QStringLiteral("known_hosts"))));
        dialog.show();
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog.probe() && dialog.probe()->stage() == SshHostProbe::Stage::Failed, 20000);
        QVERIFY2(
            dialog.connectionText().contains(QLatin1String("127.0.0.1:2222 sent no host key")) &&
                dialog.connectionText().contains(QLatin1String("Connection refused")),
            qPrintable(dialog.connectionText()));
        QVERIFY(dialog.testButton()->isEnabled());
    }

    void rentDialogEmptyStateLeadsToTheForm() {
        const QString file = m_case->filePath(QStringLiteral("data/ssh-hosts.json"));
        ClusterRegistry registry;
        LocalWorkers local(&registry);
        LocalLeases leases(&local, &registry, 4);
        SshProvider ssh(&registry, nullptr);
        RentDialog dialog({&leases, &ssh}, file);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.emptyStateShown());
        QVERIFY(dialog.emptyStateAddButton()->isVisible());
        QVERIFY(!dialog.addHostButton()->isVisible()); // one button, in the empty state
        QVERIFY(dialog.leaseHintShown());
        auto* fileLine = dialog.findChild<QLabel*>(QStringLiteral("rentEmptyStateFile"));
        QVERIFY(fileLine && fileLine->text().contains(file));
        for (QLabel* l : dialog.findChildren<QLabel*>()) { // no paragraph of JSON field names
            QVERIFY2(!l->text().contains(QLatin1String("knownHostsFile")), qPrintable(l->text()));
        }
        // The local offer says how much memory this machine has.
        QCOMPARE(dialog.offers()->rowCount(), 1);
        const QString memory = dialog.offers()->index(0, OfferTableModel::Memory).data().toString();
        if (QFile::exists(QStringLiteral("/proc/meminfo"))) {
            QVERIFY2(memory.endsWith(QLatin1String("GiB RAM")), qPrintable(memory));
        }

        QTest::mouseClick(dialog.emptyStateAddButton(), Qt::LeftButton);
        AddSshHostDialog* form = dialog.addHostDialog();
        QVERIFY(form && form->isVisible());
        SshHostFormInput in;
        in.name = QStringLiteral("lab-a");
        in.address = QStringLiteral("me@10.0.0.5");
        in.pricePerHour = 0.5;
        in.knownHostsFile = m_case->filePath(QStringLiteral("data/known_hosts"));
        form->setInput(in);
        QTest::mouseClick(form->saveButton(), Qt::LeftButton);
        QTRY_VERIFY(!dialog.addHostDialog()); // closed (and deleted)
        QCOMPARE(ssh.hosts().size(), 1);
        QCOMPARE(dialog.offers()->rowCount(), 2);
        QVERIFY(!dialog.emptyStateShown());
        QVERIFY(dialog.addHostButton()->isVisible()); // beside the offers, for the next one
        QVERIFY2(dialog.status().contains(QLatin1String("lab-a")), qPrintable(dialog.status()));
        // The new host is selected: one click rents it.
        QVERIFY(dialog.rentButton()->isEnabled());
        const QModelIndexList selected = dialog.offerView()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().siblingAtColumn(OfferTableModel::Node).data().toString(),
                 QStringLiteral("lab-a"));
        const QModelIndex sshMemory = selected.first().siblingAtColumn(OfferTableModel::Memory);
        QCOMPARE(sshMemory.data().toString(), QStringLiteral("–"));
        QVERIFY(!sshMemory.data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(loadSshHosts(file)->size(), 1);
    }

    void leaseHintGoesWithTheFirstLease() {
        test::ScriptedProvider p({0.5, 1.0});
        RentDialog dialog({&p}, QString());
        dialog.show();
        QVERIFY(!dialog.emptyStateShown());            // offers of a provider that is not local
        QVERIFY(!dialog.addHostButton()->isVisible()); // no hosts file: no form
        QVERIFY(dialog.leaseHintShown());
        QVERIFY(p.rent(QStringLiteral("box-1")).has_value());
        QVERIFY(!dialog.leaseHintShown());
        QCOMPARE(dialog.leaseView()->model()->rowCount(),
                 1); // the view shows it, not only the model
    }

    void autoProvisionCancelDiscardsOkSaves() {
        QSettings().remove(QStringLiteral("autoscale"));
        test::ServedScratch served;
        QVERIFY2(served.error.isEmpty(), qPrintable(served.error));
        test::ServedFolder* folder = served.folder.get();
        test::FolderClient& server = *served.client;
        Autoscaler* scaler = folder->session->autoscaler();
        AutoscaleSettingsDialog dialog(&server.cluster, &server.connection);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* enabled = dialog.findChild<QCheckBox*>(QStringLiteral("autoscaleEnabled"));
        auto* nodes = dialog.findChild<QSpinBox*>(QStringLiteral("nodeCap"));
        QVERIFY(enabled && nodes);
        QVERIFY(!dialog.applyButton()->isEnabled()); // nothing to apply yet

        // Tick the box, then Cancel: nothing sent, and the box is unticked again.
        QTest::mouseClick(enabled, Qt::LeftButton);
        QVERIFY(enabled->isChecked());
        QVERIFY(dialog.applyButton()->isEnabled());
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
        QVERIFY(!dialog.isVisible());
        QVERIFY(!scaler->policy().enabled); // and never sent: the audit log below
        QVERIFY(!QSettings().contains(QStringLiteral("autoscale/enabled")));
        dialog.show();
        QVERIFY(!enabled->isChecked());

        // Escape discards too.
        QTest::mouseClick(enabled, Qt::LeftButton);
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(!dialog.isVisible());
        dialog.show();
        QVERIFY(!enabled->isChecked());

        // Apply sends and stays open; OK sends and closes.
        QTest::mouseClick(enabled, Qt::LeftButton);
        QTest::mouseClick(dialog.applyButton(), Qt::LeftButton);
        QVERIFY(dialog.isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(scaler->policy().enabled, 10000);
        QVERIFY(loadAutoscalePolicy().enabled);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.applyButton()->isEnabled(), 10000);
        nodes->setValue(3);
        QTest::mouseClick(dialog.okButton(), Qt::LeftButton);
        QVERIFY(!dialog.isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(scaler->policy().maxNodes, 3, 10000);
        QCOMPARE(loadAutoscalePolicy().maxNodes, 3);
        QVERIFY(loadAutoscalePolicy().enabled);

        // A policy set elsewhere (another client) shows on the next open.
        backend::v1::AutoscaleInfo other;
        other.set_enabled(true);
        other.set_max_nodes(5);
        other.set_idle_timeout_sec(300);
        server.connection.request<Result<void>>(
            [other](BackendClient& c) { return c.setAutoscale(other); }, [](Result<void>) {});
        QTRY_COMPARE_WITH_TIMEOUT(dialog.policy().maxNodes, 5, 10000);
        dialog.show();
        QCOMPARE(nodes->value(), 5);
        // Apply, OK and the other client's change reached the server; Cancel and Escape did not.
        int changes = 0;
        for (const AuditEntry& e : folder->session->store()->audit(100)) {
            changes += e.action == QLatin1String("settings");
        }
        QCOMPARE(changes, 3);
    }

    void aRefusedChangeSaysWhy() {
        test::ServedScratch served;
        QVERIFY2(served.error.isEmpty(), qPrintable(served.error));
        test::ServedFolder* folder = served.folder.get();
        test::FolderClient& server = *served.client;
        AutoscaleSettingsDialog dialog(&server.cluster, &server.connection);
        QSignalSpy said(&dialog, &AutoscaleSettingsDialog::message);
        dialog.show();
        auto* nodes = dialog.findChild<QSpinBox*>(QStringLiteral("nodeCap"));
        QVERIFY(nodes);
        nodes->setValue(4);
        folder->server.reset(); // the server goes away before the change is sent
        dialog.apply();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.status().isEmpty(), 20000);
        QVERIFY2(dialog.status().startsWith(QStringLiteral("Not changed: ")) &&
                     dialog.status().contains(folder->lock.socketPath()),
                 qPrintable(dialog.status()));
        QCOMPARE(said.count(), 1);
        // What the person typed stays, ready to apply again.
        QCOMPARE(dialog.fields().maxNodes, 4);
        QVERIFY(dialog.applyButton()->isEnabled());
    }

private:
    SshTools tools() const {
        SshTools t;
        t.keyscan = m_dir.filePath(QStringLiteral("keyscan"));
        t.ssh = m_dir.filePath(QStringLiteral("ssh"));
        return t; // ssh-keygen is the real one
    }

    static SshHostFormInput input(const QString& knownHosts) {
        SshHostFormInput in;
        in.name = QStringLiteral("box");
        in.address = QStringLiteral("me@127.0.0.1");
        in.port = 2222;
        in.knownHostsFile = knownHosts;
        return in;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<QTemporaryDir> m_case;
    QString m_keyBlob, m_otherBlob;
};

QTEST_MAIN(TstRentSetup)
#include "tst_rentsetup.moc"
