// model.workdir shipping: .tesseraignore rules, a reproducible pack with a size cap (unit), and
// on a real local cluster of two workers: the code reaches both, becomes the ranks' working
// directory and is copied once (a second launch of unchanged code sends no bytes).
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/jobs/workdirpacker.h"
#include "backend/jobs/workdirscan.h"
#include "tests/backend/testcluster.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

void writeFile(const QString& path, const QByteArray& data) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

QStringList tarMembers(const QString& tar) {
    QProcess p;
    p.start(QStringLiteral("tar"), {QStringLiteral("-tf"), tar});
    p.waitForFinished();
    QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    out.sort();
    return out;
}

const char* kTrain = R"(import os, helper, tessera
print("cwd=" + os.getcwd(), flush=True)
print("helper=" + helper.WORD, flush=True)
print("big=" + str(os.path.exists("data/big.bin")), flush=True)
tessera.log(1, loss=0.5)
)";

} // namespace

class TestWorkdir : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    std::unique_ptr<ClusterRegistry> m_registry;
    std::unique_ptr<LocalWorkers> m_provider;

private Q_SLOTS:
    void ignoreRules_data() {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("isDir");
        QTest::addColumn<bool>("ignored");
        QTest::newRow("git always") << ""
                                    << ".git" << true << true;
        QTest::newRow("pycache at depth") << ""
                                          << "a/b/__pycache__" << true << true;
        QTest::newRow("plain file kept") << ""
                                         << "train.py" << false << false;
        QTest::newRow("name at any depth") << "*.ckpt"
                                           << "runs/a/x.ckpt" << false << true;
        QTest::newRow("dir only: file kept") << "data/"
                                             << "data" << false << false;
        QTest::newRow("dir only: dir gone") << "data/"
                                            << "data" << true << true;
        QTest::newRow("anchored") << "/out"
                                  << "sub/out" << true << false;
        QTest::newRow("anchored at root") << "/out"
                                          << "out" << true << true;
        QTest::newRow("inner slash anchors") << "a/b.txt"
                                             << "x/a/b.txt" << false << false;
        QTest::newRow("double star") << "logs/**/*.txt"
                                     << "logs/1/2/x.txt" << false << true;
        QTest::newRow("double star, no folder") << "logs/**/*.txt"
                                                << "logs/x.txt" << false << true;
        QTest::newRow("negation") << "*.bin\n!keep.bin"
                                  << "keep.bin" << false << false;
        QTest::newRow("comment") << "# *.py"
                                 << "t.py" << false << false;
        QTest::newRow("question mark") << "run?.log"
                                       << "run1.log" << false << true;
        QTest::newRow("class") << "run[0-9].log"
                               << "runx.log" << false << false;
    }
    void ignoreRules() {
        QFETCH(QString, rules);
        QFETCH(QString, path);
        QFETCH(bool, isDir);
        QFETCH(bool, ignored);
        QCOMPARE(IgnoreRules(rules).ignores(path, isDir), ignored);
    }

    void packIsReproducibleAndHonoursIgnore() {
        QTemporaryDir src, out;
        writeFile(src.filePath("train.py"), "print(1)\n");
        writeFile(src.filePath("pkg/mod.py"), "X = 1\n");
        writeFile(src.filePath("data/big.bin"), QByteArray(1000, 'x'));
        writeFile(src.filePath(".tesseraignore"), "data/\n");
        writeFile(src.filePath("__pycache__/t.pyc"), "junk");
        auto a = packWorkdir(src.path(), 1 << 20, out.path());
        QVERIFY2(a, a ? "" : a.error().message.c_str());
        QCOMPARE(tarMembers(a->tarPath), (QStringList{".tesseraignore", "pkg/mod.py", "train.py"}));
        QCOMPARE(a->files, 3);
        // A newer mtime (same content) must not change the bundle.
        {
            QFile f(src.filePath("train.py"));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(3600),
                                  QFileDevice::FileModificationTime));
        }
        auto b = packWorkdir(src.path(), 1 << 20, out.path());
        QVERIFY(b);
        QCOMPARE(b->sha256, a->sha256);
        writeFile(src.filePath("train.py"), "print(2)\n");
        auto c = packWorkdir(src.path(), 1 << 20, out.path());
        QVERIFY(c);
        QVERIFY(c->sha256 != a->sha256);
        QCOMPARE(a->sha256.size(), 64);
    }

    void overTheCapSaysWhatToDo() {
        QTemporaryDir src, out;
        writeFile(src.filePath("weights.bin"), QByteArray(300000, 'w'));
        writeFile(src.filePath("train.py"), "print(1)\n");
        auto r = packWorkdir(src.path(), 100000, out.path());
        QVERIFY(!r);
        QCOMPARE(int(r.error().code), int(ErrorCode::InvalidArgument));
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains("weights.bin") && msg.contains(".tesseraignore"), qPrintable(msg));
        auto missing = packWorkdir(src.filePath("nope"), 100000, out.path());
        QVERIFY(!missing);
        QVERIFY(QString::fromStdString(missing.error().message).contains("is not a folder"));
    }

    // Symbolic links (issue 45): one that stays inside ships as a link; one that leaves the
    // workdir, by its own target or through another link, or that loops, is refused by name.
    void linksInsideShipAsLinks() {
        QTemporaryDir src, out;
        writeFile(src.filePath("train.py"), "print(1)\n");
        writeFile(src.filePath("conf/base.yaml"), "a: 1\n");
        QVERIFY(QFile::link("conf/base.yaml", src.filePath("config.yaml")));
        QVERIFY(QFile::link("../train.py", src.filePath("conf/train.py")));
        QVERIFY(QFile::link("not-written-yet.log", src.filePath("latest.log"))); // dangling
        auto r = scanWorkdir(src.path(), 1 << 20);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        int links = 0;
        for (const WorkdirEntry& e : *r) {
            links += e.link ? 1 : 0;
        }
        QCOMPARE(links, 3);
        auto packed = packWorkdir(src.path(), 1 << 20, out.path());
        QVERIFY2(packed, packed ? "" : packed.error().message.c_str());
        QCOMPARE(packed->files, 5);
    }

    void linksLeavingAreRefused_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("says");
        QTest::newRow("climbing out") << "../../../../../../../etc/hostname"
                                      << "'deep/host' → '../../../../../../../etc/hostname' "
                                         "points outside it";
        QTest::newRow("absolute") << "/etc/hostname"
                                  << "'deep/host' → '/etc/hostname' points outside it";
        QTest::newRow("one level up") << "../../x"
                                      << "points outside it";
        QTest::newRow("through another link") << "../up/hostname"
                                              << "leads outside it";
        QTest::newRow("loop") << "host"
                              << "is a loop of links";
    }
    void linksLeavingAreRefused() {
        QFETCH(QString, target);
        QFETCH(QString, says);
        QTemporaryDir src, out;
        writeFile(src.filePath("train.py"), "print(1)\n");
        QVERIFY(QDir(src.path()).mkpath("deep"));
        // "up" is itself inside the workdir but leads out: ignored, so only "deep/host" counts.
        QVERIFY(QFile::link("/etc", src.filePath("up")));
        writeFile(src.filePath(".tesseraignore"), "/up\n");
        QVERIFY(QFile::link(target, src.filePath("deep/host")));
        auto r = scanWorkdir(src.path(), 1 << 20);
        QVERIFY(!r);
        QCOMPARE(int(r.error().code), int(ErrorCode::InvalidArgument));
        const QString m = QString::fromStdString(r.error().message);
        QVERIFY2(m.contains(says) && m.contains(src.path()), qPrintable(m));
        QVERIFY2(!packWorkdir(src.path(), 1 << 20, out.path()), "packed anyway");
        QVERIFY(QDir(out.path()).isEmpty());
    }

    // model.workdirFollowLinks: links ship as what they lead to, also outside the workdir (a
    // data folder kept elsewhere); the same links are refused without it.
    void linksAreFollowedWhenTheSpecAsks() {
        QTemporaryDir src, elsewhere, out;
        writeFile(src.filePath("train.py"), "print(1)\n");
        writeFile(elsewhere.filePath("vocab.txt"), "a b c\n");
        writeFile(elsewhere.filePath("sub/x.bin"), QByteArray(1000, 'x'));
        QVERIFY(QFile::link(elsewhere.path(), src.filePath("data")));
        QVERIFY(QFile::link(elsewhere.filePath("vocab.txt"), src.filePath("vocab.txt")));
        v1::JobSpec spec;
        spec.mutable_model()->set_workdir(src.path().toStdString());
        auto refused = checkWorkdir(spec);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error().message).contains("points outside it"),
                 refused.error().message.c_str());
        spec.mutable_model()->set_workdir_follow_links(true);
        auto checked = checkWorkdir(spec);
        QVERIFY2(checked, checked ? "" : checked.error().message.c_str());
        auto r = scanWorkdir(src.path(), 1 << 20, true);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        quint64 bytes = 0;
        for (const WorkdirEntry& e : *r) {
            QVERIFY2(!e.link, qPrintable(e.path));
            bytes += e.size;
        }
        QCOMPARE(bytes, quint64(9 + 6 + 6 + 1000)); // train.py, vocab.txt twice, x.bin
        auto packed = packWorkdir(src.path(), 1 << 20, out.path(), true);
        QVERIFY2(packed, packed ? "" : packed.error().message.c_str());
        QCOMPARE(tarMembers(packed->tarPath),
                 (QStringList{"data/sub/x.bin", "data/vocab.txt", "train.py", "vocab.txt"}));
        QProcess verbose; // regular files ('-'), no link ('l') left in the bundle
        verbose.start(QStringLiteral("tar"), {QStringLiteral("-tvf"), packed->tarPath});
        QVERIFY(verbose.waitForFinished());
        for (const QByteArray& line : verbose.readAllStandardOutput().split('\n')) {
            QVERIFY2(line.isEmpty() || line.startsWith('-'), line.constData());
        }
        // Its size counts against the limit like any file's.
        auto big = scanWorkdir(src.path(), 1000, true);
        QVERIFY(!big);
        QVERIFY2(QString::fromStdString(big.error().message).contains("data/sub/x.bin"),
                 big.error().message.c_str());
    }

    void followedLinksThatLoopOrDangleAreRefused_data() {
        QTest::addColumn<QString>("target"); // "@" is the workdir's parent, "%" the other folder
        QTest::addColumn<QString>("says");
        QTest::newRow("to a folder above") << "@"
                                           << "a folder that holds the link itself";
        QTest::newRow("to itself") << "deep/self"
                                   << "is a loop of links";
        QTest::newRow("dangling") << "deep/missing"
                                  << "leads to nothing";
        QTest::newRow("round two folders outside") << "%/x"
                                                   << "a folder that holds the link";
    }
    void followedLinksThatLoopOrDangleAreRefused() {
        QFETCH(QString, target);
        QFETCH(QString, says);
        QTemporaryDir parent, other;
        const QString src = parent.filePath("code");
        writeFile(src + "/train.py", "print(1)\n");
        QVERIFY(QDir(src).mkpath("deep"));
        // other/x/to-y → other/y, other/y/to-x → other/x: no link loops, but the walk would.
        QVERIFY(QDir(other.path()).mkpath("x") && QDir(other.path()).mkpath("y"));
        QVERIFY(QFile::link(other.filePath("y"), other.filePath("x/to-y")));
        QVERIFY(QFile::link(other.filePath("x"), other.filePath("y/to-x")));
        QString to = target;
        to.replace('@', parent.path()).replace('%', other.path());
        if (!to.startsWith('/')) {
            to = src + '/' + to;
        }
        QVERIFY(QFile::link(to, src + "/deep/self"));
        auto r = scanWorkdir(src, 1 << 20, true);
        QVERIFY(!r);
        QCOMPARE(int(r.error().code), int(ErrorCode::InvalidArgument));
        const QString m = QString::fromStdString(r.error().message);
        QVERIFY2(m.contains(says) && m.contains("deep/self"), qPrintable(m));
    }

    void theWholeFileSystemIsRefusedAtOnce() {
        QElapsedTimer t;
        t.start();
        auto r = scanWorkdir("/", quint64(256) << 20);
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().message).contains("is the whole file system"),
                 r.error().message.c_str());
        // A big folder stops at its limit rather than being read whole.
        auto big = scanWorkdir("/usr", 1 << 20);
        QVERIFY(!big);
        QVERIFY2(QString::fromStdString(big.error().message).contains("more than the 1.0 MiB"),
                 big.error().message.c_str());
        qInfo("refused / and /usr in %lld ms", qint64(t.elapsed()));
    }

    void shippedOnceRunsInIt() {
        const QString missing = test::missingPrograms();
        if (!missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        registerBackendMetaTypes();
        test::useBuildAndData(m_data.path());
        m_registry = std::make_unique<ClusterRegistry>();
        m_provider = std::make_unique<LocalWorkers>(m_registry.get());
        const QString error = test::rentAndWait(*m_provider, *m_registry, 2);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        QTemporaryDir src;
        writeFile(src.filePath("train.py"), kTrain);
        writeFile(src.filePath("helper.py"), "WORD = 'shipped'\n");
        writeFile(src.filePath("data/big.bin"), QByteArray(100000, 'b'));
        writeFile(src.filePath(".tesseraignore"), "data/\n");
        v1::JobSpec spec;
        spec.set_name("workdir test");
        spec.mutable_model()->add_command("/usr/bin/python3");
        spec.mutable_model()->add_command("train.py");
        spec.mutable_model()->set_workdir(src.path().toStdString());
        spec.mutable_layout()->set_data_parallel(2);

        JobController controller(m_registry.get(), nullptr);
        for (int launch = 1; launch <= 2; ++launch) {
            QSignalSpy states(&controller, &JobController::jobStateChanged);
            QSignalSpy logs(&controller, &JobController::logLine);
            const quint64 before = controller.workdirBytesSent();
            Result<QString> id = controller.submit(spec);
            QVERIFY2(id, id ? "" : id.error().message.c_str());
            QVERIFY(QTest::qWaitFor([&] { return isTerminal(controller.state(*id)); }, 60000));
            QStringList lines;
            for (const auto& l : logs) {
                lines << l.at(2).toString();
            }
            QVERIFY2(controller.state(*id) == JobState::Succeeded,
                     qPrintable(lines.join('\n') + "\n" + states.last().at(2).toString()));
            const quint64 sent = controller.workdirBytesSent() - before;
            qInfo("launch %d: %llu bytes of code sent; %s", launch, sent,
                  qPrintable(lines.filter("code ").join(' ')));
            if (launch == 1) {
                QVERIFY(sent > 0);
                QVERIFY(!lines.filter(QRegularExpression("shipped to local-\\d+, local-\\d+$"))
                             .isEmpty());
            } else {
                QCOMPARE(sent, quint64(0));
                QVERIFY(!lines.filter("already had it").isEmpty());
            }
            // Both ranks ran in their own worker's copy of the bundle, without the ignored data.
            const QStringList cwds = lines.filter("cwd=");
            QCOMPARE(cwds.size(), 2);
            QVERIFY(cwds[0] != cwds[1]);
            for (const QString& c : cwds) {
                QVERIFY2(QRegularExpression("/bundles/[0-9a-f]{64}$").match(c).hasMatch(),
                         qPrintable(c));
            }
            QCOMPARE(lines.filter("helper=shipped").size(), 2);
            QCOMPARE(lines.filter("big=False").size(), 2);
        }
    }

    void cleanupTestCase() {
        if (m_provider) {
            QSignalSpy released(m_provider.get(), &LocalWorkers::stopped);
            m_provider->stopAll();
            QVERIFY(QTest::qWaitFor([&] { return released.count() > 0; }, 10000));
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkdir)
#include "tst_workdir.moc"
