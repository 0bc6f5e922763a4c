// A job owns every process it starts (issue 45), on two SSH test hosts (network namespaces with
// their own sshd, each running its own worker): each rank leaves a child that ignores SIGTERM.
// After the ranks exit, after a cancel, and after a managed job's relaunch, no process of the job
// is left on either host: every process in a host's namespace is looked at, not only the ranks.
// The test hosts' sessions see no cgroup file system (`ip netns exec` mounts a /sys of their own
// over it), so this is the fallback without a cgroup: tessera-rank's guard alone.
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/ssh/sshprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/providerrun.h"
#include "tests/support/testhosts.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

/// A command job of 2 ranks (data parallel 2, one per worker): /bin/sh -c `script`.
v1::JobSpec shellJob(const QString& name, const QString& script) {
    v1::JobSpec spec;
    spec.set_name(name.toStdString());
    spec.mutable_model()->add_command("/bin/sh");
    spec.mutable_model()->add_command("-c");
    spec.mutable_model()->add_command(script.toStdString());
    spec.mutable_layout()->set_data_parallel(2);
    return spec;
}

} // namespace

class TestContainmentHosts : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    std::unique_ptr<test::TestHosts> m_hosts;
    std::unique_ptr<test::ProviderRun<SshProvider>> m_run;
    QStringList m_leases;

    /// "hostI:pid cmdline" of every process in the test hosts' namespaces whose command line
    /// (arguments joined by spaces) contains `marker`.
    QStringList processesWith(const QByteArray& marker) const {
        QStringList out;
        for (int i = 1; i <= m_hosts->names().size(); ++i) {
            QProcess ip;
            ip.start(QStringLiteral("ip"),
                     {QStringLiteral("netns"), QStringLiteral("pids"),
                      QStringLiteral("tessera-%1-h%2").arg(m_hosts->subnet()).arg(i)});
            ip.waitForFinished(10000);
            for (const QByteArray& pid : ip.readAllStandardOutput().split('\n')) {
                QFile f(QStringLiteral("/proc/%1/cmdline").arg(QString::fromLatin1(pid.trimmed())));
                if (pid.trimmed().isEmpty() || !f.open(QIODevice::ReadOnly)) {
                    continue;
                }
                const QByteArray cmdline = f.readAll().replace('\0', ' ').trimmed();
                if (cmdline.contains(marker)) {
                    out << QStringLiteral("host%1:%2 %3")
                               .arg(i)
                               .arg(QString::fromLatin1(pid.trimmed()),
                                    QString::fromUtf8(cmdline.left(120)));
                }
            }
        }
        return out;
    }

    /// The TERM-ignoring children (command line "sleep `marker`…") on each host: host → count.
    QMap<int, int> childrenPerHost(const QByteArray& marker) const {
        QMap<int, int> out;
        for (const QString& p : processesWith("sleep " + marker)) {
            if (p.section(QLatin1Char(' '), 1).startsWith(QStringLiteral("sleep "))) {
                ++out[p.mid(4, p.indexOf(QLatin1Char(':')) - 4).toInt()];
            }
        }
        return out;
    }

    /// Waits until nothing with `marker` in its command line is left on any host; "" then, else
    /// what is left. Prints how long it took.
    QString leftAfter(const QByteArray& marker, int ms) const {
        QElapsedTimer t;
        t.start();
        QStringList left;
        (void)QTest::qWaitFor(
            [&] {
                left = processesWith(marker);
                return left.isEmpty();
            },
            ms);
        qInfo("nothing of '%s' left on either host after %lld ms", marker.constData(),
              qint64(t.elapsed()));
        return left.join(QStringLiteral("; "));
    }

private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        if (const QString m = test::missingPrograms(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        test::useBuildAndData(m_data.path());
        // tessera-rank's default grace (5 s): longer than Open MPI's 1 s between a cancel's
        // SIGTERM and SIGKILL, which the guard must finish within.
        qunsetenv("TESSERA_RANK_GRACE_MS");
        m_hosts = std::make_unique<test::TestHosts>(2);
        if (m_hosts->missing()) {
            QSKIP(qPrintable(QStringLiteral("no test hosts: ") + m_hosts->error()));
        }
        QVERIFY2(m_hosts->error().isEmpty(), qPrintable(m_hosts->error()));
        m_run = std::make_unique<test::ProviderRun<SshProvider>>(m_data.filePath("leases.sqlite"));
        QVERIFY(m_run->storeOpen);
        const QList<SshHost> hosts =
            m_hosts->sshHosts(QStringLiteral("box-"), m_data.filePath(QStringLiteral("remote")), 1);
        m_run->provider.setHosts(hosts);
        for (const SshHost& h : hosts) {
            QString lease;
            const QString error = test::rentReady(m_run->provider, h.offerId(), 120000, &lease);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            m_leases << lease;
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_run->registry.readyNodes().size(), 2, 30000);
    }

    // Each rank starts a child that ignores SIGTERM and exits 0 once it runs: the job ends
    // SUCCEEDED when its ranks end (not RUNNING until a timeout) and the children are gone.
    void ranksThatLeaveChildrenEndTheJob() {
        JobController jobs(&m_run->registry, nullptr);
        Result<QString> id = jobs.submit(
            shellJob("leaves", "(trap '' TERM; exec sleep 74.25) & "
                               "until pgrep -f '^sleep 74.25' >/dev/null; do sleep 0.01; done; "
                               "echo '@tessera {\"step\":1}'; exit 0"));
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs.state(*id)), 90000);
        QCOMPARE(jobs.state(*id), JobState::Succeeded);
        const QString left = leftAfter("74.25", 10000);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left: ") + left));
    }

    // A cancel ends the ranks and their TERM-ignoring children on both hosts, also one that left
    // the rank's process group and session.
    void cancelEndsEveryProcessOnEveryHost() {
        JobController jobs(&m_run->registry, nullptr);
        Result<QString> id =
            jobs.submit(shellJob("cancelled", "(trap '' TERM; exec sleep 74.5) & "
                                              "setsid sh -c \"trap '' TERM; exec sleep 74.5\" & "
                                              "echo '@tessera {\"step\":1}'; wait"));
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        const QMap<int, int> two{{1, 2}, {2, 2}};
        QTRY_COMPARE_WITH_TIMEOUT(childrenPerHost("74.5"), two, 60000);
        jobs.cancel(*id);
        QTRY_COMPARE_WITH_TIMEOUT(jobs.state(*id), JobState::Cancelled, 60000);
        const QString left = leftAfter("74.5", 10000);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left: ") + left));
    }

    // A managed job that reports no step is found hung after its 3 s and relaunched on the same
    // two workers: the first attempt's children are gone from both hosts by then, the second
    // attempt starts its own, and when that one hangs too (its one relaunch used) the job fails
    // and leaves nothing either.
    void relaunchLeavesNothingOfTheOldAttempt() {
        JobController jobs(&m_run->registry, nullptr);
        QSignalSpy recovering(&jobs, &JobController::jobRecovering);
        QSignalSpy states(&jobs, &JobController::jobStateChanged);
        v1::JobSpec spec = shellJob("relaunched", "(trap '' TERM; exec sleep 74.75) & wait");
        spec.mutable_checkpoint()->set_disabled(true);
        spec.mutable_recovery()->set_max_restarts(1);
        spec.mutable_recovery()->set_hang_timeout_s(3);
        Result<QString> id = jobs.submit(spec);
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        const QMap<int, int> one{{1, 1}, {2, 1}};
        QTRY_COMPARE_WITH_TIMEOUT(childrenPerHost("74.75"), one, 60000);
        const QStringList first = processesWith("sleep 74.75");
        QTRY_VERIFY_WITH_TIMEOUT(!recovering.isEmpty() || isTerminal(jobs.state(*id)), 60000);
        QVERIFY2(!recovering.isEmpty(),
                 qPrintable(states.isEmpty() ? QString() : states.last().at(2).toString()));
        qInfo().noquote() << "relaunched:" << recovering.first().at(2).toString();
        // What the first attempt started is gone (the relaunch waited for its cancel to end it).
        for (const QString& p : first) {
            QVERIFY2(!processesWith("sleep 74.75").contains(p), qPrintable(p + " is still there"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs.state(*id)), 90000);
        QCOMPARE(jobs.state(*id), JobState::Failed);
        const QString left = leftAfter("74.75", 10000);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left: ") + left));
    }

    void cleanupTestCase() {
        if (!m_run) {
            return;
        }
        for (const QString& lease : m_leases) {
            m_run->provider.release(lease);
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            std::none_of(m_leases.begin(), m_leases.end(),
                         [&](const QString& l) { return m_run->provider.lease(l).live(); }),
            30000);
    }
};

QTEST_GUILESS_MAIN(TestContainmentHosts)
#include "tst_containmenthosts.moc"
