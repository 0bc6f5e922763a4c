// Issue 18's acceptance for example (a) from the GUI: two SSH test hosts (network namespaces
// with their own sshd, tests/support/test-hosts.sh) are rented with one click in the Rent
// dialog; the PyTorch DDP example, from a folder that is on neither host, is launched from the
// Jobs panel under the mpirun and the torchrun launcher. Each rank reports the variables it saw
// (checked), the code arrives in each host's bundle cache through the workers' own RPCs, loss and
// test accuracy reach the chart and the history (≥ 0.85 after one epoch), and a second launch of
// the unchanged code sends no bytes.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/metricschart.h"
#include "app/rent/offertablemodel.h"
#include "app/rent/rentdialog.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/testhosts.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {
const char* kPython = "/usr/bin/python3"; // Debian's, with python3-torch

bool hasTorch() {
    QProcess p;
    p.start(kPython, {"-c", "import torch.distributed as d; assert d.is_gloo_available()"});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

/// True for a folder in an SSH worker's bundle cache: its lease folder's work dir (the
/// --work-dir SshRent gives the worker), then bundles/, then the SHA-256.
bool isCachedBundle(const QString& path) {
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts.size() >= 3 && parts.at(parts.size() - 2) == QLatin1String("bundles") &&
           parts.at(parts.size() - 3) == QLatin1String("work");
}

/// Code bundles in the workers' caches under `remote`.
QStringList bundlesUnder(const QString& remote) {
    QStringList out;
    QDirIterator it(remote, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (isCachedBundle(path)) {
            out << QDir(remote).relativeFilePath(path);
        }
    }
    out.sort();
    return out;
}
} // namespace

class TestUserProgramSsh : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    /// A spec of the DDP example in `my-training` with `launcher` and extra arguments.
    QString writeSpec(const QString& name, const QString& launcher, const QStringList& extra) {
        QJsonArray command{kPython, "ddp_fashion_mnist.py", "--log-every", "100", "--report-env"};
        for (const QString& a : extra) {
            command.append(a);
        }
        const QJsonObject spec{{"name", name},
                               {"layout", QJsonObject{{"dataParallel", 2}}},
                               {"model", QJsonObject{{"command", command},
                                                     {"launcher", launcher},
                                                     {"workdir", "my-training"}}}};
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(spec).toJson()) < 0) {
            return {};
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
        for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-rank"}) {
            if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
                QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(program, bin)));
            }
        }
        if (!QFileInfo::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR))) {
            QSKIP("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
        }
        if (!hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_BIN_DIR", bin.toLocal8Bit());
        qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        // The user's folder, on this machine only.
        const QString code = m_dir.filePath(QStringLiteral("my-training"));
        QVERIFY(QDir().mkpath(code));
        QVERIFY(QFile::copy(
            QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/pytorch/ddp_fashion_mnist.py"),
            code + QStringLiteral("/ddp_fashion_mnist.py")));
    }

    void ddpExampleOnTwoSshHostsFromTheApp() {
        test::TestHosts hosts(2);
        if (hosts.missing()) {
            QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
        }
        QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
        const QString remote = m_dir.filePath(QStringLiteral("remote"));
        const QList<SshHost> config = hosts.sshHosts(QStringLiteral("gpu-box-"), remote, 0.5);
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("data"))));
        QVERIFY(saveSshHosts(BackendSession::sshHostsPath(), config).has_value());

        BackendSession session;
        QVERIFY2(session.provisionError().isEmpty(), qPrintable(session.provisionError()));
        MainWindow window(&session);
        window.resize(1300, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.rentMachinesAction()->trigger();
        RentDialog* dialog = window.rentDialog();
        QVERIFY(dialog->isVisible());
        QTableView* offers = dialog->offerView();
        offers->clearSelection();
        for (int r = 0; r < offers->model()->rowCount(); ++r) {
            if (offers->model()->index(r, OfferTableModel::Provider).data() == "ssh") {
                offers->selectionModel()->select(offers->model()->index(r, 0),
                                                 QItemSelectionModel::Select |
                                                     QItemSelectionModel::Rows);
            }
        }
        QTest::mouseClick(dialog->rentButton(), Qt::LeftButton);
        ClusterTableModel* nodes = window.clusterPanel()->model();
        QTRY_VERIFY_WITH_TIMEOUT(nodes->readyCount() == 2 || dialog->status().contains("failed"),
                                 120000);
        QVERIFY2(nodes->readyCount() == 2, qPrintable(dialog->status()));
        dialog->hide();
        QVERIFY2(bundlesUnder(remote).isEmpty(), qPrintable(bundlesUnder(remote).join(' ')));

        auto* launchButton = window.findChild<QPushButton*>(QStringLiteral("launchButton"));
        QVERIFY(launchButton);
        JobController* controller = session.controller();
        struct Launch {
            QString name, launcher;
            QStringList extra;
            bool trains; // one full epoch (accuracy checked) or a few steps
        };
        const QList<Launch> launches = {
            {"ddp-mpirun", "mpirun", {"--epochs", "1"}, true},
            {"ddp-mpirun-again", "mpirun", {"--epochs", "1", "--max-steps", "20"}, false},
            {"ddp-torchrun", "torchrun", {"--epochs", "1"}, true},
        };
        QString firstBundles;
        for (const Launch& l : launches) {
            const QString spec = writeSpec(l.name, l.launcher, l.extra);
            QVERIFY(!spec.isEmpty());
            QVERIFY2(window.jobPanel()->addSpecFile(spec),
                     qPrintable(window.jobPanel()->messageText()));
            const quint64 sentBefore = controller->workdirBytesSent();
            QTRY_VERIFY2(launchButton->isEnabled(), qPrintable(window.jobPanel()->messageText()));
            QTest::mouseClick(launchButton, Qt::LeftButton);
            QString launchError;
            const QString jobId = test::launchedJob(*window.jobPanel(), &launchError);
            QVERIFY2(!jobId.isEmpty(), qPrintable(launchError));
            QTRY_VERIFY_WITH_TIMEOUT(isTerminal(window.jobPanel()->currentJobState()), 420000);
            QVERIFY2(window.jobPanel()->currentJobState() == JobState::Succeeded,
                     qPrintable(l.name + ": " + window.jobPanel()->messageText()));
            const quint64 sent = controller->workdirBytesSent() - sentBefore;
            qInfo("%s: %llu bytes of code sent", qPrintable(l.name), sent);
            if (firstBundles.isEmpty()) {
                // One bundle in each host's cache, which was empty before.
                const QStringList bundles = bundlesUnder(remote);
                QCOMPARE(bundles.size(), 2);
                firstBundles = bundles.join(' ');
                QVERIFY(sent > 0);
            } else {
                QCOMPARE(sent, quint64(0)); // unchanged code: nothing copied
                QCOMPARE(bundlesUnder(remote).join(' '), firstBundles);
            }

            // What each rank saw, from the history (each line kept with its rank).
            QMap<int, QJsonObject> seen;
            for (const LogRecord& line : session.store()->logLines(jobId)) {
                if (line.text.startsWith(QLatin1String("tessera-env "))) {
                    const QJsonObject o =
                        QJsonDocument::fromJson(line.text.mid(12).toUtf8()).object();
                    QCOMPARE(line.rank, o["RANK"].toString().toInt());
                    seen.insert(line.rank, o);
                }
            }
            QCOMPARE(seen.keys(), (QList<int>{0, 1}));
            for (auto it = seen.cbegin(); it != seen.cend(); ++it) {
                const QJsonObject& o = it.value();
                const QString what =
                    l.name + ": " + QJsonDocument(o).toJson(QJsonDocument::Compact);
                QVERIFY2(o["WORLD_SIZE"].toString() == "2", qPrintable(what));
                QVERIFY2(o["GROUP_RANK"].toString().toInt() == it.key(), qPrintable(what));
                QVERIFY2(o["LOCAL_RANK"].toString() == "0", qPrintable(what));
                QVERIFY2(hosts.addresses().contains(o["MASTER_ADDR"].toString()), qPrintable(what));
                QVERIFY2(o["TESSERA_JOB_ID"].toString() == jobId, qPrintable(what));
                QVERIFY2(o["cwd"].toString().startsWith(remote + QLatin1Char('/')) &&
                             isCachedBundle(o["cwd"].toString()),
                         qPrintable(what));
            }
            if (!l.trains) {
                continue;
            }
            // Loss and accuracy on the chart and in the history.
            QVERIFY(window.chart()->lossPointCount() >= 3);
            QVERIFY(window.chart()->accuracyPointCount() >= 1);
            const JobRecord job = session.store()->job(jobId);
            qInfo("%s: test accuracy %.4f, last loss %.4f", qPrintable(l.name), job.testAccuracy,
                  job.lastLoss);
            QVERIFY2(job.testAccuracy >= 0.85, qPrintable(QString::number(job.testAccuracy)));
        }

        dialog->show();
        dialog->leaseView()->selectAll();
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 0, 30000);
    }
};

QTEST_MAIN(TestUserProgramSsh)
#include "tst_userprogramssh.moc"
