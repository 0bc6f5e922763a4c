// `tessera-ctl run` on a local cluster whose workers' folders are on a full disk (issue 45):
// every point the program prints reaches the history, and the run's output, the job's log and
// its end state name the full disk. The local workers live in TESSERA_DATA_DIR/local-cluster,
// which the test makes a small tmpfs (skipped without the right to mount one).
#include "backend/history/metricstore.h"
#include "tests/support/ctlprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <set>

using namespace tessera;

class TestCtlDiskFull : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mount;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    /// Fills the tmpfs until `leaveKiB` KiB are free.
    bool fill(int leaveKiB) {
        QFile ballast(m_mount + QStringLiteral("/ballast"));
        if (!ballast.open(QIODevice::WriteOnly)) {
            return false;
        }
        const QByteArray block(64 * 1024, 'b');
        for (;;) {
            struct statvfs st {};
            if (::statvfs(QFile::encodeName(m_mount).constData(), &st) != 0) {
                return false;
            }
            if (qint64(st.f_bavail) * qint64(st.f_frsize) <=
                qint64(leaveKiB) * 1024 + block.size()) {
                return true;
            }
            if (ballast.write(block) != block.size() || !ballast.flush()) {
                return false;
            }
        }
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(test::buildBin() + QStringLiteral("/tessera-ctl")) ||
            !QFile::exists(QStringLiteral("/usr/bin/python3"))) {
            QSKIP("tessera-ctl is not built or /usr/bin/python3 is missing");
        }
        QVERIFY(m_dir.isValid());
        m_mount = path(QStringLiteral("data/local-cluster"));
        QVERIFY(QDir().mkpath(m_mount));
        if (::mount("tmpfs", QFile::encodeName(m_mount).constData(), "tmpfs", 0,
                    "size=24m,mode=0700") != 0) {
            const std::string why = std::string("mounting a tmpfs needs CAP_SYS_ADMIN (run the "
                                                "test as root): ") +
                                    std::strerror(errno);
            QSKIP(why.c_str());
        }
        // Room for the workers to start and take the job, not for its output.
        QVERIFY(fill(768));
    }

    void cleanupTestCase() {
        if (!m_mount.isEmpty()) {
            ::umount2(QFile::encodeName(m_mount).constData(), MNT_DETACH);
        }
    }

    void everyPointReachesTheHistory() {
        // 300 steps, each after 20 log lines of ~200 bytes: ~1.3 MB into 768 kB of free space.
        const QString script = QStringLiteral(
            "pad = 'x' * 200\n"
            "for i in range(300):\n"
            "    for j in range(20):\n"
            "        print('log', i, j, pad)\n"
            "    print('@tessera {\"step\":%d,\"loss\":%f}' % (i, 1.0 / (i + 1)))\n");
        QJsonObject spec{
            {QStringLiteral("name"), QStringLiteral("full disk")},
            {QStringLiteral("model"),
             QJsonObject{{QStringLiteral("command"),
                          QJsonArray{QStringLiteral("/usr/bin/python3"), QStringLiteral("-u"),
                                     QStringLiteral("-c"), script}}}},
            {QStringLiteral("layout"), QJsonObject{{QStringLiteral("dataParallel"), 1}}}};
        QFile f(path(QStringLiteral("spec.json")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(spec).toJson()) > 0);
        f.close();

        qputenv("TESSERA_DATA_DIR", QFile::encodeName(path(QStringLiteral("data"))));
        test::CtlProcess run({QStringLiteral("run"), path(QStringLiteral("spec.json")),
                              QStringLiteral("--timeout"), QStringLiteral("240")});
        QVERIFY(run.process().waitForFinished(270000));
        const QString out = run.output();
        QVERIFY2(run.exitCode() == 0, qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("[worker] ")) &&
                     out.contains(QStringLiteral(": disk full in ")) &&
                     out.contains(QStringLiteral("No space left on device")),
                 qPrintable(out.right(3000)));

        MetricStore store;
        QVERIFY(store.open(path(QStringLiteral("data/tessera.sqlite"))));
        const QList<JobRecord> jobs = store.jobs();
        QCOMPARE(jobs.size(), 1);
        std::set<qint64> steps;
        for (const MetricPoint& p : store.points(jobs.front().id)) {
            steps.insert(p.step);
        }
        QCOMPARE(int(steps.size()), 300);
        QCOMPARE(*steps.rbegin(), qint64(299));
        QCOMPARE(jobs.front().state, JobState::Succeeded);
        QVERIFY2(jobs.front().reason.contains(QStringLiteral("in memory only")),
                 qPrintable(jobs.front().reason));

        test::CtlProcess logs({QStringLiteral("logs"), jobs.front().id});
        QVERIFY(logs.process().waitForFinished(30000));
        QVERIFY2(logs.output().contains(QStringLiteral("[worker] ")) &&
                     logs.output().contains(QStringLiteral("disk full in")),
                 qPrintable(logs.output().left(3000)));
    }
};

QTEST_GUILESS_MAIN(TestCtlDiskFull)
#include "tst_ctldiskfull.moc"
