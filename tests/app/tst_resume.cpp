// Resume from checkpoint, as a person does it: the Fashion-MNIST example (DP2 on the two local
// workers, a checkpoint every 20 steps) is held before step 41, so the checkpoint of step 40 is
// surely written while the job still runs; it is cancelled, the Job panel's Resume button is
// pressed, and the resumed job (named after the run it resumes) starts at step 41 from that
// checkpoint and succeeds.
#include "app/jobs/jobpanel.h"
#include "app/jobs/resumecontroller.h"
#include "app/mainwindow.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/jobhold.h"
#include "tests/support/testexamples.h"

#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestResume : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cancelledRunResumesFromItsCheckpoint();

private:
    QTemporaryDir m_dir;
};

void TestResume::initTestCase() {
    const QString missing = test::missingForTraining();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QVERIFY(m_dir.isValid());
    const QString error = test::useAppTestFolders(m_dir.path(), 5, 60, [](v1::JobSpec& spec) {
        spec.mutable_checkpoint()->set_every_steps(20);
    });
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("settings")));
}

void TestResume::cancelledRunResumesFromItsCheckpoint() {
    test::JobHold hold(m_dir.filePath(QStringLiteral("holds")));
    QVERIFY(hold.hold(41));
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error = test::rentTwoLocalWorkers(window);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    auto* resume = window.findChild<QPushButton*>(QStringLiteral("resumeButton"));
    QVERIFY(resume);
    QVERIFY(!resume->isEnabled()); // nothing to resume yet
    const QString first = test::launchFashionMnist(window, &error);
    QVERIFY2(!first.isEmpty(), qPrintable(error));
    ResumeController* resumer = window.jobPanel()->resumer();
    QTRY_VERIFY_WITH_TIMEOUT(resumer->checkpointOf(first).has_value() &&
                                 resumer->checkpointOf(first)->step == 40,
                             120000);
    QVERIFY(!resume->isEnabled()); // it still runs
    QVERIFY2(resume->toolTip().contains(QStringLiteral("stopped or failed")),
             qPrintable(resume->toolTip()));

    window.jobPanel()->cancel();
    QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(first), JobState::Cancelled, 30000);
    QTRY_VERIFY(resume->isEnabled());
    QVERIFY2(resume->toolTip().contains(QStringLiteral("step 40")), qPrintable(resume->toolTip()));

    hold.release(41); // the resumed run starts at step 41: let it through
    QSignalSpy metrics(session.controller(), &JobController::metricReceived);
    QTest::mouseClick(resume, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(window.jobPanel()->currentJobId() != first, 30000);
    const QString second = window.jobPanel()->currentJobId();
    QVERIFY2(!second.isEmpty(), qPrintable(window.jobPanel()->messageText()));
    const v1::JobSpec spec = session.controller()->spec(second);
    QVERIFY2(QString::fromStdString(spec.name())
                 .endsWith(QStringLiteral("(resumed from %1)").arg(first)),
             spec.name().c_str());
    const QString from = QString::fromStdString(spec.checkpoint().resume_from());
    QVERIFY2(from.endsWith(QStringLiteral("/jobs/%1/checkpoints/step-40").arg(first)),
             qPrintable(from));
    QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(second), JobState::Succeeded, 120000);
    // It went on from step 41: no loss point of the resumed run at or before step 40.
    qint64 firstStep = -1;
    for (const QList<QVariant>& args : metrics) {
        const auto p = args.at(0).value<MetricPoint>();
        if (p.jobId == second && p.values.contains(QStringLiteral("loss")) && firstStep < 0) {
            firstStep = p.step;
        }
    }
    QVERIFY2(firstStep > 40, qPrintable(QString::number(firstStep)));
    // A succeeded run has nothing to resume.
    QTRY_VERIFY(!resume->isEnabled());
    QVERIFY(resume->toolTip().contains(QStringLiteral("succeeded")));
}

QTEST_MAIN(TestResume)
#include "tst_resume.moc"
