// Tests of the German translation: the compiled tessera_de.qm loads and the widgets pick it up
// (so the .ts contexts match the classes). Skips when Qt's Linguist tools did not build it.
#include "app/cluster/clusterpanel.h"
#include "app/jobs/jobpanel.h"
#include "app/jobs/specsummary.h"
#include "app/session.h"
#include "worker/common/spec_io.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace tessera;

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void germanWidgets();
};

void TestTranslations::germanWidgets() {
    const QString qm = QStringLiteral(TESSERA_BUILD_DIR "/app/tessera_de.qm");
    if (!QFileInfo::exists(qm))
        QSKIP("tessera_de.qm was not built (Qt6 LinguistTools missing: install qt6-l10n-tools)");
    QTranslator translator;
    QVERIFY(translator.load(qm));
    QCoreApplication::installTranslator(&translator);
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());

    AppSession session;
    ClusterPanel cluster(session.registry(), session.localWorkers());
    QCOMPARE(cluster.rentAction()->text(), QStringLiteral("Lokale Worker &anmieten"));
    JobPanel jobs(session.controller());
    QCOMPARE(jobs.launchAction()->text(), QStringLiteral("Job &starten"));
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY(spec.has_value());
    QVERIFY(SpecSummary::text(*spec).contains(QStringLiteral("Datenparallelität 2")));
    QCoreApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
