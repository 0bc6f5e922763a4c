// Unit test of TensorboardFollower, the worker's watch over a job's TensorBoard folder: which
// files it follows (depth, name, modified since the job's start, no links, no FIFOs), files
// that appear later, one notice per broken file, the last bytes read at finish(), and its thread
// stopping cleanly.
#include "tessera/tb/event.pb.h"
#include "worker/common/tfrecord.h"
#include "worker/daemon/tensorboard/tensorboard_follower.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fcntl.h>
#include <mutex>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace tessera;
using daemon::TensorboardFollower;

namespace {

std::string record(std::int64_t step, const std::string& tag, float value) {
    tb::Event e;
    e.set_step(step);
    e.set_wall_time(1700000000.0 + double(step));
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return tfRecordFrame(e.SerializeAsString());
}

bool write(const QString& path, const std::string& bytes, bool append = false) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(append ? QIODevice::Append : QIODevice::WriteOnly)) {
        return false;
    }
    return f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

/// Sets the file's modification time `secondsAgo` before now.
bool age(const QString& path, int secondsAgo) {
    timespec times[2];
    ::clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= secondsAgo;
    times[1] = times[0];
    return ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0;
}

/// What the sinks received, from whichever thread called them.
struct Heard {
    std::mutex mutex;
    std::vector<v1::Metric> metrics;
    std::vector<std::string> notices;

    TensorboardFollower::MetricSink metricSink() {
        return [this](v1::Metric m) {
            std::lock_guard lock(mutex);
            metrics.push_back(std::move(m));
        };
    }
    TensorboardFollower::NoticeSink noticeSink() {
        return [this](const std::string& text) {
            std::lock_guard lock(mutex);
            notices.push_back(text);
        };
    }
    std::size_t metricCount() {
        std::lock_guard lock(mutex);
        return metrics.size();
    }
    /// The value of `name` at `step`, or NaN.
    double valueAt(const std::string& name, std::int64_t step) {
        std::lock_guard lock(mutex);
        for (const v1::Metric& m : metrics) {
            if (m.step() == step && m.values().count(name)) {
                return m.values().at(name);
            }
        }
        return std::nan("");
    }
    /// name → value over every metric heard.
    std::map<std::string, double> values() {
        std::lock_guard lock(mutex);
        std::map<std::string, double> all;
        for (const v1::Metric& m : metrics) {
            for (const auto& [k, v] : m.values()) {
                all[k] = v;
            }
        }
        return all;
    }
};

TensorboardFollower::Options options(const QString& dir) {
    TensorboardFollower::Options o;
    o.dir = dir.toStdString();
    o.since = std::chrono::system_clock::now();
    o.interval = std::chrono::milliseconds(20);
    return o;
}

} // namespace

class TestTensorboardFollower : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void followsTheFilesOfTheFolder() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("tb");
        Heard heard;
        TensorboardFollower f(options(dir), heard.metricSink(), heard.noticeSink());
        QCOMPARE(f.pollOnce(), quint64(0)); // no folder yet: nothing, no notice
        QVERIFY(write(dir + "/events.out.tfevents.1.host", record(1, "loss", 0.5f)));
        QVERIFY(write(dir + "/a/b/c/d/events.out.tfevents.1.host", record(1, "deep", 4.0f)));
        QVERIFY(write(dir + "/a/b/c/d/e/events.out.tfevents.1.host", record(1, "deeper", 5.0f)));
        QVERIFY(write(dir + "/notes.txt", record(1, "not-events", 1.0f)));
        QVERIFY(write(dir + "/events.out.tfevents", record(1, "no-dot", 1.0f)));
        QVERIFY(write(dir + "/old/events.out.tfevents.0.host", record(1, "old", 1.0f)));
        QVERIFY(age(dir + "/old/events.out.tfevents.0.host", 3600));
        QVERIFY(::mkfifo(QFile::encodeName(dir + "/events.out.tfevents.fifo").constData(), 0600) ==
                0);
        // A link to a folder outside is not followed (no loops, no escapes).
        QVERIFY(write(tmp.filePath("outside/events.out.tfevents.9.host"), record(1, "out", 1.0f)));
        QVERIFY(QFile::link(tmp.filePath("outside"), dir + "/link"));
        QVERIFY(f.pollOnce() > 0);
        QCOMPARE(heard.metricCount(), std::size_t(1)); // one poll, one step: one Metric
        const auto values = heard.values();
        QCOMPARE(values.at("loss"), 0.5);
        QCOMPARE(values.at("a/b/c/d/deep"), 4.0); // the file's folder names its series
        for (const char* left :
             {"a/b/c/d/e/deeper", "not-events", "no-dot", "old/old", "out", "link/out"}) {
            QVERIFY2(!values.count(left), left);
        }
        QVERIFY(heard.notices.empty());

        // Files that appear later, and old ones written again, are picked up.
        QVERIFY(write(dir + "/later/events.out.tfevents.2.host", record(2, "later", 2.0f)));
        QVERIFY(write(dir + "/old/events.out.tfevents.0.host", record(2, "old", 3.0f), true));
        QVERIFY(f.pollOnce() > 0);
        QCOMPARE(heard.values().at("later/later"), 2.0);
        QCOMPARE(heard.valueAt("old/old", 1), 1.0); // a file taken is read from its start
        QCOMPARE(heard.valueAt("old/old", 2), 3.0);
        QCOMPARE(f.pollOnce(), quint64(0));
    }

    // A file of random bytes: one notice naming it, then it is left alone; the others go on.
    void brokenFilesAreReportedOnce() {
        QTemporaryDir tmp;
        Heard heard;
        TensorboardFollower f(options(tmp.path()), heard.metricSink(), heard.noticeSink());
        std::mt19937 gen(47);
        std::string junk(4096, '\0');
        for (char& c : junk) {
            c = char(gen() & 0xFFu);
        }
        const QString random = tmp.filePath("events.out.tfevents.0.random");
        QVERIFY(write(random, junk));
        QVERIFY(write(tmp.filePath("events.out.tfevents.1.host"), record(1, "loss", 1.0f)));
        f.pollOnce();
        QVERIFY(write(random, junk, true));
        QVERIFY(write(tmp.filePath("events.out.tfevents.1.host"), record(2, "loss", 0.5f), true));
        f.pollOnce();
        f.finish();
        QCOMPARE(int(heard.notices.size()), 1);
        QVERIFY2(QString::fromStdString(heard.notices[0])
                     .startsWith("TensorBoard event file " + random +
                                 ": corrupt record header at byte 0"),
                 heard.notices[0].c_str());
        QCOMPARE(int(heard.metrics.size()), 2);
    }

    // At the end the files are read once more, new ones too, and a cut record is reported.
    void finishReadsToTheEnd() {
        QTemporaryDir tmp;
        Heard heard;
        TensorboardFollower f(options(tmp.path()), heard.metricSink(), heard.noticeSink());
        const QString path = tmp.filePath("run/events.out.tfevents.1.host");
        const std::string two = record(2, "loss", 0.25f);
        QVERIFY(write(path, record(1, "loss", 1.0f) + two.substr(0, 7)));
        f.pollOnce();
        QCOMPARE(heard.metricCount(), std::size_t(1));
        QVERIFY(write(tmp.filePath("events.out.tfevents.3.host"), record(3, "acc", 0.75f)));
        f.finish();
        QCOMPARE(heard.metricCount(), std::size_t(2));
        QCOMPARE(heard.values().at("acc"), 0.75);
        QCOMPARE(int(heard.notices.size()), 1);
        QVERIFY2(heard.notices[0].find(path.toStdString() + ": ends inside the record at byte ") !=
                     std::string::npos,
                 heard.notices[0].c_str());
        f.finish(); // twice: nothing more
        QCOMPARE(int(heard.notices.size()), 1);
    }

    void noticesAreBounded() {
        QTemporaryDir tmp;
        Heard heard;
        TensorboardFollower f(options(tmp.path()), heard.metricSink(), heard.noticeSink());
        for (int i = 0; i < 100; ++i) {
            QVERIFY(write(tmp.filePath(QStringLiteral("events.out.tfevents.%1.x").arg(i)),
                          std::string(64, char(i + 1))));
        }
        f.finish();
        QCOMPARE(heard.notices.size(), TensorboardFollower::kMaxNotices + 1);
        QVERIFY(heard.notices.back().find("not reported") != std::string::npos);
    }

    // Live: the thread delivers a point while the writer goes on; finish() stops it and reads
    // the rest; no sink is called after it returns.
    void threadDeliversLive() {
        QTemporaryDir tmp;
        Heard heard;
        TensorboardFollower f(options(tmp.path()), heard.metricSink(), heard.noticeSink());
        f.start();
        const QString path = tmp.filePath("events.out.tfevents.1.host");
        QVERIFY(write(path, record(1, "loss", 1.0f)));
        QVERIFY(QTest::qWaitFor([&] { return heard.metricCount() == 1; }, 30000));
        QVERIFY(write(path, record(2, "loss", 0.5f), true));
        f.finish();
        QCOMPARE(heard.metricCount(), std::size_t(2));
        // finish() has joined the thread: nothing is left to read the next record, and a
        // second finish() (idempotent) reads nothing either.
        QVERIFY(write(path, record(3, "loss", 0.25f), true));
        f.finish();
        QCOMPARE(heard.metricCount(), std::size_t(2));
    }

    // Destroyed while its thread runs (the job object going away): it stops, reading nothing.
    void destructionStopsTheThread() {
        QTemporaryDir tmp;
        Heard heard;
        {
            TensorboardFollower f(options(tmp.path()), heard.metricSink(), heard.noticeSink());
            f.start();
            QVERIFY(write(tmp.filePath("events.out.tfevents.1.host"), record(1, "loss", 1.0f)));
            QVERIFY(QTest::qWaitFor([&] { return heard.metricCount() == 1; }, 30000));
        }
        QCOMPARE(heard.metricCount(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTensorboardFollower)
#include "tst_tensorboard_follower.moc"
