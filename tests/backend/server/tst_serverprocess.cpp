// The tessera-server program (issue 48): it serves its data folder on the Unix socket and, with
// --listen, over mutual TLS; tessera-ctl reaches it both ways (--server/--identity from `certify
// --client`); a second server, a bad server.json or --listen are refused naming them; a revoked
// person is refused from the next call; TERM stops it with exit 0.
#include "tests/backend/testcluster.h"
#include "tests/support/ctlprocess.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;
using test::CtlProcess;

namespace {

/// Runs `tessera-ctl args` to its end (60 s at most) and returns it.
std::unique_ptr<CtlProcess> ctl(const QStringList& args) {
    auto p = std::make_unique<CtlProcess>(args);
    if (!QTest::qWaitFor([&] { return p->ended(); }, 60000)) {
        qFatal("tessera-ctl %s did not end within 60 s", qPrintable(args.join(' ')));
    }
    return p;
}

bool writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TestServerProcess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        qputenv("TESSERA_NO_KEYRING", "1");
        for (const char* user : {"alice", "bob", "carol"}) {
            auto made = ctl({QStringLiteral("certify"), QStringLiteral("--client"),
                             QLatin1String(user), QStringLiteral("--out"), identity(user)});
            QVERIFY2(made->exitCode() == 0, qPrintable(made->output()));
        }
        QVERIFY(QFile::permissions(identity("alice") + QStringLiteral("/client.key")) ==
                (QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser));
        QVERIFY(
            writeFile(m_data.filePath(QStringLiteral("server.json")), "{\"admins\": [\"bob\"]}"));
    }

    void badSettingsAreRefusedNamingThem() {
        const QString bad = m_data.filePath(QStringLiteral("bad.json"));
        QVERIFY(writeFile(bad, "{\"admins\": [\"bob\"], \"listne\": \"x\"}"));
        CtlProcess server({QStringLiteral("--config"), bad}, QStringLiteral("tessera-server"));
        QTRY_VERIFY_WITH_TIMEOUT(server.ended(), 30000);
        QCOMPARE(server.exitCode(), 2);
        QVERIFY2(server.output().contains(QStringLiteral("bad.json: unknown field \"listne\"")),
                 qPrintable(server.output()));

        CtlProcess listen({QStringLiteral("--listen"), QStringLiteral("nowhere")},
                          QStringLiteral("tessera-server"));
        QTRY_VERIFY_WITH_TIMEOUT(listen.ended(), 30000);
        QCOMPARE(listen.exitCode(), 2);
        QVERIFY2(listen.output().contains(QStringLiteral("is not HOST:PORT")),
                 qPrintable(listen.output()));
    }

    void servesLocallyAndOverMutualTls() {
        CtlProcess server({QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                          QStringLiteral("tessera-server"));
        QTRY_VERIFY_WITH_TIMEOUT(
            server.output().contains(QStringLiteral("serving")) || server.ended(), 60000);
        const QRegularExpressionMatch port =
            QRegularExpression(QStringLiteral("tcp 127\\.0\\.0\\.1:(\\d+) \\(mutual TLS\\)"))
                .match(server.output());
        QVERIFY2(port.hasMatch(), qPrintable(server.output()));
        QVERIFY2(server.output().contains(QStringLiteral("admins: ")) &&
                     server.output().contains(QStringLiteral(", bob")),
                 qPrintable(server.output()));
        const QString address = QStringLiteral("127.0.0.1:") + port.captured(1);
        const QStringList asAlice{QStringLiteral("--server"), address, QStringLiteral("--identity"),
                                  identity("alice")};

        // A port in use is said so, not shared (gRPC's SO_REUSEPORT is off).
        QTemporaryDir other;
        CtlProcess taken(
            {QStringLiteral("--data-dir"), other.path(), QStringLiteral("--listen"), address},
            QStringLiteral("tessera-server"));
        QTRY_VERIFY_WITH_TIMEOUT(taken.ended(), 30000);
        QCOMPARE(taken.exitCode(), 2);
        QVERIFY2(taken.output().contains(QStringLiteral("cannot listen")) &&
                     taken.output().contains(address),
                 qPrintable(taken.output()));

        // One server per data folder.
        CtlProcess second({}, QStringLiteral("tessera-server"));
        QTRY_VERIFY_WITH_TIMEOUT(second.ended(), 30000);
        QCOMPARE(second.exitCode(), 2);
        QVERIFY2(second.output().contains(QStringLiteral("tessera-server (pid")),
                 qPrintable(second.output()));

        // Through the Unix socket (the folder's owner) and over TLS.
        auto status = ctl({QStringLiteral("status")});
        QVERIFY2(status->output().contains(QStringLiteral("tessera-server (pid")),
                 qPrintable(status->output()));
        auto audit = ctl(QStringList{QStringLiteral("audit")} + asAlice);
        QVERIFY2(audit->exitCode() == 0 && audit->output().contains(QStringLiteral("ACTION")),
                 qPrintable(audit->output()));
        auto unknown =
            ctl(QStringList{QStringLiteral("cancel"), QStringLiteral("job-nope")} + asAlice);
        QCOMPARE(unknown->exitCode(), 2);
        QVERIFY2(unknown->output().contains(QStringLiteral("job-nope")),
                 qPrintable(unknown->output()));

        // The environment names the server as well; without an identity it says what to give.
        qputenv("TESSERA_SERVER", address.toUtf8());
        auto noIdentity = ctl({QStringLiteral("audit")});
        qunsetenv("TESSERA_SERVER");
        QCOMPARE(noIdentity->exitCode(), 2);
        QVERIFY2(noIdentity->output().contains(QStringLiteral("needs --identity")),
                 qPrintable(noIdentity->output()));

        // Revoked while it runs: refused at once, naming the certificate.
        auto revoke =
            ctl({QStringLiteral("certify"), QStringLiteral("--revoke"), QStringLiteral("alice")});
        QVERIFY2(revoke->exitCode() == 0, qPrintable(revoke->output()));
        auto refused = ctl(QStringList{QStringLiteral("audit")} + asAlice);
        QCOMPARE(refused->exitCode(), 2);
        QVERIFY2(refused->output().contains(QStringLiteral("'alice'")) &&
                     refused->output().contains(QStringLiteral("revoked")),
                 qPrintable(refused->output()));
        auto bob =
            ctl({QStringLiteral("audit"), QStringLiteral("--json"), QStringLiteral("--server"),
                 address, QStringLiteral("--identity"), identity("bob")});
        QVERIFY2(bob->exitCode() == 0 && bob->output().startsWith(QLatin1Char('[')),
                 qPrintable(bob->output()));

        ::kill(pid_t(server.process().processId()), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(server.ended(), 30000);
        QCOMPARE(server.exitCode(), 0);
        QVERIFY2(server.output().contains(QStringLiteral("stopping")), qPrintable(server.output()));
        QVERIFY(!QFile::exists(m_data.filePath(QStringLiteral("backend.sock"))));
    }

    void aPersonRentsAndRunsAndOnlyTheyOrAnAdminCancel() {
        auto server = startServer();
        QVERIFY(server.first);
        const QStringList carol = as("carol", server.second);
        const QStringList bob = as("bob", server.second);

        auto rent = ctl(QStringList{QStringLiteral("rent"), QStringLiteral("local-worker"),
                                    QStringLiteral("--provider"), QStringLiteral("local")} +
                        carol);
        QVERIFY2(rent->exitCode() == 0 && rent->output().contains(QStringLiteral("ready")),
                 qPrintable(rent->output()));
        auto leases = ctl(QStringList{QStringLiteral("leases"), QStringLiteral("--json")} + carol);
        QVERIFY2(leases->output().contains(QStringLiteral("\"user\":\"carol\"")),
                 qPrintable(leases->output()));

        // A short job to its end, then a long one left running (far more lines than the test
        // waits for: it runs until cancelled, on any machine).
        const QString shortJob =
            writeSpec(QStringLiteral("short.json"), test::emitterJob(1, 20, 5));
        auto run = ctl(QStringList{QStringLiteral("run"), shortJob} + carol);
        QVERIFY2(run->exitCode() == 0 && run->output().contains(QStringLiteral("succeeded")),
                 qPrintable(run->output()));
        // Its log through the server: what the history holds, then the command ends.
        const QString shortId =
            QRegularExpression(QStringLiteral("(job-\\S+)")).match(run->output()).captured(1);
        auto logs = ctl(QStringList{QStringLiteral("logs"), shortId} + carol);
        QVERIFY2(logs->exitCode() == 0 &&
                     logs->output().contains(QStringLiteral("emitter: 10 lines so far")) &&
                     logs->output().contains(QStringLiteral("emitter: 20 lines so far")),
                 qPrintable(shortId + QLatin1Char(' ') + logs->output()));
        auto noLogs = ctl(QStringList{QStringLiteral("logs"), QStringLiteral("job-nope")} + carol);
        QCOMPARE(noLogs->exitCode(), 2);
        QVERIFY2(noLogs->output().contains(QStringLiteral("job-nope")),
                 qPrintable(noLogs->output()));
        const QString longJob =
            writeSpec(QStringLiteral("long.json"), test::emitterJob(1, 100000, 10));
        auto detached =
            ctl(QStringList{QStringLiteral("run"), longJob, QStringLiteral("--detach")} + carol);
        QVERIFY2(detached->exitCode() == 0, qPrintable(detached->output()));
        const QString job = QRegularExpression(QStringLiteral("job (job-\\S+) submitted"))
                                .match(detached->output())
                                .captured(1);
        QVERIFY2(!job.isEmpty(), qPrintable(detached->output()));

        // Dave is nobody's admin: refused, naming carol; bob, an admin, may.
        auto made = ctl({QStringLiteral("certify"), QStringLiteral("--client"),
                         QStringLiteral("dave"), QStringLiteral("--out"), identity("dave")});
        QVERIFY(made->exitCode() == 0);
        // The log of a job still running: what is stored so far, and the command ends.
        auto running = ctl(QStringList{QStringLiteral("logs"), job} + carol);
        QVERIFY2(running->exitCode() == 0, qPrintable(running->output()));

        // Its status through the server: running, submitted by carol.
        auto status = ctl(QStringList{QStringLiteral("status")} + carol);
        QVERIFY2(status->exitCode() == 0 && status->output().contains(job) &&
                     status->output().contains(QStringLiteral("carol")),
                 qPrintable(status->output()));

        // Everybody sees everything: dave lists carol's jobs, the running one and the ended one.
        auto jobs = ctl(QStringList{QStringLiteral("jobs"), QStringLiteral("--json")} +
                        as("dave", server.second));
        QVERIFY2(jobs->exitCode() == 0, qPrintable(jobs->output()));
        const QJsonArray listed = QJsonDocument::fromJson(jobs->output().toUtf8())
                                      .object()[QStringLiteral("jobs")]
                                      .toArray();
        QStringList states;
        for (const QJsonValue& j : listed) {
            states << j[QStringLiteral("state")].toString();
            if (j[QStringLiteral("id")].toString() == job) {
                QCOMPARE(j[QStringLiteral("name")].toString(), QStringLiteral("emitter test job"));
            }
        }
        QVERIFY2(states.contains(QStringLiteral("succeeded")) &&
                     (states.contains(QStringLiteral("running")) ||
                      states.contains(QStringLiteral("starting"))),
                 qPrintable(jobs->output()));
        auto refused = ctl(QStringList{QStringLiteral("cancel"), job} + as("dave", server.second));
        QCOMPARE(refused->exitCode(), 2);
        QVERIFY2(refused->output().contains(QStringLiteral("started by carol")),
                 qPrintable(refused->output()));
        auto cancelled = ctl(QStringList{QStringLiteral("cancel"), job} + bob);
        QVERIFY2(cancelled->exitCode() == 0, qPrintable(cancelled->output()));
        auto released =
            ctl(QStringList{QStringLiteral("release"), QStringLiteral("--all")} + carol);
        QVERIFY2(released->exitCode() == 0 &&
                     released->output().contains(QStringLiteral("released")),
                 qPrintable(released->output()));

        auto audit = ctl(QStringList{QStringLiteral("audit"), QStringLiteral("--json")} + bob);
        const QString lines = audit->output();
        for (const QString& expected :
             {QStringLiteral(
                  "\"action\":\"rent\",\"detail\":\"local/local-worker\",\"outcome\":\"ok\""),
              QStringLiteral("\"outcome\":\"refused\""),
              QStringLiteral("as an admin; started by carol")}) {
            QVERIFY2(lines.contains(expected),
                     qPrintable(expected + QStringLiteral(" in ") + lines));
        }
        ::kill(pid_t(server.first->process().processId()), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(server.first->ended(), 30000);
    }

private:
    /// tessera-server --listen 127.0.0.1:0, once it serves, and its address.
    std::pair<std::unique_ptr<CtlProcess>, QString> startServer() {
        auto server = std::make_unique<CtlProcess>(
            QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
            QStringLiteral("tessera-server"));
        (void)QTest::qWaitFor( // the match below says whether it served
            [&] { return server->output().contains(QStringLiteral("serving")) || server->ended(); },
            60000);
        const QRegularExpressionMatch port =
            QRegularExpression(QStringLiteral("tcp 127\\.0\\.0\\.1:(\\d+) \\(mutual TLS\\)"))
                .match(server->output());
        if (!port.hasMatch()) {
            qWarning("tessera-server did not serve: %s", qPrintable(server->output()));
            return {};
        }
        return {std::move(server), QStringLiteral("127.0.0.1:") + port.captured(1)};
    }
    /// --server ADDRESS --identity <user's folder>.
    QStringList as(const char* user, const QString& address) const {
        return {QStringLiteral("--server"), address, QStringLiteral("--identity"), identity(user)};
    }
    QString writeSpec(const QString& name, const v1::JobSpec& spec) const {
        const QString path = m_data.filePath(name);
        writeFile(path, QByteArray::fromStdString(jobSpecToJson(spec)));
        return path;
    }
    QString identity(const char* user) const {
        return m_data.filePath(QStringLiteral("id-") + QLatin1String(user));
    }

    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestServerProcess)
#include "tst_serverprocess.moc"
