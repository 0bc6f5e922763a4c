// The server's audit log on a full disk (issue 48): a line the history cannot take waits in
// memory, ListAudit shows it meanwhile, and it is written, in order, once there is room again;
// none is lost. The data folder is a small tmpfs the test fills (skipped without the right to
// mount one).
#include "backend/history/metricstore.h"
#include "backend/service/backendclient.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"
#include "tests/support/offthread.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

using namespace tessera;
using test::offThread;

class TestAuditDiskFull : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mount;

    /// Fills the tmpfs until nothing is free.
    bool fill() {
        QFile ballast(m_mount + QStringLiteral("/ballast"));
        if (!ballast.open(QIODevice::WriteOnly)) {
            return false;
        }
        const QByteArray block(4096, 'b');
        while (ballast.write(block) == block.size() && ballast.flush()) {
        }
        struct statvfs st {};
        return ::statvfs(QFile::encodeName(m_mount).constData(), &st) == 0 && st.f_bavail == 0;
    }

    /// A submit of a bad spec as the socket's user: refused, so one audit line and no job.
    void refusedSubmit(BackendClient& client) {
        auto refused = offThread([&] { return client.submit("{\"name\": 7}"); });
        QVERIFY(!refused);
    }

    static QStringList outcomes(const QList<AuditEntry>& lines) {
        QStringList out;
        for (const AuditEntry& e : lines) {
            out << e.action + QLatin1Char(' ') + e.outcome;
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_mount = m_dir.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(m_mount));
        if (::mount("tmpfs", QFile::encodeName(m_mount).constData(), "tmpfs", 0,
                    "size=4m,mode=0700") != 0) {
            const std::string why = std::string("mounting a tmpfs needs CAP_SYS_ADMIN (run the "
                                                "test as root): ") +
                                    std::strerror(errno);
            QSKIP(why.c_str());
        }
        registerBackendMetaTypes();
        test::useBuildAndData(m_mount);
    }

    void cleanupTestCase() {
        if (!m_mount.isEmpty()) {
            ::umount2(QFile::encodeName(m_mount).constData(), MNT_DETACH);
        }
    }

    void aLineHeldBackByAFullDiskIsWrittenOnceThereIsRoom() {
        auto folder = test::ServedFolder::started(m_mount, 0);
        QVERIFY2(folder->error.isEmpty(), qPrintable(folder->error));
        BackendClient client(folder->socket());
        refusedSubmit(client); // written: there is room
        MetricStore* store = folder->session->store();
        QCOMPARE(outcomes(store->audit(10)), QStringList{QStringLiteral("submit refused")});

        QVERIFY(fill());
        refusedSubmit(client);
        refusedSubmit(client);
        QCOMPARE(store->audit(10).size(), 1); // the disk is full: not in the history…
        auto listed = offThread([&] { return client.audit(10); });
        QVERIFY2(listed, listed ? "" : listed.error().message.c_str());
        QCOMPARE(listed->lines_size(), 3); // …but not lost either

        QVERIFY(QFile::remove(m_mount + QStringLiteral("/ballast")));
        refusedSubmit(client); // the next line writes the waiting ones first, in order
        const QList<AuditEntry> stored = store->audit(10);
        QCOMPARE(stored.size(), 4);
        for (int i = 1; i < stored.size(); ++i) {
            QVERIFY(stored[i - 1].timeMs <= stored[i].timeMs);
        }
        auto after = offThread([&] { return client.audit(10); });
        QVERIFY(after && after->lines_size() == 4); // each once
    }
};

QTEST_GUILESS_MAIN(TestAuditDiskFull)
#include "tst_auditdiskfull.moc"
