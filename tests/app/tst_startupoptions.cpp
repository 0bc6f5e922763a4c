// Tests of the app's command-line flags and of the job panel's helpers (spec catalog and
// summary): good flags parse, bad ones give an error naming the flag.
#include "app/jobs/speccatalog.h"
#include "app/jobs/specsummary.h"
#include "app/startupoptions.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using tessera::StartupOptions;

class TestStartupOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesGoodFlags();
    void rejectsBadFlags_data();
    void rejectsBadFlags();
    void catalogHonoursEnvironment();
    void summaryNamesTheLayout();
};

void TestStartupOptions::parsesGoodFlags() {
    auto o = StartupOptions::parse({"tessera", "--rent-local", "3", "--spec", "/x/a.json",
                                    "--launch", "--screenshot", "/tmp/s.png", "--quit-after-points",
                                    "7", "--timeout", "90"});
    QVERIFY2(o.has_value(), o ? "" : o.error().message.c_str());
    QCOMPARE(o->rentLocal, 3);
    QCOMPARE(o->slotsPerWorker, 1);
    QCOMPARE(o->spec, QStringLiteral("/x/a.json"));
    QVERIFY(o->launch);
    QCOMPARE(o->screenshot, QStringLiteral("/tmp/s.png"));
    QCOMPARE(o->quitAfterPoints, 7);
    QCOMPARE(o->timeoutSeconds, 90);
    QVERIFY(o->unattended());

    auto plain = StartupOptions::parse({"tessera"});
    QVERIFY(plain.has_value());
    QCOMPARE(plain->rentLocal, 0);
    QVERIFY(!plain->launch);
    QVERIFY(!plain->unattended());

    auto shot = StartupOptions::parse({"tessera", "--launch", "--screenshot", "s.png"});
    QVERIFY(shot.has_value());
    QCOMPARE(shot->quitAfterPoints, 5); // default K with a screenshot

    auto help = StartupOptions::parse({"tessera", "--help"});
    QVERIFY(help.has_value() && help->help);
    QVERIFY(StartupOptions::helpText().contains(QStringLiteral("--rent-local")));
}

void TestStartupOptions::rejectsBadFlags_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("rent not a number")
        << QStringList{"tessera", "--rent-local", "two"} << "--rent-local";
    QTest::newRow("rent zero") << QStringList{"tessera", "--rent-local", "0"} << "--rent-local";
    QTest::newRow("negative points")
        << QStringList{"tessera", "--launch", "--quit-after-points", "-1"} << "quit-after-points";
    QTest::newRow("unknown flag") << QStringList{"tessera", "--lanch"} << "lanch";
    QTest::newRow("missing value") << QStringList{"tessera", "--spec"} << "spec";
    QTest::newRow("stray argument") << QStringList{"tessera", "a.json"} << "a.json";
    QTest::newRow("screenshot without launch")
        << QStringList{"tessera", "--screenshot", "s.png"} << "--launch";
}

void TestStartupOptions::rejectsBadFlags() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    auto o = StartupOptions::parse(args);
    QVERIFY(!o.has_value());
    QCOMPARE(o.error().code, tessera::ErrorCode::InvalidArgument);
    const QString message = QString::fromStdString(o.error().message);
    QVERIFY2(message.contains(mentions), qPrintable(message));
}

void TestStartupOptions::catalogHonoursEnvironment() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const char* name : {"b.json", "a.json", "notes.txt"}) {
        QFile f(dir.filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    qputenv("TESSERA_EXAMPLES_DIR", dir.path().toLocal8Bit());
    QCOMPARE(tessera::SpecCatalog::examplesDir(), QDir(dir.path()).absolutePath());
    const QStringList files = tessera::SpecCatalog::specFiles(tessera::SpecCatalog::examplesDir());
    QCOMPARE(files.size(), 2);
    QVERIFY(files.at(0).endsWith(QStringLiteral("/a.json")));
    QVERIFY(files.at(1).endsWith(QStringLiteral("/b.json")));
    qunsetenv("TESSERA_EXAMPLES_DIR");
    QVERIFY(tessera::SpecCatalog::specFiles(dir.filePath(QStringLiteral("missing"))).isEmpty());
    // Without the variable the source tree's examples are found (this test runs from a build).
    QVERIFY(tessera::SpecCatalog::examplesDir().endsWith(QStringLiteral("resources/examples")));
}

void TestStartupOptions::summaryNamesTheLayout() {
    auto spec =
        tessera::loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
    const QString text = tessera::SpecSummary::text(*spec);
    QVERIFY2(text.contains(QStringLiteral("784 → 256 → 128 → 10")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("data parallel 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("World size: 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("global batch 64")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("235")), qPrintable(text)); // 235,146 parameters

    auto hybrid =
        tessera::loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-vit-3d.json");
    QVERIFY2(hybrid.has_value(), hybrid ? "" : hybrid.error().message.c_str());
    const QString vit = tessera::SpecSummary::text(*hybrid);
    QVERIFY2(vit.contains(QStringLiteral("VIT 4 blocks, width 64, 4 heads")), qPrintable(vit));
    QVERIFY2(vit.contains(QStringLiteral("8 layers")), qPrintable(vit));
    QVERIFY2(vit.contains(QStringLiteral("tensor parallel 2, 2 pipeline stage(s) (layers 0–2, "
                                         "3–7; 4 micro-batches, 1F1B)")),
             qPrintable(vit));
    QVERIFY2(vit.contains(QStringLiteral("World size: 4")), qPrintable(vit));
}

QTEST_GUILESS_MAIN(TestStartupOptions)
#include "tst_startupoptions.moc"
