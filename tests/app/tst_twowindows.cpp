// Two windows on one server (issue 48): a job launched in one is drawn and logged in the other,
// which found it in the server's job list, from its first point, and both see it end. The job is
// held before a step, so it still runs when the second window looks, however fast the machine.
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/logpane.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/runlist.h"
#include "backend/client/jobswatch.h"
#include "backend/client/serverconnection.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"
#include "tests/support/appjob.h"
#include "tests/support/jobhold.h"
#include "worker/common/spec_io.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestTwoWindows : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        m_hold = std::make_unique<test::JobHold>(m_data.filePath(QStringLiteral("holds")));
    }

    void aJobLaunchedInOneWindowIsDrawnInTheOther() {
        constexpr int kSteps = 30, kHeldAt = 16;
        auto folder = test::ServedFolder::started(m_data.path(), 1);
        QVERIFY2(folder->error.isEmpty(), qPrintable(folder->error));
        client::ServerConnection first(client::ServerAddress{folder->socket(), nullptr});
        client::ServerConnection second(client::ServerAddress{folder->socket(), nullptr});
        first.start();
        second.start();
        MainWindow launching(folder->session.get(), &first);
        MainWindow watching(folder->session.get(), &second);
        launching.show();
        watching.show();

        QVERIFY(m_hold->hold(kHeldAt));
        QVERIFY(launching.jobPanel()->addSpecFile(writeEmitterSpec(kSteps)));
        launching.jobPanel()->launch();
        QString error;
        const QString id = test::launchedJob(*launching.jobPanel(), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));

        // The other window found it and draws it from its first point while it is held.
        QTRY_COMPARE_WITH_TIMEOUT(watching.chart()->jobId(), id, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(watching.chart()->lossPointCount(), kHeldAt - 1, 60000);
        QVERIFY2(watching.logPane()->toPlainText().contains(
                     QStringLiteral("[%1] running on the server").arg(id)),
                 qPrintable(watching.logPane()->toPlainText()));
        QCOMPARE(watching.jobPanel()->currentJobId(), QString()); // it launched nothing
        m_hold->release(kHeldAt);
        QTRY_COMPARE_WITH_TIMEOUT(launching.jobPanel()->currentJobState(), JobState::Succeeded,
                                  60000);
        QTRY_COMPARE_WITH_TIMEOUT(watching.jobsWatch()->state(id), JobState::Succeeded, 30000);
        QCOMPARE(watching.chart()->lossPointCount(), kSteps); // each point once
        QCOMPARE(launching.chart()->lossPointCount(), kSteps);
        QVERIFY2(watching.logPane()->toPlainText().contains(QStringLiteral("emitter: 30 lines")),
                 qPrintable(watching.logPane()->toPlainText()));
    }

    void anotherUsersCancelIsRefusedAnAdminsIsNot() {
        // Alice launches over mutual TLS; Bob sees her job and asks to cancel it from his Runs
        // list: the server refuses, naming her, and the job runs on. The server's own user (the
        // socket's caller, an admin) cancels it.
        test::ServedFolder folder(m_data.path(), 1);
        QVERIFY2(folder.error.isEmpty(), qPrintable(folder.error));
        std::shared_ptr<const tls::Identity> alice;
        const QString serving = test::serveOverTls(folder, QStringLiteral("alice"), &alice);
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        const auto bob = test::userIdentity(QStringLiteral("bob"));
        QVERIFY(bob);
        const QString address = QStringLiteral("127.0.0.1:%1").arg(folder.server->tcpPort());
        client::ServerConnection aliceLink(client::ServerAddress{address, alice});
        client::ServerConnection bobLink(client::ServerAddress{address, bob});
        client::ServerConnection adminLink(client::ServerAddress{folder.socket(), nullptr});
        for (client::ServerConnection* link : {&aliceLink, &bobLink, &adminLink}) {
            link->start();
        }
        MainWindow alices(folder.session.get(), &aliceLink);
        MainWindow bobs(folder.session.get(), &bobLink);
        MainWindow admins(folder.session.get(), &adminLink);

        QVERIFY(m_hold->hold(10));
        QVERIFY(alices.jobPanel()->addSpecFile(writeEmitterSpec(30)));
        alices.jobPanel()->launch();
        QString error;
        const QString id = test::launchedJob(*alices.jobPanel(), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(bobs.jobsWatch()->state(id), JobState::Running, 30000);

        bobs.runList()->requestCancel(id);
        QTRY_VERIFY_WITH_TIMEOUT(
            bobs.logPane()->toPlainText().contains(QStringLiteral("[%1] not cancelled").arg(id)),
            20000);
        const QString bobLog = bobs.logPane()->toPlainText();
        QVERIFY2(bobLog.contains(QStringLiteral("started by alice")), qPrintable(bobLog));
        QCOMPARE(alices.jobPanel()->currentJobState(), JobState::Running);

        admins.runList()->requestCancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(alices.jobPanel()->currentJobState(), JobState::Cancelled, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(bobs.jobsWatch()->state(id), JobState::Cancelled, 30000);
        QVERIFY(!admins.logPane()->toPlainText().contains(QStringLiteral("not cancelled")));
        m_hold->release(10);
    }

    void cleanupTestCase() { m_hold.reset(); }

private:
    /// A spec file running the test emitter for `steps` steps on one rank.
    QString writeEmitterSpec(int steps) {
        const QString spec = m_data.filePath(QStringLiteral("emitter-%1.json").arg(steps));
        QFile file(spec);
        if (file.open(QIODevice::WriteOnly)) {
            file.write(QByteArray::fromStdString(jobSpecToJson(test::emitterJob(1, steps, 5))));
        }
        return spec;
    }

    QTemporaryDir m_data;
    std::unique_ptr<test::JobHold> m_hold;
};

QTEST_MAIN(TestTwoWindows)
#include "tst_twowindows.moc"
