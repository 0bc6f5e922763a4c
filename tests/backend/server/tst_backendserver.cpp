// The data folder's control socket (BackendServer, BackendClient): Describe, refusals that name
// what is wrong, a job submitted, watched and cancelled through it, and streams ended when the
// backend stops. The client calls block, so they run on another thread while this one serves.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendclient.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "tests/backend/server/streamwatch.h"
#include "tests/backend/testcluster.h"
#include "tests/support/ctlprocess.h"
#include "tests/support/offthread.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using test::offThread;
namespace bv1 = tessera::backend::v1;

namespace {

/// The app's side of a data folder: its session, its claim and its control socket, with
/// `workers` local one-slot workers Ready.
struct Owner {
    explicit Owner(const QString& folder, int workers = 0) : lock(folder) {
        if (!lock.tryClaim(QLatin1String(DataFolderLock::kApp))) {
            qFatal("cannot claim %s", qPrintable(folder));
        }
        if (workers > 0) {
            rentError = test::rentAndWait(*session.localWorkers(), *session.registry(), workers);
        }
        server = std::make_unique<BackendServer>(&session, QLatin1String(DataFolderLock::kApp),
                                                 lock.socketPath());
        started = bool(server->start());
    }
    /// What clients dial.
    QString endpoint() const { return QStringLiteral("unix:") + lock.socketPath(); }
    JobController* jobs() { return session.controller(); }

    BackendSession session;
    DataFolderLock lock;
    std::unique_ptr<BackendServer> server;
    QString rentError;
    bool started = false;
};

} // namespace

class TestBackendServer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
    }

    void describesItselfAndRefusesWhatItCannotDo() {
        Owner owner(m_data.path());
        QVERIFY(owner.started);
        const DataFolderLock& lock = owner.lock;
        const QString endpoint = owner.endpoint();
        QVERIFY(QFileInfo(lock.socketPath()).permissions() ==
                (QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser));

        auto described = offThread([&] { return BackendClient(endpoint).describe(); });
        QVERIFY2(described, described ? "" : described.error().message.c_str());
        QCOMPARE(described->pid(), qint64(::getpid()));
        QCOMPARE(described->role(), std::string("app"));
        QCOMPARE(QString::fromStdString(described->data_folder()), m_data.path());

        // One window at a time: the app does not hand its folder over.
        auto handed =
            offThread([&] { return BackendClient(endpoint).handOver(QStringLiteral("x")); });
        QVERIFY(!handed);
        QVERIFY2(handed.error().message.find("in use by the Tessera window") != std::string::npos,
                 handed.error().message.c_str());

        auto bad = offThread([&] { return BackendClient(endpoint).submit("{\"layout\": ["); });
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(bad.error().message.find("SubmitJob") != std::string::npos,
                 bad.error().message.c_str());

        auto unknown = offThread([&] { return BackendClient(endpoint).cancel("job-nope"); });
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().code, ErrorCode::NotFound);
        QVERIFY2(unknown.error().message.find("job-nope") != std::string::npos,
                 unknown.error().message.c_str());

        test::JobWatch nobody(endpoint, nullptr, QStringLiteral("job-nope"));
        QTRY_VERIFY_WITH_TIMEOUT(nobody.ended(), 10000);
        QCOMPARE(nobody.end().error_code(), grpc::StatusCode::NOT_FOUND);

        // Nothing answers on a socket nobody serves.
        owner.server->stop();
        QVERIFY(!QFile::exists(lock.socketPath()));
        auto gone = offThread([&] { return BackendClient(endpoint).describe(2000); });
        QVERIFY(!gone);
        QCOMPARE(gone.error().code, ErrorCode::Unavailable);
        QVERIFY2(gone.error().message.find(lock.socketPath().toStdString()) != std::string::npos,
                 gone.error().message.c_str());
    }

    void jobIsSubmittedWatchedAndCancelledThroughIt() {
        Owner owner(m_data.path(), 1);
        QVERIFY2(owner.rentError.isEmpty() && owner.started, qPrintable(owner.rentError));
        const QString endpoint = owner.endpoint();

        // Far more lines than the test waits for: the job runs until cancelled, on any machine.
        const std::string json = jobSpecToJson(test::emitterJob(1, 100000, 10));
        auto submitted = offThread([&] { return BackendClient(endpoint).submit(json); });
        QVERIFY2(submitted, submitted ? "" : submitted.error().message.c_str());
        QVERIFY(!submitted->queued());
        const QString job = QString::fromStdString(submitted->job_id());
        QVERIFY(owner.jobs()->jobIds().contains(job));

        test::JobWatch watch(endpoint, nullptr, job);
        QTRY_VERIFY_WITH_TIMEOUT(watch.metricSeqs().size() >= 3, 60000);
        QVERIFY(!watch.states().isEmpty()); // the state first
        auto cancelled = offThread([&] { return BackendClient(endpoint).cancel(job); });
        QVERIFY2(cancelled, cancelled ? "" : cancelled.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(watch.ended(), 30000);
        QVERIFY2(watch.end().ok(), watch.end().error_message().c_str());
        QCOMPARE(watch.states().last(), QStringLiteral("cancelled"));
        QCOMPARE(owner.jobs()->state(job), JobState::Cancelled);

        // A finished job: its state, then the end.
        test::JobWatch late(endpoint, nullptr, job);
        QTRY_VERIFY_WITH_TIMEOUT(late.ended(), 10000);
        QVERIFY(late.end().ok());
        QCOMPARE(late.states(), QStringList{QStringLiteral("cancelled")});
    }

    void stoppingEndsTheStreamsAndLeavesTheJobRunning() {
        Owner owner(m_data.path(), 1);
        QVERIFY2(owner.rentError.isEmpty() && owner.started, qPrintable(owner.rentError));
        const QString endpoint = owner.endpoint();
        Result<QString> job = owner.jobs()->submit(test::emitterJob(1, 100000, 10));
        QVERIFY(job);
        test::JobWatch watch(endpoint, nullptr, *job);
        QTRY_VERIFY_WITH_TIMEOUT(watch.metricSeqs().size() >= 1, 60000);
        QElapsedTimer stopClock;
        stopClock.start();
        owner.server.reset();
        qInfo() << "stopped with a stream open in" << stopClock.elapsed() << "ms";
        QTRY_VERIFY_WITH_TIMEOUT(watch.ended(), 10000);
        QCOMPARE(watch.end().error_code(), grpc::StatusCode::UNAVAILABLE);
        QVERIFY2(watch.end().error_message().find("stopped following") != std::string::npos,
                 watch.end().error_message().c_str());
        QCOMPARE(owner.jobs()->state(*job), JobState::Running);
        owner.jobs()->cancel(*job);
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(owner.jobs()->state(*job)), 30000);
    }

    void ctlRunsAttachesAndCancelsThroughTheOwner() {
        Owner owner(m_data.path(), 1);
        QVERIFY2(owner.rentError.isEmpty() && owner.started, qPrintable(owner.rentError));
        const QString endpoint = owner.endpoint();
        const QString shortJob =
            writeSpec(QStringLiteral("short.json"), test::emitterJob(1, 20, 5));
        const QString longJob =
            writeSpec(QStringLiteral("long.json"), test::emitterJob(1, 100000, 10));

        // run (no --workers): submitted to the owner's cluster and followed to its end.
        test::CtlProcess run({QStringLiteral("run"), shortJob});
        QTRY_VERIFY_WITH_TIMEOUT(run.ended(), 60000);
        QVERIFY2(run.exitCode() == 0, qPrintable(run.output()));
        QVERIFY2(run.output().contains(
                     QStringLiteral("submitted to the Tessera window (pid %1)").arg(::getpid())),
                 qPrintable(run.output()));

        // run --local: a local cluster of its own beside the owner, which does not see the job.
        const int owned = int(owner.jobs()->jobIds().size());
        test::CtlProcess local({QStringLiteral("run"), shortJob, QStringLiteral("--local")});
        QTRY_VERIFY_WITH_TIMEOUT(local.ended(), 120000);
        QVERIFY2(local.exitCode() == 0, qPrintable(local.output()));
        QVERIFY2(!local.output().contains(QStringLiteral("submitted to")),
                 qPrintable(local.output()));
        QCOMPARE(int(owner.jobs()->jobIds().size()), owned);

        // run --detach: exits once submitted; the owner follows the job.
        test::CtlProcess detached({QStringLiteral("run"), longJob, QStringLiteral("--detach")});
        QTRY_VERIFY_WITH_TIMEOUT(detached.ended(), 30000);
        QVERIFY2(detached.exitCode() == 0, qPrintable(detached.output()));
        const QStringList running = owner.jobs()->jobIds().filter(QStringLiteral("job-"));
        QString job;
        for (const QString& id : running) {
            if (!isTerminal(owner.jobs()->state(id))) {
                job = id;
            }
        }
        QVERIFY2(!job.isEmpty() && detached.output().contains(job), qPrintable(detached.output()));

        test::CtlProcess status({QStringLiteral("status")});
        QTRY_VERIFY_WITH_TIMEOUT(status.ended(), 30000);
        QVERIFY2(
            status.output().contains(QStringLiteral("the Tessera window (pid %1)").arg(::getpid())),
            qPrintable(status.output()));

        // A second follower beside the owner is refused; attach goes through it.
        test::CtlProcess beside({QStringLiteral("attach"), job, QStringLiteral("--workers"),
                                 QStringLiteral("127.0.0.1:1"), QStringLiteral("--token-file"),
                                 longJob});
        QTRY_VERIFY_WITH_TIMEOUT(beside.ended(), 30000);
        QCOMPARE(beside.exitCode(), 2);
        QVERIFY2(beside.output().contains(QStringLiteral("is followed by the Tessera window")),
                 qPrintable(beside.output()));
        test::CtlProcess attach({QStringLiteral("attach"), job});
        QTRY_VERIFY_WITH_TIMEOUT(attach.output().contains(QStringLiteral("following it through")),
                                 30000);

        // cancel through the owner: the job ends cancelled; the attach ends with it (exit 1).
        test::CtlProcess cancel({QStringLiteral("cancel"), job});
        QTRY_VERIFY_WITH_TIMEOUT(cancel.ended(), 60000);
        QVERIFY2(cancel.exitCode() == 0, qPrintable(cancel.output()));
        QCOMPARE(owner.jobs()->state(job), JobState::Cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(attach.ended(), 30000);
        QCOMPARE(attach.exitCode(), 1);

        // --timeout through the owner: cancelled past it, exit 1 (the job cannot end sooner).
        test::CtlProcess timed(
            {QStringLiteral("run"), longJob, QStringLiteral("--timeout"), QStringLiteral("2")});
        QTRY_VERIFY_WITH_TIMEOUT(timed.ended(), 60000);
        QCOMPARE(timed.exitCode(), 1);
        QVERIFY2(timed.output().contains(QStringLiteral("--timeout 2 s")),
                 qPrintable(timed.output()));
        QVERIFY2(timed.output().contains(QStringLiteral("cancelled")), qPrintable(timed.output()));

        // Bad input through the owner is named as without it.
        const QString broken = QDir(m_data.path()).filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"layout\": [") > 0);
        f.close();
        test::CtlProcess bad({QStringLiteral("run"), broken});
        QTRY_VERIFY_WITH_TIMEOUT(bad.ended(), 30000);
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY2(bad.output().contains(QStringLiteral("broken.json")), qPrintable(bad.output()));
        test::CtlProcess finished({QStringLiteral("attach"), job});
        QTRY_VERIFY_WITH_TIMEOUT(finished.ended(), 30000);
        QCOMPARE(finished.exitCode(), 2);
        QVERIFY2(finished.output().contains(QStringLiteral("cancelled already")),
                 qPrintable(finished.output()));
    }

    void serveRentsNoLocalWorkers() {
        // Auto-provision on, only the local provider to rent from: serve's autoscaler refuses
        // (the window's rents one: detachedRunWaitsUntilItsQueuedJobRuns), since a local worker
        // would end with serve and with every hand-over of the folder.
        BackendSession service(QString(), nullptr, BackendSession::Host::Service);
        service.autoscaler()->setPolicy({true, 0.0, 0.0, 8, 600});
        Result<QString> refused = service.autoscaler()->submit(test::emitterJob(1, 10, 5));
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("offers that fit have 0") != std::string::npos,
                 refused.error().message.c_str());
        QVERIFY(service.localWorkers()->names().isEmpty());
    }

    void detachedRunWaitsUntilItsQueuedJobRuns() {
        Owner owner(m_data.path());
        QVERIFY(owner.started);
        owner.session.autoscaler()->setPolicy({true, 0.0, 0.0, 8, 600});
        const QString spec = writeSpec(QStringLiteral("queued.json"), test::emitterJob(1, 20, 5));
        test::CtlProcess run({QStringLiteral("run"), spec, QStringLiteral("--detach")});
        QTRY_VERIFY_WITH_TIMEOUT(run.ended(), 60000);
        QVERIFY2(run.exitCode() == 0, qPrintable(run.output()));
        QVERIFY2(run.output().contains(QStringLiteral("queued at the Tessera window")),
                 qPrintable(run.output()));
        // The id it leaves the user with is the job's, one the owner follows.
        const QStringList jobs = owner.jobs()->jobIds();
        QCOMPARE(jobs.size(), 1);
        QVERIFY2(run.output().contains(QStringLiteral("job %1 goes on").arg(jobs.first())),
                 qPrintable(run.output()));
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(owner.jobs()->state(jobs.first())), 60000);
        QCOMPARE(owner.jobs()->state(jobs.first()), JobState::Succeeded);
    }

    void aDetachedCtlRunIsLeftToItsWorkers() {
        Owner owner(m_data.path());
        QVERIFY(owner.started);
        JobRecord own;
        own.id = QStringLiteral("job-ctl-1");
        own.name = QStringLiteral("detached by tessera-ctl");
        own.specJson = QString::fromStdString(jobSpecToJson(test::emitterJob(1, 10, 5)));
        own.state = JobState::Running;
        own.launcher = QStringLiteral("tessera-ctl");
        QVERIFY(owner.session.store()->recordJob(own));
        test::CtlProcess attach({QStringLiteral("attach"), own.id});
        QTRY_VERIFY_WITH_TIMEOUT(attach.ended(), 30000);
        QCOMPARE(attach.exitCode(), 2);
        QVERIFY2(attach.output().contains(QStringLiteral("with its --workers")),
                 qPrintable(attach.output()));
        test::CtlProcess status({QStringLiteral("status")});
        QTRY_VERIFY_WITH_TIMEOUT(status.ended(), 30000);
        QVERIFY2(status.output().contains(QStringLiteral("one launched by tessera-ctl with its "
                                                         "--workers")),
                 qPrintable(status.output()));
    }

    void serveRefusesASocketPathTooLong() {
        const QString deep = m_data.path() + QStringLiteral("/") + QString(110, QLatin1Char('d'));
        qputenv("TESSERA_DATA_DIR", deep.toUtf8());
        test::CtlProcess serve({QStringLiteral("serve")});
        QTRY_VERIFY_WITH_TIMEOUT(serve.ended(), 30000);
        qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8());
        QCOMPARE(serve.exitCode(), 2);
        QVERIFY2(serve.output().contains(QStringLiteral("longer than the 107 bytes")),
                 qPrintable(serve.output()));
    }

private:
    QString writeSpec(const QString& name, const v1::JobSpec& spec) {
        const QString path = QDir(m_data.path()).filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QByteArray::fromStdString(jobSpecToJson(spec))) <= 0) {
            qFatal("cannot write %s", qPrintable(path));
        }
        return path;
    }

    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestBackendServer)
#include "tst_backendserver.moc"
