// tessera-server's gate and people (issue 48): over TCP only mutual TLS with a user's certificate
// from the cluster CA is admitted (plaintext, another CA's certificate, a worker's certificate
// and a revoked one are refused, naming why); each certificate is a user; a person cancels only
// their own job, an admin anyone's; every change is in the audit log. An in-process backend with
// one local worker serves; the client calls block, so they run on another thread.
#include "backend/autoscale/autoscalepolicyio.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendclient.h"
#include "backend/tls/clientcerts.h"
#include "backend/tls/clusterca.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/server/streamwatch.h"
#include "tests/backend/testcluster.h"
#include "tests/support/ctlprocess.h"
#include "tests/support/offthread.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <future>

using namespace tessera;
using test::offThread;

namespace {

/// A user's identity: a certificate of `ca` for `user` (OU "tessera users" unless `unit` says
/// otherwise), trusting `trust` as the server's CA.
std::shared_ptr<const tls::Identity> identityOf(const tls::KeyAndCert& ca, const std::string& user,
                                                const std::string& trust,
                                                const std::string& unit = kUserUnit) {
    tls::Subject subject{user, {}, {}, unit, true};
    auto pair = tls::issue(ca, subject, tls::Validity::days(1));
    if (!pair) {
        qFatal("cannot issue: %s", pair.error().message.c_str());
    }
    return std::make_shared<const tls::Identity>(tls::Identity{trust, pair->certPem, pair->keyPem});
}

} // namespace

class TestServerAccess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // the policy's QSettings: not the person's
        QSettings().remove(QStringLiteral("autoscale"));
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        m_folder = std::make_unique<test::ServedFolder>(m_data.path(), 1);
        QVERIFY2(m_folder->error.isEmpty(), qPrintable(m_folder->error));
        m_session = m_folder->session.get();

        auto ca = ClusterCa::open();
        QVERIFY2(ca, ca ? "" : ca.error().message.c_str());
        m_ca = std::make_unique<ClusterCa>(std::move(*ca));
        const ClientCertificates clients(m_ca->folder());
        for (const char* user : {"alice", "bob", "dave", "carol"}) {
            auto pair = clients.issue(*m_ca, QLatin1String(user));
            QVERIFY2(pair, pair ? "" : pair.error().message.c_str());
            m_users[user] = std::make_shared<const tls::Identity>(
                tls::Identity{m_ca->caCertPem(), pair->certPem, pair->keyPem});
        }
        auto revoked = clients.revoke(QStringLiteral("carol"));
        QVERIFY2(revoked && *revoked == 1, revoked ? "" : revoked.error().message.c_str());

        auto server = m_ca->issueServer({QStringLiteral("127.0.0.1")});
        QVERIFY(server);
        ServerAccess access;
        access.localUser = QStringLiteral("headnode");
        access.admins = {QStringLiteral("bob")};
        access.revokedPath = clients.revokedPath();
        access.tcpAddress = QStringLiteral("127.0.0.1:0");
        access.tcpIdentity = {m_ca->caCertPem(), server->certPem, server->keyPem};
        const QString serving = m_folder->serve(access);
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        m_server = m_folder->server.get();
        QVERIFY(m_server->tcpPort() > 0);
        m_address = QStringLiteral("127.0.0.1:%1").arg(m_server->tcpPort());
    }

    void cleanupTestCase() { m_folder.reset(); }

    void eachCertificateIsAUser() {
        for (const auto& [user, admin] : {std::pair{"alice", false}, {"bob", true}}) {
            auto described = offThread([&] { return client(user).describe(); });
            QVERIFY2(described, described ? "" : described.error().message.c_str());
            QCOMPARE(QString::fromStdString(described->user()), QLatin1String(user));
            QCOMPARE(described->admin(), admin);
            QCOMPARE(described->role(), std::string("server"));
            QVERIFY(described->listen_size() == 2);
        }
        // The Unix socket's caller is the server's own user, an admin.
        auto local = offThread([&] { return BackendClient(m_folder->socket()).describe(); });
        QVERIFY2(local, local ? "" : local.error().message.c_str());
        QCOMPARE(local->user(), std::string("headnode"));
        QVERIFY(local->admin());
    }

    void plaintextIsRefused() {
        auto plain = offThread([&] { return BackendClient(m_address).describe(3000); });
        QVERIFY(!plain);
        QCOMPARE(plain.error().code, ErrorCode::Unavailable);
        QVERIFY2(plain.error().message.find(m_address.toStdString()) != std::string::npos,
                 plain.error().message.c_str());
    }

    void anotherCasCertificateIsRefused() {
        auto other = tls::createCa("another CA", tls::Validity::days(1));
        QVERIFY(other);
        // Trusting the right CA but holding a certificate of another one: the handshake fails.
        auto identity = identityOf(*other, "mallory", m_ca->caCertPem());
        auto refused = offThread([&] { return BackendClient(m_address, identity).describe(3000); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Unavailable);
    }

    void aRevokedCertificateIsRefusedNamingIt() {
        auto refused = offThread([&] { return client("carol").describe(3000); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(refused.error().message.find("'carol'") != std::string::npos &&
                     refused.error().message.find("revoked") != std::string::npos,
                 refused.error().message.c_str());
        // Revoked while the server runs: refused from the next call, no restart.
        auto before = offThread([&] { return client("dave").describe(3000); });
        QVERIFY(before);
        QVERIFY(ClientCertificates(m_ca->folder()).revoke(QStringLiteral("dave")));
        auto after = offThread([&] { return client("dave").describe(3000); });
        QVERIFY(!after);
        QVERIFY2(after.error().message.find("revoked") != std::string::npos,
                 after.error().message.c_str());
        // Unknown names are said so, with who has certificates.
        auto unknown = ClientCertificates(m_ca->folder()).revoke(QStringLiteral("zoe"));
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().code, ErrorCode::NotFound);
        QVERIFY2(unknown.error().message.find("alice") != std::string::npos,
                 unknown.error().message.c_str());
    }

    void aWorkersCertificateIsNoUser() {
        auto worker = m_ca->issueWorker(QStringLiteral("gpu-1"), {QStringLiteral("127.0.0.1")});
        QVERIFY(worker);
        auto identity = std::make_shared<const tls::Identity>(
            tls::Identity{m_ca->caCertPem(), worker->certPem, worker->keyPem});
        auto refused = offThread([&] { return BackendClient(m_address, identity).describe(3000); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(refused.error().message.find("not a user's") != std::string::npos,
                 refused.error().message.c_str());
    }

    void everybodySeesTheClusterLive() {
        test::ClusterWatch alice(m_address, m_users.at("alice"));
        test::ClusterWatch local(m_folder->socket(), nullptr);
        QTRY_COMPARE_WITH_TIMEOUT(alice.readyNodes().size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(local.readyNodes().size(), 1, 30000);
        QCOMPARE(alice.last().nodes(0).provider(), std::string("local"));
        QCOMPARE(alice.last().autoscale().enabled(), false);
        QCOMPARE(alice.last().budget_level(), std::string("fine"));

        // A second worker joins: both clients see it without asking.
        const QString rented =
            test::rentAndWait(*m_session->localWorkers(), *m_session->registry(), 1);
        QVERIFY2(rented.isEmpty(), qPrintable(rented));
        QTRY_COMPARE_WITH_TIMEOUT(alice.readyNodes().size(), 2, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(local.readyNodes().size(), 2, 30000);

        // tessera-ctl nodes over TLS prints the same cluster.
        const QString dir = QDir(m_data.path()).filePath(QStringLiteral("id-alice"));
        QVERIFY(QDir().mkpath(dir));
        const tls::Identity& id = *m_users.at("alice");
        for (const auto& [name, text] : {std::pair{"ca.crt", &id.caPem},
                                         {"client.crt", &id.certPem},
                                         {"client.key", &id.keyPem}}) {
            QFile f(QDir(dir).filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text->data(), qint64(text->size()));
        }
        test::CtlProcess nodes({QStringLiteral("nodes"), QStringLiteral("--server"), m_address,
                                QStringLiteral("--identity"), dir});
        QTRY_VERIFY_WITH_TIMEOUT(nodes.ended(), 30000);
        QVERIFY2(nodes.exitCode() == 0, qPrintable(nodes.output()));
        for (const QString& name : alice.readyNodes()) {
            QVERIFY2(nodes.output().contains(name), qPrintable(nodes.output()));
        }
        QVERIFY2(nodes.output().contains(QStringLiteral("the tessera-server at ") + m_address),
                 qPrintable(nodes.output()));
    }

    void onlyTheOwnerOrAnAdminCancels() {
        // Far more lines than the test waits for: the job runs until cancelled, on any machine.
        const std::string json = jobSpecToJson(test::emitterJob(1, 100000, 10));
        auto submitted = offThread([&] { return client("alice").submit(json); });
        QVERIFY2(submitted, submitted ? "" : submitted.error().message.c_str());
        const QString job = QString::fromStdString(submitted->job_id());
        QCOMPARE(m_session->store()->job(job).owner, QStringLiteral("alice"));
        QCOMPARE(m_server->ownerOf(job), QStringLiteral("alice"));

        // A fresh user who is no admin: refused, naming the owner.
        const ClientCertificates clients(m_ca->folder());
        auto erin = clients.issue(*m_ca, QStringLiteral("erin"));
        QVERIFY(erin);
        m_users["erin"] = std::make_shared<const tls::Identity>(
            tls::Identity{m_ca->caCertPem(), erin->certPem, erin->keyPem});
        auto refused = offThread([&] { return client("erin").cancel(job); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(refused.error().message.find("started by alice") != std::string::npos,
                 refused.error().message.c_str());
        QVERIFY(!isTerminal(m_session->controller()->state(job)));

        // The admin may.
        auto cancelled = offThread([&] { return client("bob").cancel(job); });
        QVERIFY2(cancelled, cancelled ? "" : cancelled.error().message.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(m_session->controller()->state(job), JobState::Cancelled, 30000);

        // Who did what, in order, readable by anybody.
        auto audit = offThread([&] { return client("alice").audit(10); });
        QVERIFY2(audit, audit ? "" : audit.error().message.c_str());
        QStringList lines;
        for (const auto& l : audit->lines()) {
            lines << QString::fromStdString(l.user() + " " + l.action() + " " + l.target() + " " +
                                            l.outcome());
        }
        const QStringList expected{QStringLiteral("alice submit %1 ok").arg(job),
                                   QStringLiteral("erin cancel %1 refused").arg(job),
                                   QStringLiteral("bob cancel %1 ok").arg(job)};
        QCOMPARE(lines.mid(lines.size() - 3), expected);
        QVERIFY2(QString::fromStdString(audit->lines().rbegin()->detail())
                     .contains(QStringLiteral("as an admin; started by alice")),
                 audit->lines().rbegin()->detail().c_str());
    }

    void aLeaseIsReleasedByItsRenterOrAnAdmin() {
        auto offers = offThread([&] { return client("alice").offers(); });
        QVERIFY2(offers, offers ? "" : offers.error().message.c_str());
        const auto local = std::find_if(offers->offers().begin(), offers->offers().end(),
                                        [](const auto& o) { return o.provider() == "local"; });
        QVERIFY(local != offers->offers().end());

        test::ClusterWatch watch(m_address, m_users.at("alice"));
        auto rented = offThread([&] {
            return client("alice").rent(QStringLiteral("local"),
                                        QString::fromStdString(local->id()));
        });
        QVERIFY2(rented, rented ? "" : rented.error().message.c_str());
        QCOMPARE(rented->size(), 1);
        const QString lease = rented->first();
        const auto leaseState = [&] {
            const backend::v1::ClusterSnapshot snapshot = watch.last();
            for (const auto& l : snapshot.leases()) {
                if (QString::fromStdString(l.id()) == lease) {
                    return QString::fromStdString(l.state() + "/" + l.user());
                }
            }
            return QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(leaseState(), QStringLiteral("ready/alice"), 30000);

        auto refused = offThread([&] { return client("erin").release(lease); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(refused.error().message.find("rented by alice") != std::string::npos,
                 refused.error().message.c_str());
        auto unknown =
            offThread([&] { return client("alice").release(QStringLiteral("lease-x")); });
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().code, ErrorCode::NotFound);

        auto released = offThread([&] { return client("alice").release(lease); });
        QVERIFY2(released, released ? "" : released.error().message.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(leaseState(), QStringLiteral("released/alice"), 30000);

        auto audit = offThread([&] { return client("bob").audit(3); });
        QVERIFY(audit && audit->lines_size() == 3);
        QStringList lines;
        for (const auto& l : audit->lines()) {
            lines << QString::fromStdString(l.user() + " " + l.action() + " " + l.outcome());
        }
        QCOMPARE(lines, (QStringList{QStringLiteral("alice rent ok"),
                                     QStringLiteral("erin release refused"),
                                     QStringLiteral("alice release ok")}));
    }

    void onlyAnAdminSetsTheAutoProvisionPolicy() {
        test::ClusterWatch watch(m_address, m_users.at("alice"));
        QTRY_VERIFY_WITH_TIMEOUT(watch.last().time_ms() > 0, 30000);
        backend::v1::AutoscaleInfo policy;
        policy.set_enabled(true);
        policy.set_max_per_hour(2.5);
        policy.set_max_nodes(3);
        policy.set_idle_timeout_sec(600);
        auto refused = offThread([&] { return client("alice").setAutoscale(policy); });
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
        QVERIFY2(refused.error().message.find("only an admin") != std::string::npos,
                 refused.error().message.c_str());
        backend::v1::AutoscaleInfo bad = policy;
        bad.set_max_nodes(0);
        auto outOfRange = offThread([&] { return client("bob").setAutoscale(bad); });
        QVERIFY(!outOfRange);
        QCOMPARE(outOfRange.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(outOfRange.error().message.find("node cap") != std::string::npos,
                 outOfRange.error().message.c_str());

        auto set = offThread([&] { return client("bob").setAutoscale(policy); });
        QVERIFY2(set, set ? "" : set.error().message.c_str());
        // Everybody sees it in the next snapshot; the autoscaler applies it; the next start too.
        QTRY_VERIFY_WITH_TIMEOUT(watch.last().autoscale().enabled(), 10000);
        QCOMPARE(watch.last().autoscale().max_nodes(), 3);
        QCOMPARE(m_session->autoscaler()->policy().maxPerHour, 2.5);
        QCOMPARE(loadAutoscalePolicy().idleTimeoutSec, 600);
        auto audit = offThread([&] { return client("bob").audit(3); });
        QVERIFY(audit && audit->lines_size() == 3);
        QStringList lines;
        for (const auto& l : audit->lines()) {
            lines << QString::fromStdString(l.user() + " " + l.action() + " " + l.outcome());
        }
        QCOMPARE(lines, (QStringList{QStringLiteral("alice settings refused"),
                                     QStringLiteral("bob settings refused"),
                                     QStringLiteral("bob settings ok")}));
        backend::v1::AutoscaleInfo off;
        off.set_max_nodes(8);
        off.set_idle_timeout_sec(300);
        QVERIFY(offThread([&] { return client("bob").setAutoscale(off); }));
    }

private:
    BackendClient client(const char* user) { return BackendClient(m_address, m_users.at(user)); }

    QTemporaryDir m_data;
    std::unique_ptr<test::ServedFolder> m_folder;
    BackendSession* m_session = nullptr;
    BackendServer* m_server = nullptr;
    std::unique_ptr<ClusterCa> m_ca;
    std::map<std::string, std::shared_ptr<const tls::Identity>> m_users;
    QString m_address;
};

QTEST_GUILESS_MAIN(TestServerAccess)
#include "tst_serveraccess.moc"
