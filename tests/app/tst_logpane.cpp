// LogPane and its rank filter: job lines show their rank, the filter narrows the pane to one
// rank (state changes and app messages stay), ranks are listed as they appear, and the pane
// stays bounded. Warnings and errors are marked by what a line says, not by its stream: an
// `[info]` line on stderr is not marked, nor is any plain line, whatever bytes it holds.
#include "app/monitor/logpane.h"
#include "app/monitor/logrankfilter.h"

#include <QTest>
#include <QTextBlock>

using namespace tessera;

namespace {
QStringList shownLines(const LogPane& pane) {
    QStringList out;
    for (const QString& l : pane.toPlainText().split('\n', Qt::SkipEmptyParts)) {
        out << l.mid(9); // without "HH:mm:ss "
    }
    return out;
}
} // namespace

class TestLogPane : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void filterNarrowsToOneRank() {
        LogPane pane;
        LogRankFilter filter(&pane);
        pane.appendJobLine("job-1", "stdout", "zero says", 0);
        pane.appendJobLine("job-1", "stderr", "two complains", 2);
        pane.appendJobState("job-1", "RUNNING", QString());
        pane.appendJobLine("job-1", "tessera", "shipped", LogPane::kNoRank);
        pane.appendJobLine("job-1", "stdout", "two again", 2);
        pane.appendMessage("rent finished");
        QCOMPARE(shownLines(pane), (QStringList{"[job-1 r0] zero says", "[job-1 r2] two complains",
                                                "[job-1] state → RUNNING", "[job-1] shipped",
                                                "[job-1 r2] two again", "rent finished"}));
        // Listed ascending after "All ranks", "No rank" last, as they appeared.
        QStringList items;
        for (int i = 0; i < filter.count(); ++i) {
            items << filter.itemText(i);
        }
        QCOMPARE(items,
                 (QStringList{"All ranks", "Rank 0", "Rank 2", "No rank (launcher, Tessera)"}));

        filter.setCurrentIndex(2); // as a person picks it
        QCOMPARE(pane.rankFilter(), 2);
        QCOMPARE(shownLines(pane),
                 (QStringList{"[job-1 r2] two complains", "[job-1] state → RUNNING",
                              "[job-1 r2] two again", "rent finished"}));
        // New lines go through the filter; a new rank is listed in its place.
        pane.appendJobLine("job-1", "stdout", "one", 1);
        pane.appendJobLine("job-1", "stdout", "two last", 2);
        QCOMPARE(shownLines(pane).last(), QStringLiteral("[job-1 r2] two last"));
        QVERIFY(!pane.toPlainText().contains("one"));
        QCOMPARE(filter.itemText(1), QStringLiteral("Rank 0"));
        QCOMPARE(filter.itemText(2), QStringLiteral("Rank 1"));
        QCOMPARE(filter.currentData().toInt(), 2); // the choice stays on rank 2

        QVERIFY(filter.choose(LogPane::kNoRank));
        QCOMPARE(shownLines(pane),
                 (QStringList{"[job-1] state → RUNNING", "[job-1] shipped", "rent finished"}));
        QVERIFY(filter.choose(LogPane::kAllRanks));
        QCOMPARE(shownLines(pane).size(), 8);
        QVERIFY(!filter.choose(7));
    }

    // What real programs print, and what the pane makes of it.
    void severityFromTheLine_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("severity");
        const int n = int(LogPane::Severity::Normal);
        const int w = int(LogPane::Severity::Warning);
        const int e = int(LogPane::Severity::Error);
        // tessera-train and tessera-worker (spdlog to stderr), with and without colour codes.
        QTest::newRow("spdlog info") << "[12:00:01.250] [rank 0] [info] epoch 1: loss 0.52" << n;
        QTest::newRow("spdlog info coloured")
            << "[12:00:01.250] [rank 0] [\x1b[32minfo\x1b[m] step 10" << n;
        QTest::newRow("spdlog warning")
            << "[12:00:01.250] [rank 1] [warning] the layout asks for 4 ranks" << w;
        QTest::newRow("spdlog error") << "[2026-01-02 10:00:00.1] [tessera-worker] [error] x" << e;
        QTest::newRow("spdlog critical") << "[12:00:01.250] [rank 0] [critical] out of memory" << e;
        QTest::newRow("spdlog info quoting ERROR")
            << "[12:00:01.250] [rank 0] [info] counting ERROR: lines" << n;
        // Python logging, PyTorch, NCCL, Open MPI.
        QTest::newRow("python INFO") << "INFO:root:epoch 1 done" << n;
        QTest::newRow("python WARNING") << "WARNING:root:falling back to CPU" << w;
        QTest::newRow("python ERROR") << "ERROR:__main__:cannot open data" << e;
        QTest::newRow("python fmt") << "2026-01-02 10:00:00,123 - train - WARNING - slow" << w;
        QTest::newRow("traceback") << "Traceback (most recent call last):" << e;
        QTest::newRow("exception") << "RuntimeError: CUDA out of memory" << e;
        QTest::newRow("dotted exception") << "torch.distributed.DistBackendError: NCCL error" << e;
        QTest::newRow("warnings module")
            << "/usr/lib/python3/x.py:12: UserWarning: TypedStorage is deprecated" << w;
        QTest::newRow("torch glog") << "W1202 12:00:00.123000 140 torch/run.py:779] OMP" << w;
        QTest::newRow("torch c10d") << "[W socket.cpp:464] [c10d] The server socket failed" << w;
        QTest::newRow("torch rank prefix")
            << "[rank0]:[E1202 12:00:00.1 ProcessGroupNCCL.cpp] x" << e;
        QTest::newRow("nccl info") << "host:123:456 [0] NCCL INFO Bootstrap : Using eth0" << n;
        QTest::newRow("nccl warn") << "host:123:456 [0] NCCL WARN Cuda failure" << w;
        QTest::newRow("prog error") << "tessera-train: error: dataset file is missing" << e;
        QTest::newRow("mpirun died")
            << "mpirun noticed that process rank 1 with PID 0 on node a exited on signal 9" << e;
        // Plain lines are never marked, whatever they hold.
        QTest::newRow("plain") << "epoch 1 loss 0.4" << n;
        QTest::newRow("words") << "no errors found, 0 warnings" << n;
        QTest::newRow("empty") << "" << n;
        QTest::newRow("bang") << "!!!" << n;
        QTest::newRow("brackets") << QString(5000, QLatin1Char('[')) << n;
        QTest::newRow("bracket pairs") << QString(5000, QLatin1Char(']')) + "[]][[][" << n;
        QTest::newRow("escapes") << QString(3000, QChar(0x1B)) + "[" << n;
        QTest::newRow("controls") << QStringLiteral("a\0b\x01\x7f\r\t") << n;
        QTest::newRow("replacement chars")
            << QString(10000, QChar(QChar::ReplacementCharacter)) << n;
        QTest::newRow("lone surrogate") << QString(QChar(0xD800)) + "ERRORS" << n;
        QTest::newRow("cjk") << QStringLiteral("第 1 轮：损失 0.4") << n;
        QTest::newRow("error late in a long line")
            << QString(300, QLatin1Char('x')) + " ERROR " << n;
    }
    void severityFromTheLine() {
        QFETCH(QString, line);
        QFETCH(int, severity);
        const QString text = line;
        QCOMPARE(int(LogPane::severityOf(text)), severity);
        // The pane shows it, marked or not, without control characters, on any stream.
        for (const char* stream : {"stdout", "stderr"}) {
            LogPane pane;
            pane.appendJobLine("job-1", stream, text, 0);
            const QString shown = pane.toPlainText();
            const QString marker = severity == int(LogPane::Severity::Error)     ? " !!] "
                                   : severity == int(LogPane::Severity::Warning) ? " !] "
                                                                                 : "] ";
            QVERIFY2(shown.contains("[job-1 r0" + marker), qPrintable(shown.left(200)));
            for (QChar c : shown) {
                QVERIFY2(c.unicode() >= 0x20 || c == '\t', "a control character is shown");
            }
            QCOMPARE(pane.blockCount(), 1);
        }
    }

    void progressBarsAndColour() {
        LogPane pane;
        pane.appendJobLine("job-1", "stderr", " 10%|#   | 1/10\r 50%|#####  | 5/10\r\n", 0);
        QCOMPARE(shownLines(pane), QStringList{"[job-1 r0]  50%|#####  | 5/10"});
        pane.appendJobLine("job-1", "stderr", "[12:00:00.000] [rank 0] [error] boom", 0);
        pane.appendJobLine("job-1", "worker", "log limit reached", LogPane::kNoRank);
        QCOMPARE(shownLines(pane).mid(1),
                 (QStringList{"[job-1 r0 !!] [12:00:00.000] [rank 0] [error] boom",
                              "[job-1 !] log limit reached"}));
        // The error line is red, the plain one keeps the text colour, also after filtering.
        for (int filter : {LogPane::kAllRanks, 0}) {
            pane.setRankFilter(filter);
            const QTextBlock plain = pane.document()->firstBlock();
            const QTextBlock error = plain.next();
            QCOMPARE(error.begin().fragment().charFormat().foreground().color(),
                     QColor(0xC0, 0x10, 0x10));
            QVERIFY(
                !plain.begin().fragment().charFormat().hasProperty(QTextFormat::ForegroundBrush));
        }
    }

    void paneStaysBounded() {
        LogPane pane(nullptr, 100);
        for (int i = 0; i < 1000; ++i) {
            pane.appendJobLine("job-1", "stdout", QString::number(i), i % 2);
        }
        pane.setRankFilter(1);
        const QStringList lines = shownLines(pane);
        QCOMPARE(lines.size(), 50); // the newest 100 lines, of which rank 1 printed half
        QCOMPARE(lines.last(), QStringLiteral("[job-1 r1] 999"));
        pane.setRankFilter(LogPane::kAllRanks);
        QCOMPARE(pane.blockCount(), 100);
    }
};

QTEST_MAIN(TestLogPane)
#include "tst_logpane.moc"
