// Issue 18's acceptance for example (b), as a person does it in the app: rent two local workers,
// pick the character GPT in the designer, plan on the live cluster, draw two pipeline stages by
// assigning layers to the second worker, and "Launch with program…" the pipeline-parallel
// PyTorch example with its folder shipped. The job's losses reach the history and equal, step by
// step within 1e-4, those of the same program run in one process (--reference) on the same
// layout file.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/designerpanel.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/layoutcontrols.h"
#include "app/designer/plandocument.h"
#include "app/designer/programlaunchdialog.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/service/backendsession.h"
#include "tests/support/testexamples.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListView>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <map>

using namespace tessera;

namespace {
const char* kPython = "/usr/bin/python3"; // Debian's, with python3-torch
const QString kExample = QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/pytorch");
const QString kArguments = QStringLiteral("pipeline_gpt.py --max-steps 8 --log-every 1 "
                                          "--no-checkpoint");

bool hasTorch() {
    QProcess p;
    p.start(kPython, {"-c", "import torch.distributed as d; assert d.is_gloo_available()"});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

/// step → loss of the `@tessera` lines in `output`.
std::map<qint64, double> lossesOf(const QByteArray& output) {
    std::map<qint64, double> out;
    for (const QByteArray& line : output.split('\n')) {
        if (!line.startsWith("@tessera ")) {
            continue;
        }
        const QJsonObject o = QJsonDocument::fromJson(line.mid(9)).object();
        if (o.contains("loss")) {
            out[o["step"].toInteger()] = o["loss"].toDouble();
        }
    }
    return out;
}
} // namespace

class TestDesignerProgram : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() {
        if (!hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        QVERIFY(m_dir.isValid());
        test::useBuildAndDataDir(m_dir.filePath(QStringLiteral("data")));
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    }

    void pipelineExampleFromADrawnLayout() {
        BackendSession session;
        MainWindow window(&session);
        window.resize(1300, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy startFailed(session.localWorkers(), &LocalWorkers::startFailed);
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("rentButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.clusterPanel()->model()->readyCount() == 2 || !startFailed.isEmpty(), 60000);
        QVERIFY(startFailed.isEmpty());

        // The designer: the character GPT (embedding, block0..2, ln_f, head) on the two workers.
        designer::DesignerPanel* panel = window.designer();
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(panel);
        QTRY_VERIFY(panel->isVisible());
        QVERIFY(panel->selectModel(QStringLiteral("text-gpt")));
        QVERIFY(panel->useLiveCluster());
        designer::PlanDocument* doc = panel->document();
        QCOMPARE(panel->paletteModel()->rowCount(), 6);
        // The example is data parallel over both: make it one replica, which leaves the second
        // worker idle, then draw stage 2 there: block2, ln_f and head (Ctrl+Return assigns).
        panel->controls()->dataParallel()->setValue(1);
        QCOMPARE(doc->layout().data_parallel(), 1);
        QListView* palette = panel->palette();
        palette->setFocus();
        palette->setCurrentIndex(panel->paletteModel()->index(3));
        palette->selectionModel()->select(
            QItemSelection(panel->paletteModel()->index(3), panel->paletteModel()->index(5)),
            QItemSelectionModel::ClearAndSelect);
        panel->deviceCombo()->setCurrentIndex(1);
        QTest::keyClick(palette, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(doc->layout().stages_size(), 2);
        QCOMPARE(doc->layout().stages(0).last_layer(), 2);
        QCOMPARE(doc->layout().stages(1).first_layer(), 3);
        panel->controls()->microBatches()->setValue(4);
        QCOMPARE(doc->layout().micro_batches(), 4);

        // Launch with program…: the dialog as a person fills it in.
        QVERIFY(panel->launchProgramAction()->isEnabled());
        panel->launchProgramAction()->trigger();
        designer::ProgramLaunchDialog* dialog = panel->programDialog();
        QTRY_VERIFY(dialog->isVisible());
        auto edit = [dialog](const char* name, const QString& text) {
            auto* e = dialog->findChild<QLineEdit*>(QLatin1String(name));
            e->clear();
            QTest::keyClicks(e, text);
        };
        edit("programEdit", QString::fromLatin1(kPython));
        edit("argumentsEdit", kArguments);
        edit("workdirEdit", kExample);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QTRY_VERIFY(!window.jobPanel()->currentJobId().isEmpty());
        const QString jobId = window.jobPanel()->currentJobId();
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(window.jobPanel()->currentJobState()), 300000);
        QVERIFY2(
            window.jobPanel()->currentJobState() == JobState::Succeeded,
            qPrintable(window.jobPanel()->messageText() + "\n" +
                       window.findChild<QWidget*>("logPane")->property("plainText").toString()));

        // Each rank built its drawn stage only, and said so (kept in the history with its rank).
        QStringList stagesSaid;
        for (const LogRecord& l : session.store()->logLines(jobId)) {
            if (l.text.contains(QStringLiteral(": stage "))) {
                stagesSaid << QStringLiteral("%1|%2").arg(l.rank).arg(l.text.section(',', 0, 0));
            }
        }
        stagesSaid.sort();
        QCOMPARE(stagesSaid.size(), 2);
        QVERIFY2(stagesSaid[0].startsWith("0|rank 0: stage 0 layers 0..2"),
                 qPrintable(stagesSaid[0]));
        QVERIFY2(stagesSaid[1].startsWith("1|rank 1: stage 1 layers 3..5"),
                 qPrintable(stagesSaid[1]));

        // The charted losses, from the history: one per step, from the last stage.
        std::map<qint64, double> pipeline;
        for (const MetricPoint& p : session.store()->points(jobId)) {
            if (p.values.contains(QStringLiteral("loss"))) {
                pipeline[p.step] = p.values.value(QStringLiteral("loss"));
            }
        }
        QCOMPARE(int(pipeline.size()), 8);

        // The same program in one process on the layout file the ranks read.
        QString layoutFile;
        QDirIterator it(m_dir.path(), {QStringLiteral("layout.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext() && layoutFile.isEmpty()) {
            const QString path = it.next();
            if (path.contains(QStringLiteral("/jobs/") + jobId + QLatin1Char('/'))) {
                layoutFile = path;
            }
        }
        QVERIFY2(!layoutFile.isEmpty(), "no layout.json of the job under the workers' folders");
        QProcess reference;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TESSERA_LAYOUT_FILE"), layoutFile);
        env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(TESSERA_BUILD_DIR "/bin/python"));
        reference.setProcessEnvironment(env);
        reference.setWorkingDirectory(kExample);
        reference.start(kPython, kArguments.split(' ', Qt::SkipEmptyParts)
                                     << QStringLiteral("--reference"));
        QVERIFY(reference.waitForFinished(240000));
        const QByteArray out = reference.readAllStandardOutput();
        QVERIFY2(reference.exitCode() == 0, reference.readAllStandardError().constData());
        const std::map<qint64, double> one = lossesOf(out);
        QCOMPARE(int(one.size()), 8);
        double worst = 0;
        for (const auto& [step, loss] : one) {
            QVERIFY2(pipeline.count(step), qPrintable(QStringLiteral("step %1").arg(step)));
            worst = std::max(worst, std::abs(pipeline[step] - loss));
            QVERIFY2(std::abs(pipeline[step] - loss) <= 1e-4,
                     qPrintable(QStringLiteral("step %1: pipeline %2, one process %3")
                                    .arg(step)
                                    .arg(pipeline[step], 0, 'g', 10)
                                    .arg(loss, 0, 'g', 10)));
        }
        qInfo("PP2 1F1B from the designer: 8 steps, largest |loss - one-process loss| = %.3g",
              worst);

        QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
    }
};

QTEST_MAIN(TestDesignerProgram)
#include "tst_designerprogram.moc"
