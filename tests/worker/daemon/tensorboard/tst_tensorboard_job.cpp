// Integration test of TensorBoard event files charted live (issue 47): a user program on a real
// worker writes scalars with the `tessera.tensorboard` writer into $TESSERA_TENSORBOARD_DIR
// (the default folder, or model.tensorboardDir); the test sees each point while the program is
// held, a record written in two halves only once whole, a file of random bytes reported in one
// log line (the job still succeeds, the file untouched), and the last points before the end.
#include "tests/support/jobhold.h"
#include "tests/worker/daemon/worker_process.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>
#include <thread>

using namespace tessera;

namespace {
const std::string kToken = "tensorboard-job-token-5d1c9e2a7b3f4068";
const char* kPython = "/usr/bin/python3";

// Steps 1 and 3 through SummaryWriter; step 2 by hand into a second file (run2/), in two halves
// with the test's look in between; a file of random bytes beside them. Held before step 2 and 3.
const char* kProgram = R"(
import hashlib, os, random, sys, time
from tessera.tensorboard import SummaryWriter, scalar_record

tb = os.environ["TESSERA_TENSORBOARD_DIR"]
if os.environ.get("TENSORBOARD_LOGDIR") != tb:
    sys.exit("TENSORBOARD_LOGDIR is %r, not %r" % (os.environ.get("TENSORBOARD_LOGDIR"), tb))
hold = os.environ["TESSERA_HOLD_DIR"]

def wait_for(step):
    while os.path.exists(os.path.join(hold, "hold-%d" % step)):
        time.sleep(0.02)

writer = SummaryWriter(flush_secs=0)
print("writing " + writer.path, flush=True)
writer.add_scalar("train/loss", 0.5, 1)
writer.add_scalar("train/learning_rate", 0.01, 1)
wait_for(2)
os.makedirs(os.path.join(tb, "run2"), exist_ok=True)
split = open(os.path.join(tb, "run2", "events.out.tfevents.0.split"), "ab")
record = scalar_record("train/loss", 0.25, 2)
split.write(record[:len(record) // 2])
split.flush()
junk = random.Random(47).randbytes(4096)
with open(os.path.join(tb, "events.out.tfevents.0.random"), "wb") as f:
    f.write(junk)
print("random sha256 " + hashlib.sha256(junk).hexdigest(), flush=True)
wait_for(3)
split.write(record[len(record) // 2:])
split.close()
writer.add_scalar("eval/accuracy", 0.875, 3)
writer.close()
)";

/// WatchJob read on a thread of its own, so the test can look at the events while the job runs.
class LiveWatch {
public:
    LiveWatch(v1::WorkerService::Stub& stub, const std::string& jobId) {
        authorize(m_ctx, kToken, 280);
        m_thread = std::thread([this, &stub, jobId] {
            v1::WatchJobRequest req;
            req.set_job_id(jobId);
            auto reader = stub.WatchJob(&m_ctx, req);
            v1::JobEvent ev;
            while (reader->Read(&ev)) {
                std::lock_guard lock(m_mutex);
                m_events.push_back(ev);
            }
            const grpc::Status status = reader->Finish();
            std::lock_guard lock(m_mutex);
            m_status = status;
            m_done = true;
        });
    }
    ~LiveWatch() {
        m_ctx.TryCancel();
        m_thread.join();
    }
    std::vector<v1::JobEvent> events() {
        std::lock_guard lock(m_mutex);
        return m_events;
    }
    bool done() {
        std::lock_guard lock(m_mutex);
        return m_done;
    }

private:
    grpc::ClientContext m_ctx;
    std::mutex m_mutex;
    std::vector<v1::JobEvent> m_events;
    grpc::Status m_status;
    bool m_done = false;
    std::thread m_thread;
};

const v1::Metric* metricAt(const std::vector<v1::JobEvent>& events, int64_t step) {
    for (const auto& ev : events) {
        if (ev.has_metric() && ev.metric().step() == step) {
            return &ev.metric();
        }
    }
    return nullptr;
}

std::vector<std::string> workerLines(const std::vector<v1::JobEvent>& events) {
    std::vector<std::string> lines;
    for (const auto& ev : events) {
        if (ev.has_log() && ev.log().stream() == "worker") {
            lines.push_back(ev.log().text());
        }
    }
    return lines;
}

/// The text after `prefix` on the program's stdout line that starts with it.
QString printed(const std::vector<v1::JobEvent>& events, const std::string& prefix) {
    for (const auto& ev : events) {
        if (ev.has_log() && ev.log().text().rfind(prefix, 0) == 0) {
            return QString::fromStdString(ev.log().text().substr(prefix.size()));
        }
    }
    return {};
}

QString describe(const std::vector<v1::JobEvent>& events) {
    QString out;
    for (const auto& ev : events) {
        if (ev.has_log()) {
            out += "\n[" + QString::fromStdString(ev.log().stream()) + "] " +
                   QString::fromStdString(ev.log().text());
        } else if (ev.has_metric()) {
            out += "\n[metric] " + QString::fromStdString(ev.metric().json());
        } else if (ev.has_state()) {
            out += "\n[state] " + QString::fromStdString(v1::JobState_Name(ev.state().state())) +
                   " " + QString::fromStdString(ev.state().reason());
        }
    }
    return out;
}

} // namespace

class TestTensorboardJob : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::JobHold> m_hold;
    std::unique_ptr<WorkerProcess> m_worker;
    QString m_program;

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        if (!QFile::exists(kPython)) {
            QSKIP("/usr/bin/python3 is missing: apt-get install python3");
        }
        // Before the worker starts: it, mpirun and the rank inherit TESSERA_HOLD_DIR.
        m_hold = std::make_unique<test::JobHold>(m_dir.filePath("hold"));
        const QString token = m_dir.filePath("token");
        QVERIFY(writeTokenFile(token, kToken));
        m_worker = std::make_unique<WorkerProcess>(m_dir.filePath("w"), token, "tbnode");
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
        m_program = m_dir.filePath("program.py");
        QFile f(m_program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kProgram);
    }

    void scalarsAreChartedLive_data() {
        QTest::addColumn<QString>("specDir");
        QTest::addColumn<QString>("folder"); // under the job's folder on the worker
        QTest::newRow("TESSERA_TENSORBOARD_DIR") << QString() << "tensorboard";
        QTest::newRow("model.tensorboardDir") << "tb-logs"
                                              << "tb-logs";
    }
    void scalarsAreChartedLive() {
        QFETCH(QString, specDir);
        QFETCH(QString, folder);
        const std::string id = specDir.isEmpty() ? "job-tb-default" : "job-tb-spec";
        QVERIFY(m_hold->hold(2));
        QVERIFY(m_hold->hold(3));
        v1::LaunchJobRequest req =
            commandJob(id, {kPython, m_program.toStdString()}, {m_worker.get()}, kToken);
        req.mutable_spec()->mutable_model()->set_tensorboard_dir(specDir.toStdString());
        // Only the event files make metrics here: no plain output line is read as one.
        req.mutable_spec()->mutable_model()->mutable_metrics()->set_string_value("none");
        auto stub = m_worker->stub();
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(&ctx, req, &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        LiveWatch watch(*stub, id);
        const auto seen = [&](auto predicate) {
            return QTest::qWaitFor([&] { return predicate(watch.events()) || watch.done(); },
                                   120000) &&
                   predicate(watch.events());
        };

        // Step 1 arrives while the program is held before step 2: live, not at the end.
        QVERIFY2(seen([](const auto& ev) { return metricAt(ev, 1) != nullptr; }),
                 qPrintable(describe(watch.events()) + "\n--- worker:\n" + m_worker->log()));
        auto events = watch.events();
        const v1::Metric& first = *metricAt(events, 1);
        QCOMPARE(first.rank(), 0);
        QCOMPARE(first.values().at("loss"), 0.5);
        QCOMPARE(first.values().at("lr"), double(0.01f)); // float32, as TensorBoard keeps it
        const QJsonObject json =
            QJsonDocument::fromJson(QByteArray::fromStdString(first.json())).object();
        QCOMPARE(json.value("step").toInteger(), 1);
        QVERIFY2(json.value("wall_time").toDouble() > 1.6e9, first.json().c_str());
        const QString expected =
            m_dir.filePath("w/jobs/" + QString::fromStdString(id) + "/" + folder);
        // The program's stdout line comes through mpirun, the point through the file: either
        // can be first.
        QVERIFY2(seen([](const auto& ev) { return !printed(ev, "writing ").isEmpty(); }),
                 qPrintable(describe(watch.events())));
        events = watch.events();
        QVERIFY2(printed(events, "writing ").startsWith(expected + "/events.out.tfevents."),
                 qPrintable(describe(events)));
        QVERIFY(!watch.done());

        // Half of step 2's record and a file of random bytes: the random file is reported
        // (which means its poll has read the half record too), step 2 is not there yet.
        m_hold->release(2);
        const auto randomNoticed = [](const std::vector<v1::JobEvent>& ev) {
            for (const std::string& line : workerLines(ev)) {
                if (line.find("events.out.tfevents.0.random: corrupt record header at byte 0") !=
                    std::string::npos) {
                    return true;
                }
            }
            return false;
        };
        QVERIFY2(seen(randomNoticed), qPrintable(describe(watch.events())));
        events = watch.events();
        QVERIFY2(metricAt(events, 2) == nullptr, qPrintable(describe(events)));
        QCOMPARE(int(workerLines(events).size()), 1);
        QVERIFY(!watch.done());

        // The rest of the record, then step 3 and the end: every point before the final state.
        m_hold->release(3);
        QVERIFY(QTest::qWaitFor([&] { return watch.done(); }, 120000));
        events = watch.events();
        QVERIFY2(!events.empty() && events.back().has_state() &&
                     events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(describe(events)));
        const v1::Metric* second = metricAt(events, 2);
        QVERIFY2(second, qPrintable(describe(events)));
        QCOMPARE(second->values().at("loss"), 0.25); // run2/train/loss: its end is known
        const v1::Metric* third = metricAt(events, 3);
        QVERIFY2(third, qPrintable(describe(events)));
        QCOMPARE(third->values().at("test_accuracy"), 0.875);
        QCOMPARE(int(workerLines(events).size()), 1);
        int metrics = 0;
        for (const auto& ev : events) {
            metrics += ev.has_metric() ? 1 : 0;
        }
        QCOMPARE(metrics, 3);

        // The files are read, never written: the random one is as the program wrote it.
        QFile random(expected + "/events.out.tfevents.0.random");
        QVERIFY(random.open(QIODevice::ReadOnly));
        QCOMPARE(
            QString::fromLatin1(
                QCryptographicHash::hash(random.readAll(), QCryptographicHash::Sha256).toHex()),
            printed(events, "random sha256 "));
    }
};

QTEST_GUILESS_MAIN(TestTensorboardJob)
#include "tst_tensorboard_job.moc"
