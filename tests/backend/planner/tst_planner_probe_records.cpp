// The probe records kept beside calibration.json for `tessera-ctl calibrate --append`: a round
// trip keeps every value, and a damaged file is refused with its name and what to do.
#include "backend/planner/probe_records.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::planner;

class TestPlannerProbeRecords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dropsTheRoundTheHostSlowed() {
        // Three rounds of two ranks: round 3's GEMM ran at half the rate (the host was busy).
        std::vector<ProbeRecord> recs;
        const double rates[] = {50e9, 46e9, 24e9};
        for (int round = 1; round <= 3; ++round) {
            for (int rank = 0; rank < 2; ++rank) {
                recs.push_back({rank,
                                {{"probe", 2},
                                 {"round", round},
                                 {"gemm_flops_per_s", rates[round - 1] + rank * 1e9}}});
                recs.push_back({rank, {{"probe", 1}, {"round", round}, {"b8_s", 1e-3 * round}}});
            }
        }
        const auto dropped = dropDisturbedRounds(recs);
        QCOMPARE(dropped.size(), std::size_t(1));
        QCOMPARE(dropped[0].round, 3);
        QCOMPARE(dropped[0].gemmRate, 24.5e9);
        QCOMPARE(dropped[0].bestRate, 50.5e9);
        QCOMPARE(recs.size(), std::size_t(8)); // both probes of round 3 went, on both ranks
        for (const ProbeRecord& r : recs) {
            QVERIFY(r.get("round") != 3);
        }
    }

    void keepsRoundsWithinTheMargin() {
        // 80 % of the best is within the default 75 %; one round alone is never dropped; records
        // from before rounds were kept (no "round") count as one round.
        std::vector<ProbeRecord> two = {
            {0, {{"probe", 2}, {"round", 1}, {"gemm_flops_per_s", 50e9}}},
            {0, {{"probe", 2}, {"round", 2}, {"gemm_flops_per_s", 40e9}}}};
        QVERIFY(dropDisturbedRounds(two).empty());
        QCOMPARE(two.size(), std::size_t(2));
        std::vector<ProbeRecord> one = {
            {0, {{"probe", 2}, {"round", 1}, {"gemm_flops_per_s", 1e9}}}};
        QVERIFY(dropDisturbedRounds(one).empty());
        std::vector<ProbeRecord> legacy = {
            {0, {{"probe", 2}, {"gemm_flops_per_s", 20e9}}},
            {0, {{"probe", 1}, {"b8_s", 1e-3}}},
            {0, {{"probe", 2}, {"round", 1}, {"gemm_flops_per_s", 50e9}}}};
        const auto dropped = dropDisturbedRounds(legacy);
        QCOMPARE(dropped.size(), std::size_t(1));
        QCOMPARE(dropped[0].round, -1);
        QCOMPARE(legacy.size(), std::size_t(1));
        QCOMPARE(legacy[0].get("round"), 1.0);
    }

    void roundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("p.json")).toStdString();
        ProbeRecordSet set;
        set.rankNodes = {"local-1", "local-2"};
        set.records.push_back({1, {{"probe", 1}, {"b8_s", 4.5e-3}, {"family", 2}}});
        set.records.push_back({0, {{"probe", 6}, {"wait_share", 0.0125}}});
        QVERIFY(saveProbeRecords(set, path).has_value());
        auto back = loadProbeRecords(path);
        QVERIFY2(back.has_value(), back ? "" : back.error().message.c_str());
        QCOMPARE(back->rankNodes, set.rankNodes);
        QCOMPARE(back->records.size(), std::size_t(2));
        QCOMPARE(back->records[0].rank, 1);
        QCOMPARE(back->records[0].values, set.records[0].values);
        QCOMPARE(back->records[1].values, set.records[1].values);
    }

    void refusesWhatItCannotUse_data() {
        QTest::addColumn<QByteArray>("content"); // empty: no file
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing") << QByteArray() << int(ErrorCode::NotFound)
                                 << QStringLiteral("without --append");
        QTest::newRow("not JSON") << QByteArray("garbage") << int(ErrorCode::InvalidArgument)
                                  << QStringLiteral("calibrate again");
        QTest::newRow("rank out of range")
            << QByteArray(R"({"rankNodes":["a"],"records":[{"rank":3,"values":{}}]})")
            << int(ErrorCode::InvalidArgument) << QStringLiteral("rank 3");
    }

    void refusesWhatItCannotUse() {
        QFETCH(QByteArray, content);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.json"));
        if (!content.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        auto r = loadProbeRecords(path.toStdString());
        QVERIFY(!r.has_value());
        QCOMPARE(int(r.error().code), code);
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains(mentions) && message.contains(path), qPrintable(message));
    }
};

QTEST_APPLESS_MAIN(TestPlannerProbeRecords)
#include "tst_planner_probe_records.moc"
