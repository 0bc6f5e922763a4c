// Integration test of one real tessera-worker: token check, Exec allow-list and streaming,
// LaunchJob of a model.command job through mpirun + tessera-rsh + Exec, WatchJob replay from
// any seq (also after a daemon restart), CancelJob, and recovery after a crash.
#include "tests/worker/daemon/worker_process.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/message_differencer.h>

#include <grpcpp/create_channel.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>
#include <unistd.h>

using namespace tessera;

namespace {
const std::string kToken = "s3cret-token-for-tests-9c4e1b7a3f5d2086";

// printf re-applies its format to the remaining arguments: one metric + one log line per pair.
const std::vector<std::string> kPrintfJob = {
    "/usr/bin/printf",
    "@tessera {\"step\":%s,\"rank\":0,\"loss\":%s}\\nplain line\\n",
    "1",
    "2.5",
    "2",
    "2.25",
    "3",
    "2.0"};
} // namespace

class TestWorkerDaemon : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_tokenFile;
    std::unique_ptr<WorkerProcess> m_worker;

    void startWorker() {
        m_worker = std::make_unique<WorkerProcess>(
            m_dir.filePath("work"), m_tokenFile, "nodeA",
            QStringList{"--allow", "/bin/echo", "--allow", "/bin/cat", "--allow", "/bin/false"});
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
    }

    static QString stateName(v1::JobState s) {
        return QString::fromStdString(v1::JobState_Name(s));
    }

    /// Runs `ranks` ranks that each print 500 records of 739 bytes at once, after running
    /// `before` (shell words); `duringRun` is called once the job is launched. Checks that every
    /// record arrives whole, once, in order, with its rank, and that the job succeeds.
    void runChorus(const std::string& jobId, const std::string& before,
                   const std::function<void()>& duringRun) {
        auto stub = m_worker->stub();
        const int ranks = 4, lines = 500;
        v1::LaunchJobRequest request = commandJob(
            jobId,
            {"/bin/sh", "-c",
             before + "pad=$(printf '%0700d' 0); i=0; while [ $i -lt " + std::to_string(lines) +
                 " ]; do echo \"@tessera {\\\"step\\\":$i,\\\"rank\\\":$OMPI_COMM_WORLD_RANK,"
                 "\\\"pad\\\":\\\"$pad\\\"}\"; i=$((i+1)); done"},
            {m_worker.get()}, kToken);
        request.mutable_peers(0)->set_slots(ranks);
        request.mutable_spec()->mutable_layout()->set_data_parallel(ranks);
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(&ctx, request, &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        duringRun();
        const WatchResult r = watchJob(*stub, kToken, jobId, 0, 120);
        QVERIFY(r.status.ok());
        QCOMPARE(int(r.events.back().state().state()), int(v1::JOB_STATE_SUCCEEDED));
        std::vector<int> next(ranks, 0);
        std::vector<std::string> garbled;
        for (const v1::JobEvent& e : r.events) {
            if (e.has_log() && e.log().stream() == "stdout") {
                const std::string& text = e.log().text();
                garbled.push_back(std::to_string(text.size()) + " bytes from rank " +
                                  (e.log().has_rank() ? std::to_string(e.log().rank()) : "none") +
                                  ": " + text.substr(0, 60) + " … " +
                                  text.substr(text.size() - std::min<size_t>(text.size(), 60)));
            }
            if (!e.has_metric()) {
                continue;
            }
            const int rank = e.metric().rank();
            QVERIFY(rank >= 0 && rank < ranks);
            QCOMPARE(e.metric().step(), int64_t(next[rank]));
            ++next[rank];
        }
        std::string counts;
        for (int n : next) {
            counts += " " + std::to_string(n);
        }
        QVERIFY2(next == std::vector<int>(ranks, lines),
                 ("records per rank:" + counts + " of " + std::to_string(lines)).c_str());
        QVERIFY2(garbled.empty(), garbled.empty() ? ""
                                                  : (std::to_string(garbled.size()) +
                                                     " lines not whole, e.g. " + garbled.front())
                                                        .c_str());
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        QVERIFY(m_dir.isValid());
        m_tokenFile = m_dir.filePath("token");
        QFile f(m_tokenFile);
        QVERIFY(f.open(QIODevice::WriteOnly) &&
                f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.write(kToken.c_str());
        f.write("\n");
        f.close();
        startWorker();
    }

    void getInfo() {
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        v1::WorkerInfo info;
        const auto st = stub->GetInfo(&ctx, {}, &info);
        QVERIFY2(st.ok(), st.error_message().c_str());
        QCOMPARE(info.worker_id(), std::string("nodeA"));
        QCOMPARE(info.slots(), 1);
        QVERIFY(info.cores() >= 1);
        QVERIFY(info.memory_bytes() > 0);
        QVERIFY(info.devices_size() >= 1);
        const auto& allow = info.exec_allow();
        QVERIFY(std::find(allow.begin(), allow.end(), "orted") != allow.end());
        QVERIFY(std::find(allow.begin(), allow.end(), "tessera-train") != allow.end());
    }

    void refusesBadToken_data() {
        QTest::addColumn<QString>("header"); // empty = no authorization metadata at all
        QTest::newRow("no token") << "";
        QTest::newRow("wrong token") << "Bearer not-the-token";
        QTest::newRow("token without Bearer") << QString::fromStdString(kToken);
        QTest::newRow("token prefix only") << "Bearer s3cret";
        QTest::newRow("token plus suffix") << QString::fromStdString("Bearer " + kToken + "x");
    }
    void refusesBadToken() {
        QFETCH(QString, header);
        auto stub = m_worker->stub();
        auto withHeader = [&](grpc::ClientContext& ctx) {
            if (!header.isEmpty()) {
                ctx.AddMetadata("authorization", header.toStdString());
            }
            ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        };
        {
            grpc::ClientContext ctx;
            withHeader(ctx);
            v1::WorkerInfo info;
            QCOMPARE(stub->GetInfo(&ctx, {}, &info).error_code(),
                     grpc::StatusCode::UNAUTHENTICATED);
        }
        {
            grpc::ClientContext ctx;
            withHeader(ctx);
            v1::LaunchJobReply reply;
            const auto req = commandJob("never", {"/bin/true"}, {m_worker.get()}, kToken);
            QCOMPARE(stub->LaunchJob(&ctx, req, &reply).error_code(),
                     grpc::StatusCode::UNAUTHENTICATED);
        }
        {
            grpc::ClientContext ctx;
            withHeader(ctx);
            v1::WatchJobRequest req;
            req.set_job_id("never");
            auto reader = stub->WatchJob(&ctx, req);
            v1::JobEvent ev;
            QVERIFY(!reader->Read(&ev));
            QCOMPARE(reader->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        }
        {
            grpc::ClientContext ctx;
            withHeader(ctx);
            auto stream = stub->Exec(&ctx);
            v1::ExecInput in;
            in.mutable_start()->add_argv("/bin/echo");
            stream->Write(in);
            v1::ExecOutput out;
            QVERIFY(!stream->Read(&out));
            QCOMPARE(stream->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        }
        QVERIFY(!QDir(m_dir.filePath("work/jobs/never")).exists());
        QVERIFY(m_worker->log().contains("refused"));
    }

    void execRefusesUnlisted_data() {
        QTest::addColumn<QString>("program");
        QTest::newRow("absolute shell") << "/bin/sh";
        QTest::newRow("shell by name") << "sh";
        QTest::newRow("relative path") << "../bin/sh";
        QTest::newRow("dotdot to an allowed one") << "/usr/bin/../../bin/echo";
        QTest::newRow("mpirun") << "mpirun";
        // Control bytes reach the log escaped: a caller cannot forge a log line.
        QTest::newRow("forged log line") << "sh\n[warning] all good\x1b[2J";
    }
    void execRefusesUnlisted() {
        QFETCH(QString, program);
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        auto stream = stub->Exec(&ctx);
        v1::ExecInput in;
        in.mutable_start()->add_argv(program.toStdString());
        in.mutable_start()->add_argv("-c");
        in.mutable_start()->add_argv("echo pwned");
        stream->Write(in);
        stream->WritesDone();
        v1::ExecOutput out;
        QVERIFY(!stream->Read(&out));
        const auto st = stream->Finish();
        QCOMPARE(st.error_code(), grpc::StatusCode::PERMISSION_DENIED);
        QVERIFY2(QString::fromStdString(st.error_message()).contains("'" + program + "'"),
                 st.error_message().c_str());
        QVERIFY(QString::fromStdString(st.error_message()).contains("orted"));
        if (program.contains(QLatin1Char('\n'))) {
            const QByteArray log = m_worker->log();
            QVERIFY2(log.contains("sh\\x0A[warning] all good\\x1B[2J"), log.constData());
            QVERIFY(!log.contains("\n[warning] all good"));
        }
    }

    void execStreams_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QByteArray>("stdinData");
        QTest::addColumn<QByteArray>("stdoutData");
        QTest::addColumn<int>("code");
        QTest::newRow("echo by path") << QStringList{"/bin/echo", "hello", "world"} << QByteArray()
                                      << QByteArray("hello world\n") << 0;
        QTest::newRow("echo by name")
            << QStringList{"echo", "-n", "x"} << QByteArray() << QByteArray("x") << 0;
        QTest::newRow("cat relays stdin") << QStringList{"cat"} << QByteArray("line 1\nline 2\n")
                                          << QByteArray("line 1\nline 2\n") << 0;
        QTest::newRow("exit code")
            << QStringList{"/bin/false"} << QByteArray() << QByteArray() << 1;
    }
    void execStreams() {
        QFETCH(QStringList, argv);
        QFETCH(QByteArray, stdinData);
        QFETCH(QByteArray, stdoutData);
        QFETCH(int, code);
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        auto stream = stub->Exec(&ctx);
        v1::ExecInput in;
        for (const auto& a : argv) {
            in.mutable_start()->add_argv(a.toStdString());
        }
        QVERIFY(stream->Write(in));
        if (!stdinData.isEmpty()) {
            v1::ExecInput data;
            data.set_stdin(stdinData.toStdString());
            QVERIFY(stream->Write(data));
        }
        v1::ExecInput close;
        close.set_close_stdin(true);
        // A program that reads no stdin (echo) may have exited, and the worker ended the call,
        // before this write: only a program that waits for stdin's end must receive it.
        const bool closed = stream->Write(close);
        QVERIFY(closed || stdinData.isEmpty());
        stream->WritesDone();
        QByteArray out;
        int exitCode = -1, exits = 0;
        v1::ExecOutput msg;
        while (stream->Read(&msg)) {
            QCOMPARE(exits, 0); // nothing after the exit status
            if (msg.has_exit()) {
                exitCode = msg.exit().code();
                ++exits;
            } else if (msg.kind_case() == v1::ExecOutput::kStdout) {
                out += QByteArray::fromStdString(msg.stdout());
            }
        }
        const auto st = stream->Finish();
        QVERIFY2(st.ok(), st.error_message().c_str());
        QCOMPARE(out, stdoutData);
        QCOMPARE(exits, 1);
        QCOMPARE(exitCode, code);
    }

    void execBadStart_data() {
        QTest::addColumn<int>("kind"); // 0: stdin first, 1: empty argv, 2: nothing, 3: bad cwd
        QTest::newRow("stdin before start") << 0;
        QTest::newRow("empty argv") << 1;
        QTest::newRow("no message") << 2;
        QTest::newRow("missing cwd") << 3;
    }
    void execBadStart() {
        QFETCH(int, kind);
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        auto stream = stub->Exec(&ctx);
        v1::ExecInput in;
        if (kind == 0) {
            in.set_stdin("data");
        } else {
            in.mutable_start();
        }
        if (kind == 3) {
            in.mutable_start()->add_argv("/bin/echo");
            in.mutable_start()->set_cwd("/no/such/folder");
        }
        if (kind != 2) {
            stream->Write(in);
        }
        stream->WritesDone();
        v1::ExecOutput out;
        QVERIFY(!stream->Read(&out));
        const auto st = stream->Finish();
        QCOMPARE(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY(!st.error_message().empty());
    }

    // Bad flags end the daemon with exit code 2 and a message naming the flag or file.
    void startupErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing token file")
            << QStringList{"--token-file", "/no/such/token", "--work-dir", "WORK"}
            << "/no/such/token";
        QTest::newRow("unknown --allow program")
            << QStringList{"--token-file", "TOKEN",   "--work-dir",
                           "WORK",         "--allow", "/no/such/program"}
            << "/no/such/program";
        QTest::newRow("unusable listen address")
            << QStringList{"--token-file", "TOKEN", "--work-dir", "WORK", "--listen", "256.1.1.1:0"}
            << "--listen";
        QTest::newRow("work dir is a file")
            << QStringList{"--token-file", "TOKEN", "--work-dir", "TOKEN/sub"} << "--work-dir";
    }
    void startupErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        args.replaceInStrings("TOKEN", m_tokenFile);
        args.replaceInStrings("WORK", m_dir.filePath("startup-work"));
        QProcess p;
        p.start(WorkerProcess::binary(), args);
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("tessera-worker: error: ") && err.contains(message.toUtf8()),
                 err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }

    void launchRefusesBadRequests_data() {
        QTest::addColumn<QString>("jobId");
        QTest::addColumn<int>("peers");
        QTest::addColumn<int>("slots");
        QTest::addColumn<int>("code");
        QTest::newRow("empty job id") << "" << 1 << 1 << int(grpc::StatusCode::INVALID_ARGUMENT);
        QTest::newRow("path in job id")
            << "../x" << 1 << 1 << int(grpc::StatusCode::INVALID_ARGUMENT);
        QTest::newRow("no peers") << "j-nopeers" << 0 << 1
                                  << int(grpc::StatusCode::INVALID_ARGUMENT);
        QTest::newRow("zero slots")
            << "j-zero" << 1 << 0 << int(grpc::StatusCode::INVALID_ARGUMENT);
    }
    void launchRefusesBadRequests() {
        QFETCH(QString, jobId);
        QFETCH(int, peers);
        QFETCH(int, slots);
        QFETCH(int, code);
        auto req = commandJob(jobId.toStdString(), {"/bin/true"}, {m_worker.get()}, kToken);
        if (peers == 0) {
            req.clear_peers();
        } else {
            req.mutable_peers(0)->set_slots(slots);
        }
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        v1::LaunchJobReply reply;
        const auto st = stub->LaunchJob(&ctx, req, &reply);
        QCOMPARE(int(st.error_code()), code);
        QVERIFY(!st.error_message().empty());
    }

    void unknownJob() {
        auto stub = m_worker->stub();
        QCOMPARE(watchJob(*stub, kToken, "no-such-job", 0).status.error_code(),
                 grpc::StatusCode::NOT_FOUND);
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        v1::CancelJobRequest req;
        req.set_job_id("no-such-job");
        v1::CancelJobReply reply;
        QCOMPARE(stub->CancelJob(&ctx, req, &reply).error_code(), grpc::StatusCode::NOT_FOUND);
    }

    // One worker: mpirun → tessera-rsh → Exec(orted) on the same worker → the command.
    void commandJobEventsAndReplay() {
        auto stub = m_worker->stub();
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(
                &ctx, commandJob("job-printf", kPrintfJob, {m_worker.get()}, kToken), &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
            QCOMPARE(reply.job_id(), std::string("job-printf"));
            QVERIFY(QFile::exists(QString::fromStdString(reply.job_dir()) + "/journal"));
            QFileInfo peers(QString::fromStdString(reply.job_dir()) + "/peers.json");
            QCOMPARE(int(peers.permissions() & (QFile::ReadGroup | QFile::ReadOther)), 0);
        }
        const WatchResult all = watchJob(*stub, kToken, "job-printf", 0);
        QVERIFY2(all.status.ok(), all.status.error_message().c_str());
        QVERIFY(!all.events.empty());
        std::vector<v1::JobState> states;
        std::vector<v1::Metric> metrics;
        QStringList logs;
        for (size_t i = 0; i < all.events.size(); ++i) {
            const auto& ev = all.events[i];
            QCOMPARE(ev.seq(), uint64_t(i + 1));
            QCOMPARE(ev.job_id(), std::string("job-printf"));
            if (ev.has_state()) {
                states.push_back(ev.state().state());
            } else if (ev.has_metric()) {
                metrics.push_back(ev.metric());
            } else if (ev.has_log() && ev.log().stream() == "stdout") {
                logs << QString::fromStdString(ev.log().text());
            }
        }
        QString failure;
        for (const auto& ev : all.events) {
            failure += QString::fromStdString(ev.has_log()     ? ev.log().text() + "\n"
                                              : ev.has_state() ? ev.state().reason() + "\n"
                                                               : std::string());
        }
        QVERIFY2(all.events.back().has_state(), "the stream must end with the terminal state");
        QVERIFY2(states.back() == v1::JOB_STATE_SUCCEEDED, qPrintable(failure));
        QVERIFY2(states.size() == 3 && states[0] == v1::JOB_STATE_STARTING &&
                     states[1] == v1::JOB_STATE_RUNNING,
                 qPrintable(failure));
        // STARTING and RUNNING come before any output of the job.
        QVERIFY(all.events[0].has_state() && all.events[1].has_state());
        QCOMPARE(metrics.size(), size_t(3));
        const double losses[] = {2.5, 2.25, 2.0};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(metrics[i].step(), int64_t(i + 1));
            QCOMPARE(metrics[i].rank(), 0);
            QCOMPARE(metrics[i].values().at("loss"), losses[i]);
        }
        QCOMPARE(logs.count("plain line"), 3);

        // from_seq = k replays exactly seq >= k, no gaps, no duplicates.
        const uint64_t last = all.events.back().seq();
        for (uint64_t k : {uint64_t(1), uint64_t(2), last / 2, last, last + 1, last + 10}) {
            const WatchResult part = watchJob(*stub, kToken, "job-printf", k);
            QVERIFY(part.status.ok());
            QCOMPARE(part.events.size(), size_t(k > last ? 0 : last - k + 1));
            for (size_t i = 0; i < part.events.size(); ++i) {
                QVERIFY(google::protobuf::util::MessageDifferencer::Equals(part.events[i],
                                                                           all.events[k - 1 + i]));
            }
        }

        // Same id again → ALREADY_EXISTS.
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken);
            v1::LaunchJobReply reply;
            QCOMPARE(stub->LaunchJob(&ctx,
                                     commandJob("job-printf", kPrintfJob, {m_worker.get()}, kToken),
                                     &reply)
                         .error_code(),
                     grpc::StatusCode::ALREADY_EXISTS);
        }

        // Restart the daemon: the journal replays the very same events.
        m_worker->stop();
        startWorker();
        auto stub2 = m_worker->stub();
        const WatchResult again = watchJob(*stub2, kToken, "job-printf", 0);
        QVERIFY(again.status.ok());
        QCOMPARE(again.events.size(), all.events.size());
        for (size_t i = 0; i < all.events.size(); ++i) {
            QVERIFY(
                google::protobuf::util::MessageDifferencer::Equals(again.events[i], all.events[i]));
        }
        const WatchResult tail = watchJob(*stub2, kToken, "job-printf", last - 1);
        QCOMPARE(tail.events.size(), size_t(2));
    }

    // Follow a job live, drop the stream mid-run, reconnect from last+1: no gap, no duplicate,
    // and the same events as a watcher that never dropped.
    void liveFollowAndReconnect() {
        auto stub = m_worker->stub();
        const std::vector<std::string> command = {
            "/bin/sh", "-c",
            "i=1; while [ $i -le 40 ]; do echo \"@tessera {\\\"step\\\":$i,\\\"loss\\\":1.5}\"; "
            "sleep 0.02; i=$((i+1)); done"};
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(
                &ctx, commandJob("job-live", command, {m_worker.get()}, kToken), &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        WatchResult steady;
        std::thread full([&] { steady = watchJob(*m_worker->stub(), kToken, "job-live", 0); });

        std::vector<v1::JobEvent> seen;
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::WatchJobRequest req;
            req.set_job_id("job-live");
            auto reader = stub->WatchJob(&ctx, req);
            v1::JobEvent ev;
            while (seen.size() < 8 && reader->Read(&ev)) {
                seen.push_back(ev);
            }
            ctx.TryCancel(); // the client's connection drops mid-run
            reader->Finish();
        }
        QCOMPARE(seen.size(), size_t(8));
        const WatchResult rest = watchJob(*stub, kToken, "job-live", seen.back().seq() + 1);
        QVERIFY(rest.status.ok());
        seen.insert(seen.end(), rest.events.begin(), rest.events.end());
        full.join();
        QVERIFY(steady.status.ok());
        QCOMPARE(seen.size(), steady.events.size());
        int metrics = 0;
        for (size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].seq(), uint64_t(i + 1));
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(seen[i], steady.events[i]));
            if (seen[i].has_metric()) {
                QCOMPARE(seen[i].metric().step(), int64_t(++metrics));
            }
        }
        QCOMPARE(metrics, 40);
        QCOMPARE(int(seen.back().state().state()), int(v1::JOB_STATE_SUCCEEDED));
    }

    // Four ranks print 700-byte records at once: Open MPI forwards their output in pieces that
    // cut each other's lines; every record still arrives whole, once, with its rank.
    void recordsOfRanksPrintingAtOnceArriveWhole() {
        runChorus("job-chorus", "", [] {});
    }

    // SIGCHLD reaches mpirun whenever one of its tessera-rsh agents exits, as the job ends. When
    // mpirun wrote to a pipe, a signal during a blocked write cut it short and Open MPI dropped
    // everything it still held (worker/daemon/output/output_spool.h): a loaded node lost most of a
    // job's last records. Here mpirun gets a SIGCHLD every millisecond while the ranks print; the
    // ranks wait for the signals to start, so the run is the same on any machine.
    void recordsSurviveSignalsReachingMpirun() {
        const std::string go = m_dir.filePath("chorus-go").toStdString();
        std::atomic<bool> stop{false};
        std::thread signaller;
        runChorus("job-chorus-signals", "while [ ! -e " + go + " ]; do sleep 0.05; done; ", [&] {
            std::vector<int> mpirun;
            QElapsedTimer waited;
            waited.start();
            while ((mpirun = pidsWithCmdline("mpirun ", "job-chorus-signals")).empty() &&
                   waited.elapsed() < 60000) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            QVERIFY2(!mpirun.empty(), "no mpirun for job-chorus-signals within 60 s");
            const pid_t pid = mpirun.front();
            signaller = std::thread([pid, &stop] {
                while (!stop && ::kill(pid, SIGCHLD) == 0) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            });
            QVERIFY(QFile(QString::fromStdString(go)).open(QIODevice::WriteOnly));
        });
        stop = true;
        if (signaller.joinable()) {
            signaller.join();
        }
    }

    void failedCommandReportsStderr() {
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken, 30);
        v1::LaunchJobReply reply;
        const auto st = stub->LaunchJob(
            &ctx, commandJob("job-fail", {"/bin/ls", "/no/such/dir/xyz"}, {m_worker.get()}, kToken),
            &reply);
        QVERIFY2(st.ok(), st.error_message().c_str());
        const WatchResult r = watchJob(*stub, kToken, "job-fail", 0);
        QVERIFY(r.status.ok());
        QVERIFY(!r.events.empty() && r.events.back().has_state());
        const auto& end = r.events.back().state();
        QCOMPARE(stateName(end.state()), stateName(v1::JOB_STATE_FAILED));
        QVERIFY(end.exit_code() != 0);
        QVERIFY2(QString::fromStdString(end.reason()).contains("/no/such/dir/xyz"),
                 end.reason().c_str());
    }

    void cancelEndsTheProcessGroup() {
        auto stub = m_worker->stub();
        const QByteArray marker = "61.25"; // unique argument of this test's sleep
        QVERIFY(pidsWithCmdline("/bin/sleep " + marker).empty());
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st =
                stub->LaunchJob(&ctx,
                                commandJob("job-sleep", {"/bin/sleep", marker.toStdString()},
                                           {m_worker.get()}, kToken),
                                &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        // Wait for the rank to run, and find mpirun's process group (its argv names the job dir).
        QTRY_VERIFY_WITH_TIMEOUT(!pidsWithCmdline("/bin/sleep " + marker).empty(), 20000);
        const auto launchers = pidsWithCmdline("mpirun ", "jobs/job-sleep/hostfile");
        QVERIFY(!launchers.empty());
        const pid_t pgid = ::getpgid(launchers.front());
        QVERIFY(pgid > 0);

        QElapsedTimer timer;
        timer.start();
        const double grace = 3.0;
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken);
            v1::CancelJobRequest req;
            req.set_job_id("job-sleep");
            req.set_grace_seconds(grace);
            v1::CancelJobReply reply;
            const auto st = stub->CancelJob(&ctx, req, &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
            QCOMPARE(stateName(reply.state()), stateName(v1::JOB_STATE_CANCELLED));
        }
        const WatchResult r = watchJob(*stub, kToken, "job-sleep", 0, 20);
        QVERIFY(r.status.ok());
        QVERIFY(r.events.back().has_state());
        QCOMPARE(stateName(r.events.back().state().state()), stateName(v1::JOB_STATE_CANCELLED));
        // The final event follows the grace period (and the pipe drain), not the end of the
        // 61 s sleep: the margin is wide so that a loaded machine does not matter.
        QVERIFY2(timer.elapsed() < qint64(grace * 1000) + 30000,
                 qPrintable(QString::number(timer.elapsed())));
        QTRY_VERIFY_WITH_TIMEOUT(::kill(-pgid, 0) != 0 && errno == ESRCH, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline("/bin/sleep " + marker).empty(), 5000);
    }

    // A job running while the daemon dies is FAILED "worker restarted" after the restart.
    void crashRecovery() {
        auto stub = m_worker->stub();
        const QByteArray marker = "62.75";
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st =
                stub->LaunchJob(&ctx,
                                commandJob("job-crash", {"/bin/sleep", marker.toStdString()},
                                           {m_worker.get()}, kToken),
                                &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        QTRY_VERIFY_WITH_TIMEOUT(!pidsWithCmdline("/bin/sleep " + marker).empty(), 20000);
        const auto launchers = pidsWithCmdline("mpirun ", "jobs/job-crash/hostfile");
        m_worker->kill();
        // The orphaned job is no longer the daemon's; clean it up ourselves.
        for (int pid : launchers) {
            const pid_t pg = ::getpgid(pid);
            if (pg > 0) {
                ::kill(-pg, SIGKILL);
            }
        }
        for (int pid : pidsWithCmdline("/bin/sleep " + marker)) {
            ::kill(pid, SIGKILL);
        }
        startWorker();
        auto stub2 = m_worker->stub();
        const WatchResult r = watchJob(*stub2, kToken, "job-crash", 0, 20);
        QVERIFY(r.status.ok());
        QVERIFY(r.events.size() >= 3);
        for (size_t i = 0; i < r.events.size(); ++i) {
            QCOMPARE(r.events[i].seq(), uint64_t(i + 1));
        }
        const auto& end = r.events.back().state();
        QCOMPARE(stateName(end.state()), stateName(v1::JOB_STATE_FAILED));
        QVERIFY(QString::fromStdString(end.reason()).contains("worker restarted"));
    }

    void cleanupTestCase() {
        if (m_worker) {
            m_worker->stop();
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkerDaemon)
#include "tst_worker_daemon.moc"
