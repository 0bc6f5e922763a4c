// No lost layout work in the main window: the title names the layout file with a modified mark,
// closing, Open, New layout and another model ask Save / Discard / Cancel while the layout has
// unsaved changes (Cancel really keeps everything), the Designer's shortcuts work from the
// Training tab, and a config.json imported twice is listed once. The questions are answered by
// a function (MainWindow::setAsker), never by a modal box.
#include "app/designer/designerpanel.h"
#include "app/designer/layoutcontrols.h"
#include "app/designer/modelcatalog.h"
#include "app/designer/plandocument.h"
#include "app/mainwindow.h"
#include "app/windowguard.h"
#include "backend/service/backendsession.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestUnsavedWork : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void titleNamesTheFileAndItsChanges();
    void closeAsksAndCancelKeepsTheWindow();
    void closeSavesWhenAskedTo();
    void anotherModelAsksAndCancelRevertsTheList();
    void openAndNewLayoutAsk();
    void designerShortcutsWorkFromTheTrainingTab();
    void importedConfigIsListedOnce();

private:
    /// One edit of the layout (micro-batches + 1): the plan now has unsaved changes.
    static void edit(MainWindow& window);
    QTemporaryDir m_dir;
    std::unique_ptr<BackendSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    QList<Choice> m_answers; ///< what the asker answers next, first to last
};

void TestUnsavedWork::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("settings")));
}

void TestUnsavedWork::init() {
    m_window.reset();
    m_session = std::make_unique<BackendSession>();
    m_window = std::make_unique<MainWindow>(m_session.get());
    m_answers.clear();
    m_window->setAsker([this](const Question& q) {
        if (m_answers.isEmpty()) {
            qWarning("unexpected question: %s", qPrintable(q.text));
            return Choice::Cancel;
        }
        return m_answers.takeFirst();
    });
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestUnsavedWork::edit(MainWindow& window) {
    QSpinBox* micro = window.designer()->controls()->microBatches();
    micro->setValue(micro->value() + 1);
}

void TestUnsavedWork::titleNamesTheFileAndItsChanges() {
    MainWindow& w = *m_window;
    QCOMPARE(w.windowTitle(), QStringLiteral("Untitled[*] — Tessera"));
    QVERIFY(!w.isWindowModified());
    edit(w);
    QVERIFY(w.isWindowModified());
    const QString path = m_dir.filePath(QStringLiteral("title.tessera-plan.json"));
    QVERIFY(w.designer()->saveFile(path));
    QCOMPARE(w.windowTitle(), QStringLiteral("title.tessera-plan.json[*] — Tessera"));
    QVERIFY(!w.isWindowModified());
    w.designer()->undoAction()->trigger(); // back before the save: changed again
    QVERIFY(w.isWindowModified());
    w.designer()->redoAction()->trigger();
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.guard()->asked().isEmpty());
}

void TestUnsavedWork::closeAsksAndCancelKeepsTheWindow() {
    MainWindow& w = *m_window;
    QVERIFY(w.close()); // nothing unsaved: no question
    QVERIFY(w.guard()->asked().isEmpty());
    w.show();
    edit(w);
    const int steps = w.designer()->document()->undoStack()->count();
    m_answers = {Choice::Cancel};
    QVERIFY(!w.close());
    QVERIFY(w.isVisible());
    QCOMPARE(w.guard()->asked().size(), 1);
    const Question& q = w.guard()->asked().first();
    QCOMPARE(q.choices, (QList<Choice>{Choice::Save, Choice::Discard, Choice::Cancel}));
    QVERIFY2(q.details.contains(QStringLiteral("quit")), qPrintable(q.details));
    QCOMPARE(w.designer()->document()->undoStack()->count(), steps); // the edit is still there
    QVERIFY(w.isWindowModified());
    m_answers = {Choice::Discard};
    QVERIFY(w.close());
    QVERIFY(!w.isVisible());
}

void TestUnsavedWork::closeSavesWhenAskedTo() {
    MainWindow& w = *m_window;
    const QString path = m_dir.filePath(QStringLiteral("close.tessera-plan.json"));
    QVERIFY(w.designer()->saveFile(path));
    edit(w);
    const int micro = w.designer()->controls()->microBatches()->value();
    m_answers = {Choice::Save};
    QVERIFY(w.close());
    // The file has the edit: open it in a fresh window.
    MainWindow again(m_session.get());
    QVERIFY(again.designer()->openFile(path));
    QCOMPARE(again.designer()->document()->file().layout().micro_batches(), micro);
    QVERIFY(QFileInfo(path).size() > 0);
}

void TestUnsavedWork::anotherModelAsksAndCancelRevertsTheList() {
    designer::DesignerPanel* panel = m_window->designer();
    QComboBox* combo = panel->modelCombo();
    QVERIFY(panel->selectModel(QStringLiteral("text-gpt"))); // clean: no question
    QVERIFY(m_window->guard()->asked().isEmpty());
    const int gpt = combo->currentIndex();
    const std::string family = panel->document()->file().model().family();
    QCOMPARE(family, std::string("gpt"));
    edit(*m_window);
    m_answers = {Choice::Cancel};
    QVERIFY(panel->selectModel(QStringLiteral("fashion-mnist-vit (")));
    QCOMPARE(m_window->guard()->asked().size(), 1);
    QVERIFY(m_window->guard()->asked().first().details.contains(QStringLiteral("switch")));
    QCOMPARE(combo->currentIndex(), gpt); // the list shows the model still planned
    QCOMPARE(panel->document()->file().model().family(), family);
    QVERIFY(m_window->isWindowModified());
    m_answers = {Choice::Discard};
    QVERIFY(panel->selectModel(QStringLiteral("fashion-mnist-vit (")));
    QCOMPARE(panel->document()->file().model().family(), std::string("vit"));
    QVERIFY(combo->currentText().contains(QStringLiteral("fashion-mnist-vit (")));
}

void TestUnsavedWork::openAndNewLayoutAsk() {
    designer::DesignerPanel* panel = m_window->designer();
    const QString path = m_dir.filePath(QStringLiteral("other.tessera-plan.json"));
    QVERIFY(panel->selectModel(QStringLiteral("text-gpt")));
    QVERIFY(panel->saveFile(path));
    edit(*m_window);
    const v1::PlanFile edited = panel->document()->file();
    m_answers = {Choice::Cancel};
    QVERIFY(!panel->openFile(path));
    QVERIFY(m_window->guard()->asked().last().details.contains(
        QStringLiteral("other.tessera-plan.json")));
    QCOMPARE(panel->document()->file().layout().micro_batches(), edited.layout().micro_batches());
    m_answers = {Choice::Cancel};
    m_window->newLayoutAction()->trigger();
    QCOMPARE(m_window->guard()->asked().size(), 2);
    QCOMPARE(panel->document()->path(), path); // still the same file, still changed
    QVERIFY(m_window->isWindowModified());
    m_answers = {Choice::Discard};
    m_window->newLayoutAction()->trigger();
    QVERIFY(panel->document()->path().isEmpty());
    QVERIFY(!m_window->isWindowModified());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Untitled[*] — Tessera"));
    auto* tabs = m_window->findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(panel));
    QVERIFY(panel->openFile(path)); // clean now: opens without a question
    QCOMPARE(m_window->guard()->asked().size(), 3);
}

void TestUnsavedWork::designerShortcutsWorkFromTheTrainingTab() {
    MainWindow& w = *m_window;
    auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    QCOMPARE(tabs->currentIndex(), 0); // Training
    const QString path = m_dir.filePath(QStringLiteral("keys.tessera-plan.json"));
    QVERIFY(w.designer()->saveFile(path));
    edit(w);
    const int micro = w.designer()->controls()->microBatches()->value();
    tabs->setCurrentIndex(0);
    QVERIFY(!w.designer()->isVisible());
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier); // Save layout
    QVERIFY(!w.isWindowModified());
    QCOMPARE(tabs->currentIndex(), 0);                   // saving needs no look at the drawing
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier); // Undo
    QCOMPARE(w.designer()->controls()->microBatches()->value(), micro - 1);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w.designer())); // shows what it undid
    tabs->setCurrentIndex(0);
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // Redo
    QCOMPARE(w.designer()->controls()->microBatches()->value(), micro);
    QVERIFY(w.guard()->asked().isEmpty());
}

void TestUnsavedWork::importedConfigIsListedOnce() {
    designer::DesignerPanel* panel = m_window->designer();
    QComboBox* combo = panel->modelCombo();
    const int listed = combo->count();
    const QString shipped = QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/"
                                                              "llama-2-7b.json");
    QVERIFY(combo->findText(QStringLiteral("llama-2-7b (config.json)")) >= 0);
    // The same model from a Hugging Face download (config.json in its folder, other spacing).
    QFile in(shipped);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray json = in.readAll();
    const QString folder = m_dir.filePath(QStringLiteral("llama-2-7b"));
    QVERIFY(QDir().mkpath(folder));
    QFile out(folder + QStringLiteral("/config.json"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument::fromJson(json).toJson(QJsonDocument::Compact));
    out.close();
    QVERIFY(panel->importModel(shipped));
    QVERIFY(panel->importModel(out.fileName()));
    QCOMPARE(combo->count(), listed);
    QCOMPARE(combo->currentText(), QStringLiteral("llama-2-7b (config.json)"));
    QVERIFY2(panel->messageText().contains(QStringLiteral("already")),
             qPrintable(panel->messageText()));
    // Another model under a name the list has: listed, under a name of its own.
    QJsonObject other = QJsonDocument::fromJson(json).object();
    other.insert(QStringLiteral("num_hidden_layers"), 2);
    const QString copy = m_dir.filePath(QStringLiteral("small/llama-2-7b.json"));
    QVERIFY(QDir().mkpath(QFileInfo(copy).path()));
    QFile small(copy);
    QVERIFY(small.open(QIODevice::WriteOnly));
    small.write(QJsonDocument(other).toJson());
    small.close();
    m_answers = {Choice::Discard}; // the import switched the model: the plan has changes
    QVERIFY(panel->importModel(copy));
    QCOMPARE(combo->count(), listed + 1);
    QCOMPARE(combo->currentText(), QStringLiteral("llama-2-7b (config.json, small)"));
    // The catalogue itself lists a model once, whatever its files are called.
    QList<designer::ModelEntry> entries;
    auto a = designer::ModelCatalog::importConfig(shipped);
    auto b = designer::ModelCatalog::importConfig(out.fileName());
    QVERIFY(a && b);
    QCOMPARE(designer::ModelCatalog::add(&entries, *a), 0);
    bool added = true;
    QCOMPARE(designer::ModelCatalog::add(&entries, *b, &added), 0);
    QVERIFY(!added);
    QCOMPARE(entries.size(), 1);
}

QTEST_MAIN(TestUnsavedWork)
#include "tst_unsavedwork.moc"
