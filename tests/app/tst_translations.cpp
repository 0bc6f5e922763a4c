// Tests of the German and Simplified Chinese translations: the compiled .qm files load and the
// widgets and the backend's texts (states, offers, lease reasons) pick them up, so the .ts
// contexts match the classes; every message of both .ts files is translated, with the source's
// placeholders and an accelerator where the source has one. Skips the .qm tests when Qt's
// Linguist tools did not build them.
#include "app/cluster/clusterpanel.h"
#include "app/jobs/jobpanel.h"
#include "app/jobs/specsummary.h"
#include "backend/client/clusterview.h"
#include "backend/client/jobswatch.h"
#include "backend/client/serverconnection.h"
#include "backend/core/jobtypes.h"
#include "backend/core/workernode.h"
#include "backend/provision/local/localleases.h"
#include "backend/service/backendsession.h"
#include "worker/common/spec_io.h"

#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace tessera;

namespace {

/// The placeholders of a message: %1 … %99 and %n, each once, sorted.
QStringList placeholders(const QString& text) {
    static const QRegularExpression re(QStringLiteral("%L?(\\d{1,2}|n)"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();) {
        out << it.next().captured(1);
    }
    out.removeDuplicates();
    out.sort();
    return out;
}

/// True when `text` marks a keyboard accelerator ("&Launch", "启动(&L)"; "&&" is a literal &).
bool hasAccelerator(QString text) {
    text.remove(QStringLiteral("&&"));
    static const QRegularExpression re(QStringLiteral("&[^\\s&;]"));
    static const QRegularExpression entity(QStringLiteral("&(amp|lt|gt|quot|apos|nbsp);"));
    return re.match(text).hasMatch() && !entity.match(text).hasMatch();
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void germanWidgets();
    void chineseWidgets();
    void everyMessageTranslated_data();
    void everyMessageTranslated();

private:
    /// Installs translations/tessera_`lang`.qm from the build tree; false (and skips) without it.
    bool install(QTranslator& translator, const char* lang);
};

bool TestTranslations::install(QTranslator& translator, const char* lang) {
    const QString qm = QStringLiteral(TESSERA_BUILD_DIR "/app/tessera_%1.qm").arg(lang);
    if (!QFileInfo::exists(qm)) {
        return false;
    }
    if (!translator.load(qm)) {
        return false;
    }
    QCoreApplication::installTranslator(&translator);
    return true;
}

void TestTranslations::germanWidgets() {
    QTranslator translator;
    if (!install(translator, "de")) {
        QSKIP("tessera_de.qm was not built (Qt6 LinguistTools missing: install qt6-l10n-tools)");
    }
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());

    BackendSession session;
    client::ClusterView nodes;
    ClusterPanel cluster(&nodes, session.localWorkers());
    QCOMPARE(cluster.rentAction()->text(), QStringLiteral("Lokale Worker &anmieten"));
    client::ServerConnection server(client::ServerAddress{data.filePath("none.sock"), nullptr});
    client::JobsWatch watch(&server); // never started: the panel's words only
    JobPanel jobs(&watch);
    QCOMPARE(jobs.launchAction()->text(), QStringLiteral("Job &starten"));
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY(spec.has_value());
    QVERIFY(SpecSummary::text(*spec).contains(QStringLiteral("Datenparallelität 2")));
    // States and the backend's own words.
    QCOMPARE(jobStateText(JobState::Succeeded), QStringLiteral("erfolgreich"));
    QCOMPARE(nodeStateText(NodeState::Ready), QStringLiteral("bereit"));
    QCOMPARE(leaseStateText(LeaseState::Released), QStringLiteral("freigegeben"));
    QCOMPARE(jobStateName(JobState::Succeeded), QStringLiteral("succeeded")); // JSON, CLI, DB
    LocalLeases leases(session.localWorkers(), session.registry(), 4);
    QCOMPARE(leases.offers().first().name, QStringLiteral("lokaler Worker"));
    QCOMPARE(leases.offers().first().where, QStringLiteral("dieser Rechner"));
    QCoreApplication::removeTranslator(&translator);
}

void TestTranslations::chineseWidgets() {
    QTranslator translator;
    if (!install(translator, "zh_CN")) {
        QSKIP("tessera_zh_CN.qm was not built (Qt6 LinguistTools missing: install qt6-l10n-tools)");
    }
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());

    BackendSession session;
    client::ClusterView nodes;
    ClusterPanel cluster(&nodes, session.localWorkers());
    QCOMPARE(cluster.rentAction()->text(), QStringLiteral("租用本地工作节点(&R)"));
    client::ServerConnection server(client::ServerAddress{data.filePath("none.sock"), nullptr});
    client::JobsWatch watch(&server); // never started: the panel's words only
    JobPanel jobs(&watch);
    QCOMPARE(jobs.launchAction()->text(), QStringLiteral("启动作业(&L)"));
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY(spec.has_value());
    const QString summary = SpecSummary::text(*spec);
    QVERIFY2(summary.contains(QStringLiteral("数据并行 2")), qPrintable(summary));
    QCOMPARE(jobStateText(JobState::Running), QStringLiteral("运行中"));
    QCOMPARE(nodeStateText(NodeState::Ready), QStringLiteral("就绪"));
    QCOMPARE(leaseStateText(LeaseState::Booting), QStringLiteral("启动中"));
    LocalLeases leases(session.localWorkers(), session.registry(), 4);
    QCOMPARE(leases.offers().first().name, QStringLiteral("本地工作节点"));
    QCOMPARE(leases.offers().first().where, QStringLiteral("本机"));
    QCoreApplication::removeTranslator(&translator);
}

void TestTranslations::everyMessageTranslated_data() {
    QTest::addColumn<QString>("ts");
    QTest::newRow("de") << QStringLiteral(TESSERA_SOURCE_DIR "/translations/tessera_de.ts");
    QTest::newRow("zh_CN") << QStringLiteral(TESSERA_SOURCE_DIR "/translations/tessera_zh_CN.ts");
}

// What `lupdate` put in the .ts files has a translation (no "unfinished"), keeps the source's
// %1 … %n, and has an accelerator where the source has one.
void TestTranslations::everyMessageTranslated() {
    QFETCH(QString, ts);
    QFile file(ts);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(ts));
    QXmlStreamReader xml(&file);
    QString context, source;
    QStringList problems;
    int messages = 0;
    bool numerus = false, unfinished = false;
    QStringList forms;
    QString translation;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name")) {
                context = xml.readElementText();
            } else if (name == QLatin1String("message")) {
                numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
                unfinished = false;
                forms.clear();
                translation.clear();
            } else if (name == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (name == QLatin1String("translation")) {
                const auto type = xml.attributes().value(QLatin1String("type"));
                unfinished = type == QLatin1String("unfinished");
                if (type == QLatin1String("vanished") || type == QLatin1String("obsolete")) {
                    unfinished = false, source.clear();
                }
                if (!numerus) {
                    translation = xml.readElementText();
                }
            } else if (name == QLatin1String("numerusform")) {
                forms << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            if (source.isEmpty()) {
                continue;
            }
            ++messages;
            const QString where = QStringLiteral("%1 \"%2\"").arg(context, source.left(70));
            if (!numerus) {
                forms = {translation};
            }
            if (unfinished || forms.isEmpty() || forms.contains(QString())) {
                problems << where + QStringLiteral(": not translated");
                continue;
            }
            for (const QString& f : forms) {
                if (placeholders(f) != placeholders(source)) {
                    problems << where + QStringLiteral(": placeholders %1, translation has %2")
                                            .arg(placeholders(source).join(','),
                                                 placeholders(f).join(','));
                }
                if (hasAccelerator(source) && !source.contains('<') && !hasAccelerator(f)) {
                    problems << where + QStringLiteral(": the translation has no accelerator");
                }
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages > 500);
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s) in %2:\n  %3")
                                                .arg(problems.size())
                                                .arg(ts, problems.join("\n  "))));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
