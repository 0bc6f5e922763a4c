// Tests of JobPanel without workers: spec choice and summary, bad spec files and a launch that
// the cluster cannot take all end as an inline message, never a crash or a blocking dialog.
#include "app/jobs/jobpanel.h"
#include "app/session.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestJobPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void listsExamplesAndSummarises();
    void badSpecFiles_data();
    void badSpecFiles();
    void missingFileIsReported();
    void launchWithoutWorkersFailsInline();

private:
    QString writeSpec(const QString& name, const QByteArray& json);
    QTemporaryDir m_dir;
};

void TestJobPanel::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
}

QString TestJobPanel::writeSpec(const QString& name, const QByteArray& json) {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(json);
    return path;
}

void TestJobPanel::listsExamplesAndSummarises() {
    AppSession session;
    JobPanel panel(session.controller());
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("specCombo"));
    QVERIFY(combo);
    QVERIFY(combo->findText(QStringLiteral("fashion-mnist-mlp")) >= 0);
    QVERIFY(panel.selectSpec(QStringLiteral("fashion")));
    QVERIFY(panel.currentSpec().has_value());
    const auto* summary = panel.findChild<QPlainTextEdit*>(QStringLiteral("specSummary"));
    QVERIFY(summary->isReadOnly());
    QVERIFY(summary->toPlainText().contains(QStringLiteral("World size: 2")));
    QVERIFY(panel.launchAction()->isEnabled());
    QVERIFY(!panel.cancelAction()->isEnabled()); // nothing to cancel yet
    QVERIFY(!panel.selectSpec(QStringLiteral("no-such-spec")));
}

void TestJobPanel::badSpecFiles_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown field")
        << QByteArray(R"({"name":"x","modle":{"family":"mlp"}})") << "modle";
    QTest::newRow("not json") << QByteArray("this is not json") << "bad.json";
    QTest::newRow("wrong type") << QByteArray(R"({"training":{"epochs":"many"}})") << "epochs";
}

void TestJobPanel::badSpecFiles() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    AppSession session;
    JobPanel panel(session.controller());
    QVERIFY(panel.addSpecFile(writeSpec(QStringLiteral("bad.json"), json)));
    QVERIFY(!panel.currentSpec().has_value());
    QVERIFY(!panel.launchAction()->isEnabled());
    QVERIFY2(panel.messageText().contains(mentions), qPrintable(panel.messageText()));
    QSignalSpy failed(&panel, &JobPanel::launchFailed);
    panel.launch(); // e.g. through the shortcut: refused with a message, nothing submitted
    QCOMPARE(failed.count(), 1);
    QVERIFY(panel.currentJobId().isEmpty());
}

void TestJobPanel::missingFileIsReported() {
    AppSession session;
    JobPanel panel(session.controller());
    QVERIFY(!panel.addSpecFile(m_dir.filePath(QStringLiteral("missing.json"))));
    QVERIFY(panel.messageText().contains(QStringLiteral("missing.json")));
}

void TestJobPanel::launchWithoutWorkersFailsInline() {
    AppSession session;
    JobPanel panel(session.controller());
    QVERIFY(panel.selectSpec(QStringLiteral("fashion")));
    QSignalSpy failed(&panel, &JobPanel::launchFailed);
    QSignalSpy launched(&panel, &JobPanel::jobLaunched);
    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("launchButton")),
                      Qt::LeftButton);
    QCOMPARE(launched.count(), 0);
    QCOMPARE(failed.count(), 1);
    QVERIFY2(panel.messageText().startsWith(QStringLiteral("Launch failed: ")),
             qPrintable(panel.messageText()));
    QVERIFY(panel.currentJobId().isEmpty());
}

QTEST_MAIN(TestJobPanel)
#include "tst_jobpanel.moc"
