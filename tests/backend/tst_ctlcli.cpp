// Tests of tessera-ctl's command line (backend/ctl/ctlcli.h): every subcommand parses from its
// one declaration, misplaced options are named with the subcommands they belong to, values are
// checked with the messages tessera-ctl always gave, help and --version print, and the bash
// completion generated from the same table is valid bash that completes what the parser takes.
#include "backend/ctl/ctlcli.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera::ctl;

namespace {

CtlCommandLine parse(const QStringList& args) {
    return parseCommandLine(QStringList{QStringLiteral("tessera-ctl")} + args);
}

QString text(const CtlCommandLine& line) {
    return QString::fromStdString(line.text);
}

/// What bash's completion of `words` (the command line up to the cursor, the last word the one
/// being completed) offers, one word per line.
QStringList complete(const QStringList& words) {
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("complete.sh"));
    QFile f(script);
    if (!f.open(QIODevice::WriteOnly)) {
        return {QStringLiteral("cannot write ") + script};
    }
    f.write(QByteArray::fromStdString(bashCompletion()));
    QStringList quoted;
    for (const QString& w : words) {
        quoted << QLatin1Char('\'') + w + QLatin1Char('\'');
    }
    f.write(QStringLiteral("COMP_WORDS=(%1)\nCOMP_CWORD=%2\ncd '%3'\n_tessera_ctl\n"
                           "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
                .arg(quoted.join(QLatin1Char(' ')))
                .arg(words.size() - 1)
                .arg(dir.path())
                .toUtf8());
    f.close();
    QProcess bash;
    bash.start(QStringLiteral("bash"), {script});
    bash.waitForFinished(30000);
    return QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

} // namespace

class TestCtlCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tableIsWhole() {
        const std::vector<std::string> problems = tableProblems();
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        QVERIFY(findSubcommand("run"));
        QVERIFY(!findSubcommand("frobnicate"));
    }

    void subcommandsParse() {
        CtlCommandLine run = parse({"run", "spec.json", "--workers", "a:1,b:2", "--token-file", "t",
                                    "--timeout", "30", "--verbose"});
        QVERIFY2(run.command, run.text.c_str());
        QCOMPARE(run.command->name, "run");
        QCOMPARE(run.options.specPath, QStringLiteral("spec.json"));
        QCOMPARE(run.options.workers, (QStringList{"a:1", "b:2"}));
        QCOMPARE(run.options.timeoutSeconds, 30);
        QVERIFY(run.options.verbose);

        const CtlCommandLine logs = parse({"logs", "job-1", "-f", "--rank", "none"});
        QVERIFY2(logs.command, logs.text.c_str());
        QCOMPARE(logs.options.jobId, QStringLiteral("job-1"));
        QVERIFY(logs.options.follow);
        QCOMPARE(logs.options.rank, -1);

        const CtlCommandLine exported =
            parse({"export", "--to", "deepspeed", "x.tessera-plan.json"});
        QVERIFY2(exported.command, exported.text.c_str());
        QCOMPARE(exported.options.exportTo, QStringLiteral("deepspeed"));
        QCOMPARE(exported.options.specPath, QStringLiteral("x.tessera-plan.json"));

        QVERIFY(parse({"release", "--all"}).command);
        QCOMPARE(parse({"release", "lease-1"}).options.target, QStringLiteral("lease-1"));
        QVERIFY(parse({"status", "--json"}).options.json);
    }

    /// Options before the subcommand, as tessera-ctl always took them.
    void subcommandMayFollowOptions() {
        const CtlCommandLine line =
            parse({"--workers", "h:9", "--token-file", "t", "--verbose", "attach", "job-2"});
        QVERIFY2(line.command, line.text.c_str());
        QCOMPARE(line.command->name, "attach");
        QCOMPARE(line.options.jobId, QStringLiteral("job-2"));
        QCOMPARE(line.options.workers, QStringList{"h:9"});
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("no command") << QStringList{} << "no command given";
        QTest::newRow("unknown command")
            << QStringList{"frobnicate"} << "unknown command 'frobnicate' (use run, attach";
        QTest::newRow("misplaced option")
            << QStringList{"jobs", "--follow"}
            << "--follow is one of the options of logs, not of jobs (see tessera-ctl logs --help)";
        QTest::newRow("option of several") << QStringList{"logs", "j", "--json"}
                                           << "--json is one of the options of status, nodes";
        QTest::newRow("value before place")
            << QStringList{"run", "x.json", "--rounds", "0"}
            << "--rounds needs a number of probe rounds from 1 to 20";
        QTest::newRow("bad rank") << QStringList{"logs", "j", "--rank", "two"}
                                  << "--rank needs a rank (0, 1, ...) or \"none\", not 'two'";
        QTest::newRow("not host:port") << QStringList{"nodes", "--workers", "nowhere"}
                                       << "--workers: 'nowhere' is not host:port";
        QTest::newRow("workers without token")
            << QStringList{"nodes", "--workers", "a:1"} << "--workers needs --token-file";
        QTest::newRow("tls files apart")
            << QStringList{"nodes", "--workers", "a:1", "--token-file", "t", "--tls-ca", "c"}
            << "go together";
        QTest::newRow("two specs")
            << QStringList{"run", "a.json", "b.json"} << "run takes exactly one spec file";
        QTest::newRow("release both")
            << QStringList{"release", "--all", "lease-1"} << "release takes one lease id";
        QTest::newRow("release neither") << QStringList{"release"} << "release takes one lease id";
        QTest::newRow("certify without hosts")
            << QStringList{"certify", "--out", "d"} << "certify needs one of: --hosts";
        QTest::newRow("certify client without out")
            << QStringList{"certify", "--client", "alice"} << "--client NAME --out D";
        QTest::newRow("certify revoke with out")
            << QStringList{"certify", "--revoke", "alice", "--out", "d"} << "or --revoke NAME";
        QTest::newRow("certify client and hosts")
            << QStringList{"certify", "--client", "a", "--hosts", "h", "--out", "d"}
            << "certify needs one of";
        QTest::newRow("identity without server")
            << QStringList{"audit", "--identity", "d"} << "--identity is the certificate for";
        QTest::newRow("server not host:port")
            << QStringList{"audit", "--server", "nowhere"} << "--server: 'nowhere' is not";
        QTest::newRow("server and workers")
            << QStringList{"run", "s.json",    "--server", "h:1",          "--identity",
                           "d",   "--workers", "a:1",      "--token-file", "t"}
            << "--server goes through a tessera-server";
        QTest::newRow("limit out of range")
            << QStringList{"audit", "--limit", "0"} << "--limit needs a number";
        QTest::newRow("export without format")
            << QStringList{"export", "x.json"} << "export needs --to";
        QTest::newRow("export to nowhere") << QStringList{"export", "--to", "jax", "x.json"}
                                           << "'jax' is not a format Tessera exports";
        QTest::newRow("detach with timeout")
            << QStringList{"run", "x.json", "--detach", "--timeout", "5"} << "do not go together";
        QTest::newRow("unknown flag")
            << QStringList{"run", "x.json", "--bogus-flag"} << "bogus-flag";
        QTest::newRow("help of nothing")
            << QStringList{"help", "frobnicate"} << "help takes one subcommand";
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const CtlCommandLine line = parse(args);
        QVERIFY(!line.command);
        QCOMPARE(line.exitCode, int(kExitBadInput));
        QVERIFY2(text(line).startsWith(QStringLiteral("tessera-ctl: error: ")), line.text.c_str());
        QVERIFY2(text(line).contains(says), line.text.c_str());
    }

    void helpAndVersion() {
        const CtlCommandLine all = parse({"--help"});
        QVERIFY(!all.command);
        QCOMPARE(all.exitCode, int(kExitOk));
        for (const Subcommand& s : subcommands()) {
            QVERIFY2(text(all).contains(QLatin1String(s.name)), s.name);
        }
        QVERIFY(text(all).contains(QStringLiteral("Exit codes: 0 ok")));

        // `run --help` shows run's options and hides the others; `help run` says the same.
        const CtlCommandLine run = parse({"run", "--help"});
        QCOMPARE(run.exitCode, int(kExitOk));
        QVERIFY2(text(run).contains(QStringLiteral("--workers")), run.text.c_str());
        QVERIFY2(text(run).contains(QStringLiteral("SPEC.json")), run.text.c_str());
        QVERIFY2(!text(run).contains(QStringLiteral("--follow")), run.text.c_str());
        QCOMPARE(QString::fromStdString(helpText("run")), text(run));
        const CtlCommandLine helpRun = parse({"help", "run"});
        QVERIFY(helpRun.command);
        QCOMPARE(helpRun.options.topic, QStringLiteral("run"));

        const CtlCommandLine version = parse({"--version"});
        QCOMPARE(version.exitCode, int(kExitOk));
        QCOMPARE(text(version).trimmed(), QStringLiteral("tessera-ctl " TESSERA_VERSION));
    }

    void completionIsBash() {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("c.sh")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(bashCompletion()));
        f.close();
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-n"), f.fileName()});
        QVERIFY(bash.waitForFinished(30000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
    }

    void completionOffersWhatParses_data() {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("offered");
        QTest::newRow("subcommand") << QStringList{"tessera-ctl", "ru"} << QStringList{"run"};
        QTest::newRow("after an option's value")
            << QStringList{"tessera-ctl", "--workers", "a:1", "lo"} << QStringList{"logs"};
        QTest::newRow("its options")
            << QStringList{"tessera-ctl", "logs", "--f"} << QStringList{"--follow"};
        QTest::newRow("not another's")
            << QStringList{"tessera-ctl", "jobs", "--fo"} << QStringList{};
        QTest::newRow("fixed values") << QStringList{"tessera-ctl", "export", "--to", ""}
                                      << QStringList{"megatron", "deepspeed", "torchtitan"};
        QTest::newRow("help topics")
            << QStringList{"tessera-ctl", "help", "cert"} << QStringList{"certify"};
    }
    void completionOffersWhatParses() {
        QFETCH(QStringList, words);
        QFETCH(QStringList, offered);
        QCOMPARE(complete(words), offered);
    }
};

QTEST_GUILESS_MAIN(TestCtlCli)
#include "tst_ctlcli.moc"
