// tessera-ctl's progress output: the bar follows one rank's loss (the lowest that reports one),
// epoch lines print test accuracy, the summary gives the last one.
#include "backend/ctl/progressprinter.h"

#include <QTemporaryFile>
#include <QTest>

#include <cstdio>

using namespace tessera;
using namespace tessera::ctl;

namespace {
MetricPoint point(qint64 step, int rank, const QString& name, double value) {
    MetricPoint p;
    p.step = step;
    p.rank = rank;
    p.values.insert(name, value);
    return p;
}
} // namespace

class TestProgressPrinter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void barFollowsTheLowestRank() {
        std::FILE* out = std::tmpfile();
        QVERIFY(out);
        ProgressPrinter printer(out, 0, false);
        // Every rank of a user program logs its own loss; rank 1's arrives first.
        printer.add(point(10, 1, "loss", 1.5));
        printer.add(point(10, 0, "loss", 0.5));
        printer.add(point(20, 1, "loss", 1.25));
        printer.add(point(20, 0, "loss", 0.25));
        printer.add(point(20, 0, "test_accuracy", 0.875));
        printer.add(point(30, 1, "loss", 1.0));
        std::fflush(out);
        std::rewind(out);
        char buf[4096] = {};
        const std::size_t n = std::fread(buf, 1, sizeof buf - 1, out);
        std::fclose(out);
        const QStringList lines =
            QString::fromUtf8(buf, qsizetype(n)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines[0].contains("loss 1.5000"), qPrintable(lines[0])); // the only one so far
        QVERIFY2(lines[1].contains("loss 0.5000"), qPrintable(lines[1])); // then rank 0's only
        QVERIFY2(lines[2].contains("loss 0.2500"), qPrintable(lines[2]));
        QVERIFY2(lines[3].contains("test accuracy 0.8750"), qPrintable(lines[3]));
    }
};

QTEST_GUILESS_MAIN(TestProgressPrinter)
#include "tst_progressprinter.moc"
