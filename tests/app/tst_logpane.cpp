// LogPane and its rank filter: job lines show their rank, the filter narrows the pane to one
// rank (state changes and app messages stay), ranks are listed as they appear, and the pane
// stays bounded.
#include "app/monitor/logpane.h"
#include "app/monitor/logrankfilter.h"

#include <QTest>

using namespace tessera;

namespace {
QStringList shownLines(const LogPane& pane) {
    QStringList out;
    for (const QString& l : pane.toPlainText().split('\n', Qt::SkipEmptyParts))
        out << l.mid(9); // without "HH:mm:ss "
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
        pane.appendJobLine("job-1", "worker", "shipped", LogPane::kNoRank);
        pane.appendJobLine("job-1", "stdout", "two again", 2);
        pane.appendMessage("rent finished");
        QCOMPARE(shownLines(pane),
                 (QStringList{"[job-1 r0] zero says", "[job-1 r2 !] two complains",
                              "[job-1] state → RUNNING", "[job-1] shipped", "[job-1 r2] two again",
                              "rent finished"}));
        // Listed ascending after "All ranks", "No rank" last, as they appeared.
        QStringList items;
        for (int i = 0; i < filter.count(); ++i)
            items << filter.itemText(i);
        QCOMPARE(items,
                 (QStringList{"All ranks", "Rank 0", "Rank 2", "No rank (launcher, Tessera)"}));

        filter.setCurrentIndex(2); // as a person picks it
        QCOMPARE(pane.rankFilter(), 2);
        QCOMPARE(shownLines(pane),
                 (QStringList{"[job-1 r2 !] two complains", "[job-1] state → RUNNING",
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

    void paneStaysBounded() {
        LogPane pane(nullptr, 100);
        for (int i = 0; i < 1000; ++i)
            pane.appendJobLine("job-1", "stdout", QString::number(i), i % 2);
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
