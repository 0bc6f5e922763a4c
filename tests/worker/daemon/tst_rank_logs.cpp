// RankLogs: one CRI-format file per rank, rotated by size, bytes kept exactly.
#include "worker/daemon/output/rank_logs.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using tessera::daemon::RankLogs;

namespace {
QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
std::chrono::system_clock::time_point at(long long ns) {
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::nanoseconds(ns)));
}
} // namespace

class TestRankLogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timeIsRfc3339Nano() {
        // 2026-12-02T15:04:05Z = 1796223845 s since the epoch (date -u -d @1796223845).
        QCOMPARE(QString::fromStdString(RankLogs::rfc3339Nano(at(1796223845LL * 1000000000))),
                 QStringLiteral("2026-12-02T15:04:05.000000000Z"));
        QCOMPARE(QString::fromStdString(RankLogs::rfc3339Nano(at(1796223845123456000LL))),
                 QStringLiteral("2026-12-02T15:04:05.123456000Z"));
    }

    void linesGoToTheirRanksFileExactly() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("logs");
        {
            RankLogs logs(dir.toStdString(), {});
            logs.write(0, false, "hello", false, at(0));
            logs.write(1, true, std::string_view("bad \xff\xfe\r", 7), false, at(0));
            logs.write(-1, true, "mpirun says", false, at(0));
            logs.write(0, false, std::string(10, 'x'), true, at(0));
        }
        QCOMPARE(readAll(dir + "/rank-0.log"),
                 QByteArray("1970-01-01T00:00:00.000000000Z stdout F hello\n"
                            "1970-01-01T00:00:00.000000000Z stdout P xxxxxxxxxx\n"));
        QCOMPARE(readAll(dir + "/rank-1.log"),
                 QByteArray("1970-01-01T00:00:00.000000000Z stderr F bad \xff\xfe\r\n"));
        QCOMPARE(readAll(dir + "/launcher.log"),
                 QByteArray("1970-01-01T00:00:00.000000000Z stderr F mpirun says\n"));
        QCOMPARE(QFileInfo(dir).permissions() & QFile::ReadOther, QFile::Permissions());
    }

    // 100 records of 100 bytes into files of at most 1000 bytes, 2 rotated kept: ~30 records
    // remain, the newest among them, and no file passes the limit.
    void filesRotateAndStayBounded() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("logs");
        RankLogs logs(dir.toStdString(), {1000, 2});
        const std::size_t head = RankLogs::rfc3339Nano(at(0)).size() + 11; // " stdout F ", "\n"
        for (int i = 0; i < 100; ++i) {
            logs.write(3, false,
                       QByteArray::number(i).rightJustified(int(100 - head), '.').toStdString(),
                       false, at(0));
        }
        logs.close();
        QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, (QStringList{"rank-3.log", "rank-3.log.1", "rank-3.log.2"}));
        qint64 total = 0;
        for (const QString& f : files) {
            const qint64 size = QFileInfo(dir + "/" + f).size();
            QVERIFY2(size <= 1000, qPrintable(f));
            total += size;
        }
        QVERIFY(total >= 2000);
        QVERIFY(readAll(dir + "/rank-3.log").endsWith("..99\n"));
        QVERIFY(readAll(dir + "/rank-3.log.1").contains("..89\n"));
        QVERIFY(!readAll(dir + "/rank-3.log.2").contains("..50\n"));
    }

    void aRecordLongerThanAFileIsKeptWhole() {
        QTemporaryDir tmp;
        RankLogs logs(tmp.filePath("logs").toStdString(), {100, 1});
        logs.write(0, false, "first", false, at(0));
        logs.write(0, false, std::string(500, 'y'), false, at(0));
        logs.close();
        QVERIFY(readAll(tmp.filePath("logs/rank-0.log")).contains(QByteArray(500, 'y')));
        QVERIFY(readAll(tmp.filePath("logs/rank-0.log.1")).contains("first"));
    }

    // More ranks than open descriptors: each file is reopened and appended to, none lost.
    void manyRanksShareFewDescriptors() {
        QTemporaryDir tmp;
        RankLogs logs(tmp.filePath("logs").toStdString(), {});
        for (int round = 0; round < 3; ++round) {
            for (int rank = 0; rank < 200; ++rank) {
                logs.write(rank, false, "round " + std::to_string(round), false, at(0));
            }
        }
        logs.close();
        for (int rank : {0, 63, 64, 199}) {
            const QByteArray text = readAll(tmp.filePath("logs/rank-%1.log").arg(rank));
            QCOMPARE(text.count('\n'), 3);
            QVERIFY(text.contains("round 2\n"));
        }
    }

    // A folder that cannot be made: the lines are dropped (logged once), nothing throws.
    void unwritableFolderIsSurvived() {
        QTemporaryDir tmp;
        QFile blocker(tmp.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        RankLogs logs(tmp.filePath("file/logs").toStdString(), {});
        for (int i = 0; i < 3; ++i) {
            logs.write(0, false, "lost", false, at(0));
        }
        QVERIFY(!QFile::exists(tmp.filePath("file/logs/rank-0.log")));
    }
};

QTEST_GUILESS_MAIN(TestRankLogs)
#include "tst_rank_logs.moc"
