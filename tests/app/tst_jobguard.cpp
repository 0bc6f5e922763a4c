// Closing the window or pressing Release workers while a job runs asks first (local workers):
// Cancel keeps the job and the workers, Stop cancels the job and then closes / releases. Where
// the job's workers are not the app's own, "Keep running" is offered too and leaves it running.
// The rank program is tessera-test-emitter (one rank, a line every 20 ms for ~30 min): it runs
// until the test stops it, however fast the machine.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/windowguard.h"
#include "backend/cluster/localworkers.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/testexamples.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestJobGuard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void closeWithALocalJob();
    void releaseWithALocalJob();
    void closeWithAJobElsewhereMayKeepIt();

private:
    /// Rents `workers` through `provider`, launches the emitter spec and waits until it runs.
    /// Returns the job id, or "" (test failed).
    QString launchEmitter(MainWindow& window, BackendSession& session, LocalWorkers* provider);
    QTemporaryDir m_dir;
    QString m_spec;
    QList<Choice> m_answers;
};

void TestJobGuard::initTestCase() {
    const QString emitter = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-test-emitter");
    for (const QString& program : {QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-worker"),
                                   QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-rsh"), emitter}) {
        if (!QFileInfo(program).isExecutable()) {
            QSKIP(qPrintable(program + QStringLiteral(" is not built; build the whole project")));
        }
    }
    QVERIFY(m_dir.isValid());
    test::useBuildAndDataDir(m_dir.filePath(QStringLiteral("data")));
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("settings")));
    m_spec = m_dir.filePath(QStringLiteral("emitter.json"));
    QFile f(m_spec);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("{\"name\":\"long emitter\",\"model\":{\"command\":[\"%1\","
                           "\"--lines\",\"100000\",\"--interval-ms\",\"20\"]},"
                           "\"training\":{\"maxSteps\":100000,\"globalBatch\":1,"
                           "\"learningRate\":0.1},\"layout\":{\"dataParallel\":1}}")
                .arg(emitter)
                .toUtf8());
}

QString TestJobGuard::launchEmitter(MainWindow& window, BackendSession& session,
                                    LocalWorkers* provider) {
    window.setAsker([this](const Question&) {
        return m_answers.isEmpty() ? Choice::Cancel : m_answers.takeFirst();
    });
    QSignalSpy started(provider, &LocalWorkers::started);
    provider->start(1, 1);
    if (!started.wait(60000) ||
        !QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() >= 1; },
                         30000)) {
        return QString();
    }
    if (!window.jobPanel()->addSpecFile(m_spec)) {
        return QString();
    }
    window.jobPanel()->launch();
    const QString id = test::launchedJob(*window.jobPanel());
    if (id.isEmpty() ||
        !QTest::qWaitFor([&] { return session.controller()->state(id) == JobState::Running; },
                         60000)) {
        return QString();
    }
    return id;
}

void TestJobGuard::closeWithALocalJob() {
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString id = launchEmitter(window, session, session.localWorkers());
    QVERIFY2(!id.isEmpty(), qPrintable(window.jobPanel()->messageText()));

    m_answers = {Choice::Cancel};
    QVERIFY(!window.close());
    QVERIFY(window.isVisible());
    QCOMPARE(window.guard()->asked().size(), 1);
    const Question q = window.guard()->asked().first();
    QCOMPARE(q.choices, (QList<Choice>{Choice::Stop, Choice::Cancel})); // no "keep running"
    QVERIFY2(q.text.contains(id), qPrintable(q.text));
    QVERIFY2(q.details.contains(QStringLiteral("local workers")), qPrintable(q.details));
    QCoreApplication::processEvents(); // anything the answer posted has run: the job goes on
    QCOMPARE(session.controller()->state(id), JobState::Running);

    m_answers = {Choice::Stop};
    QVERIFY(!window.close()); // it closes once the job has stopped
    QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(id), JobState::Cancelled, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 10000);
    QCOMPARE(window.guard()->asked().size(), 2);
}

void TestJobGuard::releaseWithALocalJob() {
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString id = launchEmitter(window, session, session.localWorkers());
    QVERIFY2(!id.isEmpty(), qPrintable(window.jobPanel()->messageText()));

    m_answers = {Choice::Cancel};
    window.clusterPanel()->releaseAction()->trigger();
    QCOMPARE(window.guard()->asked().size(), 1);
    QCOMPARE(window.guard()->asked().first().choices,
             (QList<Choice>{Choice::Stop, Choice::Cancel}));
    QCoreApplication::processEvents(); // anything the answer posted has run
    QCOMPARE(session.controller()->state(id), JobState::Running);
    QCOMPARE(session.localWorkers()->names().size(), 1);

    QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
    m_answers = {Choice::Stop};
    window.clusterPanel()->releaseAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(id), JobState::Cancelled, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 30000); // released after the job ended
    QVERIFY(session.localWorkers()->names().isEmpty());
    QCOMPARE(session.controller()->state(id), JobState::Cancelled); // not "failed"
}

void TestJobGuard::closeWithAJobElsewhereMayKeepIt() {
    BackendSession session;
    // Workers of another provider (here a second local pool the window does not own): they
    // outlive the window, so its job can go on.
    LocalWorkers elsewhere(session.registry());
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString id = launchEmitter(window, session, &elsewhere);
    QVERIFY2(!id.isEmpty(), qPrintable(window.jobPanel()->messageText()));
    QVERIFY(window.guard()->jobsOnLocalWorkers().isEmpty());

    m_answers = {Choice::Cancel};
    QVERIFY(!window.close());
    QCOMPARE(window.guard()->asked().first().choices,
             (QList<Choice>{Choice::Stop, Choice::KeepRunning, Choice::Cancel}));
    // Release stops the app's own workers only: nothing of this job's to ask about.
    window.clusterPanel()->releaseAction()->trigger();
    QCOMPARE(window.guard()->asked().size(), 1);
    m_answers = {Choice::KeepRunning};
    QVERIFY(window.close());
    QVERIFY(!window.isVisible());
    QCoreApplication::processEvents(); // anything the answer posted has run
    QCOMPARE(session.controller()->state(id), JobState::Running);
    session.controller()->cancel(id); // the test's own clean-up
    QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(id), JobState::Cancelled, 30000);
}

QTEST_MAIN(TestJobGuard)
#include "tst_jobguard.moc"
