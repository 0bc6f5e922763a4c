// The tessera-server program (issue 48): it serves its data folder on the Unix socket and, with
// --listen, over mutual TLS; tessera-ctl reaches it both ways (--server/--identity from `certify
// --client`); a second server, a bad server.json or --listen are refused naming them; a revoked
// person is refused from the next call; TERM stops it with exit 0.
#include "tests/backend/testcluster.h"
#include "tests/support/ctlprocess.h"

#include <QDir>
#include <QFile>
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
        for (const char* user : {"alice", "bob"}) {
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

private:
    QString identity(const char* user) const {
        return m_data.filePath(QStringLiteral("id-") + QLatin1String(user));
    }

    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestServerProcess)
#include "tst_serverprocess.moc"
