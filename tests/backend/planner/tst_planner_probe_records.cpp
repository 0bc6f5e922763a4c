// The probe records kept beside calibration.json for `tessera-ctl calibrate --append`: a round
// trip keeps every value, and a damaged file is refused with its name and what to do.
#include "probe_records.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::planner;

class TestPlannerProbeRecords : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
