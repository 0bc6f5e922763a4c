// tessera-ctl refuses bad input with a clear message and its documented exit code:
// 2 for a spec with an unknown field, a missing dataset path, zero ranks, an unreadable spec, more
// ranks than a local cluster can run, a token the worker refuses; 3 for a worker that does not
// answer. A history database that cannot be opened is reported once.
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <utility>

class TestCtlBadInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refused_data();
    void refused();
    void nodesUnreachable();
    void tokenRefused();
    void storeErrorPrintedOnce();

private:
    QString m_ctl;
    QTemporaryDir m_dir;
};

namespace {

const char* const kGoodTraining =
    "\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":0.05}";

} // namespace

void TestCtlBadInput::initTestCase() {
    m_ctl = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl");
    if (!QFileInfo(m_ctl).isExecutable()) {
        QSKIP("tessera-ctl is not built");
    }
    QVERIFY(m_dir.isValid());
    // A workdir whose link climbs out of it (the "workdir link climbing out" row).
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("leaky")));
    QFile train(m_dir.filePath(QStringLiteral("leaky/train.py")));
    QVERIFY(train.open(QIODevice::WriteOnly) && train.write("print(1)\n") > 0);
    train.close();
    QVERIFY(QFile::link(QStringLiteral("../../../../../../../etc/hostname"),
                        m_dir.filePath(QStringLiteral("leaky/host"))));
    // One over a 1 MiB limit (the "workdir over its limit" row).
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("big")));
    QFile weights(m_dir.filePath(QStringLiteral("big/weights.bin")));
    QVERIFY(weights.open(QIODevice::WriteOnly) && weights.resize(2 << 20));
}

void TestCtlBadInput::refused_data() {
    QTest::addColumn<QString>("spec");      // file content; empty = no file at all
    QTest::addColumn<QStringList>("extra"); // extra arguments
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("mentions");
    const QString model = QStringLiteral("\"model\":{\"family\":\"mlp\",\"hidden\":[16]}");
    const QString training = QString::fromLatin1(kGoodTraining);
    const QString good = QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1},\"dataset\":{"
                                        "\"name\":\"fashion-mnist\",\"path\":\"%3\"}}")
                             .arg(model, training, QStringLiteral(TESSERA_FASHION_MNIST_DIR));
    QTest::newRow("unknown field")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1},\"learning_speed\":3}")
               .arg(model, training)
        << QStringList() << 2 << QStringLiteral("learning_speed");
    QTest::newRow("missing dataset path")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1},\"dataset\":{\"name\":"
                          "\"fashion-mnist\",\"path\":\"/no/such/fashion\"}}")
               .arg(model, training)
        << QStringList() << 2 << QStringLiteral("/no/such/fashion");
    QTest::newRow("zero ranks")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":0}}").arg(model, training)
        << QStringList() << 2 << QStringLiteral("rank");
    QTest::newRow("unreadable spec")
        << QString() << QStringList() << 2 << QStringLiteral("missing.json");
    QTest::newRow("worker does not answer")
        << good
        << QStringList{QStringLiteral("--workers"), QStringLiteral("127.0.0.1:1"),
                       QStringLiteral("--token-file"), QStringLiteral("TOKEN")}
        << 3 << QStringLiteral("127.0.0.1:1");
    QTest::newRow("missing token file")
        << good
        << QStringList{QStringLiteral("--workers"), QStringLiteral("127.0.0.1:1"),
                       QStringLiteral("--token-file"), QStringLiteral("/no/such/token")}
        << 2 << QStringLiteral("/no/such/token");
    QTest::newRow("token file with two lines")
        << good
        << QStringList{QStringLiteral("--workers"), QStringLiteral("127.0.0.1:1"),
                       QStringLiteral("--token-file"), QStringLiteral("BADTOKEN")}
        << 2 << QStringLiteral("bad-token");
    QTest::newRow("too many local ranks")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64000,"
                          "\"learningRate\":0.05},\"layout\":{\"dataParallel\":1000},"
                          "\"dataset\":{\"name\":\"fashion-mnist\",\"path\":\"%2\"}}")
               .arg(model, QStringLiteral(TESSERA_FASHION_MNIST_DIR))
        << QStringList() << 2 << QStringLiteral("the spec needs 1000 ranks");
    QTest::newRow("zero probe rounds")
        << good << QStringList{QStringLiteral("--rounds"), QStringLiteral("0")} << 2
        << QStringLiteral("--rounds needs a number of probe rounds");
    QTest::newRow("unknown flag") << good << QStringList{QStringLiteral("--bogus-flag")} << 2
                                  << QStringLiteral("bogus-flag");
    // Hostile specs (issue 45) are bad input, refused before a local cluster is rented.
    const auto program = [](const QString& more) {
        return QStringLiteral("{\"model\":{\"command\":[\"/usr/bin/python3\",\"train.py\"]%1},"
                              "\"layout\":{\"dataParallel\":1}}")
            .arg(more);
    };
    QTest::newRow("NUL in the command")
        << QStringLiteral("{\"model\":{\"command\":[\"/usr/bin/python3\\u0000x\",\"argv.py\","
                          "\"a\\u0000b\"]},\"layout\":{\"dataParallel\":1}}")
        << QStringList() << 2 << QStringLiteral("model.command[0] holds a control character");
    QTest::newRow("negative workdir limit")
        << program(QStringLiteral(",\"workdir\":\"code\",\"workdirMaxMib\":-1")) << QStringList()
        << 2 << QStringLiteral("model.workdirMaxMib is -1");
    QTest::newRow("duplicate key")
        << QStringLiteral("{\"name\":\"a\",\n\"name\":\"b\"}") << QStringList() << 2
        << QStringLiteral("the field \"name\" appears twice in one object (first on line 1)");
    QTest::newRow("missing workdir")
        << program(QStringLiteral(",\"workdir\":\"no-such-code\"")) << QStringList() << 2
        << QStringLiteral("no-such-code' is not a folder on this machine");
    QTest::newRow("workdir /") << program(QStringLiteral(",\"workdir\":\"/\"")) << QStringList()
                               << 2 << QStringLiteral("is the whole file system");
    QTest::newRow("workdir ../..")
        << program(QStringLiteral(",\"workdir\":\"../../../../../../..\"")) << QStringList() << 2
        << QStringLiteral("is the whole file system");
    QTest::newRow("workdir over its limit")
        << program(QStringLiteral(",\"workdir\":\"big\",\"workdirMaxMib\":1")) << QStringList() << 2
        << QStringLiteral("more than the 1.0 MiB allowed");
    QTest::newRow("workdir link climbing out")
        << program(QStringLiteral(",\"workdir\":\"leaky\"")) << QStringList() << 2
        << QStringLiteral("the symbolic link 'host' → '../../../../../../../etc/hostname' points "
                          "outside it");
}

void TestCtlBadInput::refused() {
    QFETCH(QString, spec);
    QFETCH(QStringList, extra);
    QFETCH(int, exitCode);
    QFETCH(QString, mentions);
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    if ((tag == QLatin1String("worker does not answer") ||
         tag == QLatin1String("too many local ranks")) &&
        !QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed (the spec must be valid to reach workers)");
    }
    const QString specPath = m_dir.filePath(spec.isEmpty() ? QStringLiteral("missing.json")
                                                           : QStringLiteral("spec.json"));
    if (!spec.isEmpty()) {
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(spec.toUtf8());
    }
    const QString tokenPath = m_dir.filePath(QStringLiteral("token"));
    {
        QFile t(tokenPath);
        QVERIFY(t.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(t.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        t.write("secret-9c4e1b7a3f5d2086\n");
    }
    const QString badTokenPath = m_dir.filePath(QStringLiteral("bad-token"));
    {
        QFile t(badTokenPath);
        QVERIFY(t.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(t.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        t.write("first line\nsecond line\n"); // gRPC cannot carry this in a header
    }
    extra.replaceInStrings(QStringLiteral("BADTOKEN"), badTokenPath);
    extra.replaceInStrings(QStringLiteral("TOKEN"), tokenPath);
    QProcess ctl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
    ctl.setProcessEnvironment(env);
    ctl.start(m_ctl, QStringList{QStringLiteral("run"), specPath} + extra);
    QVERIFY(ctl.waitForFinished(30000));
    const QString err = QString::fromUtf8(ctl.readAllStandardError());
    QCOMPARE(ctl.exitStatus(), QProcess::NormalExit);
    QVERIFY2(ctl.exitCode() == exitCode,
             qPrintable(QStringLiteral("exit code %1, stderr: %2").arg(ctl.exitCode()).arg(err)));
    QVERIFY2(err.contains(mentions), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("error")), qPrintable(err));
}

void TestCtlBadInput::nodesUnreachable() {
    const QString tokenPath = m_dir.filePath(QStringLiteral("token"));
    QFile t(tokenPath);
    QVERIFY(t.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QVERIFY(t.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    t.write("secret-9c4e1b7a3f5d2086\n");
    t.close();
    QProcess ctl;
    ctl.start(m_ctl, {QStringLiteral("nodes"), QStringLiteral("--workers"),
                      QStringLiteral("127.0.0.1:1"), QStringLiteral("--token-file"), tokenPath});
    QVERIFY(ctl.waitForFinished(30000));
    const QString out = QString::fromUtf8(ctl.readAllStandardOutput());
    const QString err = QString::fromUtf8(ctl.readAllStandardError());
    QCOMPARE(ctl.exitCode(), 3);
    QVERIFY2(out.contains(QStringLiteral("unreachable")) &&
                 out.contains(QStringLiteral("127.0.0.1:1")),
             qPrintable(out));
    QVERIFY2(err.contains(QStringLiteral("do not answer")), qPrintable(err));
}

void TestCtlBadInput::tokenRefused() {
    const QString worker = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-worker");
    if (!QFileInfo(worker).isExecutable()) {
        QSKIP("tessera-worker is not built");
    }
    const QString goodToken = m_dir.filePath(QStringLiteral("worker-token"));
    const QString wrongToken = m_dir.filePath(QStringLiteral("wrong-token"));
    for (const auto& [path, text] : {std::pair{goodToken, "right-secret-9c4e1b7a3f5d2086\n"},
                                     std::pair{wrongToken, "wrong-secret-9c4e1b7a3f5d2086\n"}}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.write(text);
    }
    QDir(m_dir.path()).mkpath(QStringLiteral("worker-work"));
    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    daemon.start(worker, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                          QStringLiteral("--token-file"), goodToken, QStringLiteral("--work-dir"),
                          m_dir.filePath(QStringLiteral("worker-work")), QStringLiteral("--slots"),
                          QStringLiteral("1"), QStringLiteral("--name"), QStringLiteral("w1")});
    QString address;
    QVERIFY(QTest::qWaitFor(
        [&] {
            while (daemon.canReadLine()) {
                const QString line = QString::fromUtf8(daemon.readLine()).trimmed();
                const qsizetype at = line.indexOf(QStringLiteral("listening on "));
                if (at >= 0) {
                    address = line.mid(at + 13).section(QLatin1Char(' '), 0, 0);
                }
            }
            return !address.isEmpty() || daemon.state() == QProcess::NotRunning;
        },
        20000));
    QVERIFY2(!address.isEmpty(), "tessera-worker printed no `listening on` line");

    // A spec that needs no dataset: the command is never run, the token is refused first.
    const QString specPath = m_dir.filePath(QStringLiteral("command-spec.json"));
    {
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"model\":{\"command\":[\"/bin/true\"]},\"layout\":{\"dataParallel\":1}}");
    }
    for (const QStringList& command :
         {QStringList{QStringLiteral("nodes")}, QStringList{QStringLiteral("run"), specPath}}) {
        QProcess ctl;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
        ctl.setProcessEnvironment(env);
        ctl.start(m_ctl, command + QStringList{QStringLiteral("--workers"), address,
                                               QStringLiteral("--token-file"), wrongToken});
        QVERIFY(ctl.waitForFinished(30000));
        const QString err = QString::fromUtf8(ctl.readAllStandardError());
        QVERIFY2(ctl.exitCode() == 2, qPrintable(QStringLiteral("%1: exit code %2, stderr: %3")
                                                     .arg(command.first())
                                                     .arg(ctl.exitCode())
                                                     .arg(err)));
        QVERIFY2(err.contains(wrongToken) && err.contains(QStringLiteral("refused the token")),
                 qPrintable(err));
    }
    daemon.terminate();
    daemon.waitForFinished(5000);
}

void TestCtlBadInput::storeErrorPrintedOnce() {
    // A data folder that is a plain file: the history database cannot be opened.
    const QString notAFolder = m_dir.filePath(QStringLiteral("plain-file"));
    {
        QFile f(notAFolder);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    }
    QProcess ctl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), notAFolder);
    ctl.setProcessEnvironment(env);
    ctl.start(m_ctl, {QStringLiteral("jobs")});
    QVERIFY(ctl.waitForFinished(30000));
    const QString err = QString::fromUtf8(ctl.readAllStandardError());
    QCOMPARE(ctl.exitCode(), 2);
    QVERIFY2(err.count(QStringLiteral("cannot open the history database")) == 1, qPrintable(err));
}

QTEST_GUILESS_MAIN(TestCtlBadInput)
#include "tst_ctlbadinput.moc"
