// Unit test of how the worker reads TensorBoard event files (worker/daemon/tensorboard/): both
// scalar styles (PyTorch's simple_value, TF2's rank-0 tensors) decoded, other values left out;
// a record cut at the end waited for and read once complete; a corrupt record skipped with a
// problem naming its byte; random bytes reported once; names mapped; one metric per step.
#include "tessera/tb/event.pb.h"
#include "worker/common/crc32c.h"
#include "worker/common/tfrecord.h"
#include "worker/daemon/tensorboard/event_file_tail.h"
#include "worker/daemon/tensorboard/event_metrics.h"
#include "worker/daemon/tensorboard/event_stream.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <random>
#include <sys/stat.h>

using namespace tessera;
using daemon::EventScalar;
using daemon::EventStream;

Q_DECLARE_METATYPE(std::string)

namespace {

/// A framed Event at `step` with the scalars `values` as simple_value (PyTorch's style).
std::string simpleRecord(std::int64_t step, std::vector<std::pair<std::string, float>> values,
                         double wallTime = 1700000000.5) {
    tb::Event e;
    e.set_step(step);
    e.set_wall_time(wallTime);
    for (const auto& [tag, value] : values) {
        tb::Summary::Value* v = e.mutable_summary()->add_value();
        v->set_tag(tag);
        v->set_simple_value(value);
    }
    return tfRecordFrame(e.SerializeAsString());
}

/// A framed Event whose one value is `tensor`, with plugin metadata `plugin` when not empty.
std::string tensorRecord(std::int64_t step, const std::string& tag, const tb::TensorProto& tensor,
                         const std::string& plugin = "scalars") {
    tb::Event e;
    e.set_step(step);
    e.set_wall_time(1700000001.0);
    tb::Summary::Value* v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    if (!plugin.empty()) {
        v->mutable_metadata()->mutable_plugin_data()->set_plugin_name(plugin);
    }
    *v->mutable_tensor() = tensor;
    return tfRecordFrame(e.SerializeAsString());
}

std::string versionRecord() {
    tb::Event e;
    e.set_wall_time(1700000000.0);
    e.set_file_version("brain.Event:2");
    return tfRecordFrame(e.SerializeAsString());
}

std::string littleEndian(std::uint64_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i) {
        s.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
    }
    return s;
}

std::string randomBytes(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::string s(n, '\0');
    for (char& c : s) {
        c = static_cast<char>(gen() & 0xFFu);
    }
    return s;
}

EventStream::Output feedAll(EventStream& s, std::string_view bytes) {
    EventStream::Output out;
    s.feed(bytes, out);
    return out;
}

bool writeFile(const QString& path, const std::string& bytes, bool append = false) {
    QFile f(path);
    if (!f.open(append ? QIODevice::Append : QIODevice::WriteOnly)) {
        return false;
    }
    return f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

QString joined(const std::vector<std::string>& lines) {
    QString out;
    for (const std::string& l : lines) {
        out += QString::fromStdString(l) + "\n";
    }
    return out;
}

} // namespace

class TestEventStream : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pytorchScalars() {
        EventStream s;
        const std::string bytes = versionRecord() +
                                  simpleRecord(1, {{"train/loss", 0.5f}, {"lr", 0.001f}}) +
                                  simpleRecord(2, {{"train/loss", 0.25f}}, 1700000002.25);
        const auto out = feedAll(s, bytes);
        QVERIFY2(out.problems.empty(), qPrintable(joined(out.problems)));
        QCOMPARE(int(out.scalars.size()), 3);
        QCOMPARE(out.scalars[0].step, qint64(1));
        QCOMPARE(out.scalars[0].tag, std::string("train/loss"));
        QCOMPARE(out.scalars[0].value, 0.5);
        QCOMPARE(out.scalars[0].wallTime, 1700000000.5);
        QCOMPARE(out.scalars[1].tag, std::string("lr"));
        QCOMPARE(out.scalars[1].value, double(0.001f));
        QCOMPARE(out.scalars[2].step, qint64(2));
        QCOMPARE(out.scalars[2].wallTime, 1700000002.25);
        QCOMPARE(s.readOffset(), quint64(bytes.size()));
        QCOMPARE(s.pendingBytes(), std::size_t(0));
        QVERIFY(!s.unfinished());
    }

    // TF2's tf.summary.scalar: a rank-0 tensor of plugin "scalars", in each of its encodings.
    void tf2Scalars_data() {
        QTest::addColumn<std::string>("tensor"); // a serialized tb::TensorProto
        QTest::addColumn<bool>("taken");
        QTest::addColumn<double>("value");
        const auto row = [](const char* name, auto fill, bool taken, double value) {
            tb::TensorProto t;
            fill(t);
            QTest::newRow(name) << t.SerializeAsString() << taken << value;
        };
        row(
            "float_val",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_FLOAT);
                t.add_float_val(1.5f);
            },
            true, 1.5);
        row(
            "double_val",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_DOUBLE);
                t.add_double_val(0.1);
            },
            true, 0.1);
        row(
            "int_val",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_INT32);
                t.add_int_val(-7);
            },
            true, -7);
        row(
            "int64_val",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_INT64);
                t.add_int64_val(1ll << 40);
            },
            true, double(1ll << 40));
        row(
            "float content",
            [](tb::TensorProto& t) {
                const float f = 2.75f;
                std::uint32_t bits;
                std::memcpy(&bits, &f, 4);
                t.set_dtype(tb::DT_FLOAT);
                t.set_tensor_content(littleEndian(bits, 4));
            },
            true, 2.75);
        row(
            "double content",
            [](tb::TensorProto& t) {
                const double d = -3.125;
                std::uint64_t bits;
                std::memcpy(&bits, &d, 8);
                t.set_dtype(tb::DT_DOUBLE);
                t.set_tensor_content(littleEndian(bits, 8));
            },
            true, -3.125);
        row(
            "int32 content",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_INT32);
                t.set_tensor_content(littleEndian(std::uint32_t(-5), 4));
            },
            true, -5);
        row(
            "int64 content",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_INT64);
                t.set_tensor_content(littleEndian(123456789012ull, 8));
            },
            true, 123456789012.0);
        row(
            "shape [1]",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_FLOAT);
                t.mutable_tensor_shape()->add_dim()->set_size(1);
                t.add_float_val(4.0f);
            },
            true, 4.0);
        row(
            "shape [2]",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_FLOAT);
                t.mutable_tensor_shape()->add_dim()->set_size(2);
                t.add_float_val(1.0f);
                t.add_float_val(2.0f);
            },
            false, 0);
        row(
            "two values in a scalar",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_FLOAT);
                t.add_float_val(1.0f);
                t.add_float_val(2.0f);
            },
            false, 0);
        row(
            "no value", [](tb::TensorProto& t) { t.set_dtype(tb::DT_FLOAT); }, false, 0);
        row(
            "content of the wrong width",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_DOUBLE);
                t.set_tensor_content("abcd");
            },
            false, 0);
        row(
            "unknown rank",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_FLOAT);
                t.mutable_tensor_shape()->set_unknown_rank(true);
                t.add_float_val(1.0f);
            },
            false, 0);
        row(
            "string (text plugin's dtype 7)",
            [](tb::TensorProto& t) { t.set_dtype(tb::DataType(7)); }, false, 0);
        row(
            "not finite",
            [](tb::TensorProto& t) {
                t.set_dtype(tb::DT_DOUBLE);
                t.add_double_val(std::numeric_limits<double>::infinity());
            },
            false, 0);
    }
    void tf2Scalars() {
        QFETCH(std::string, tensor);
        QFETCH(bool, taken);
        QFETCH(double, value);
        tb::TensorProto t;
        QVERIFY(t.ParseFromString(tensor));
        EventStream s;
        const auto out = feedAll(s, tensorRecord(3, "epoch_loss", t));
        QVERIFY(out.problems.empty());
        QCOMPARE(out.scalars.size(), std::size_t(taken ? 1 : 0));
        if (taken) {
            QCOMPARE(out.scalars[0].value, value);
            QCOMPARE(out.scalars[0].step, qint64(3));
            QCOMPARE(out.scalars[0].wallTime, 1700000001.0);
        }
    }

    // TF2 writes a tag's plugin with its first value only: a tag of another plugin stays out
    // later too, a "scalars" tag stays in, a tag never described is taken when it is a scalar.
    void pluginIsRememberedPerTag() {
        tb::TensorProto scalar;
        scalar.set_dtype(tb::DT_FLOAT);
        scalar.add_float_val(1.0f);
        EventStream s;
        const auto out = feedAll(
            s, tensorRecord(1, "h", scalar, "histograms") + tensorRecord(2, "h", scalar, "") +
                   tensorRecord(1, "acc", scalar, "scalars") + tensorRecord(2, "acc", scalar, "") +
                   tensorRecord(2, "plain", scalar, ""));
        QCOMPARE(int(out.scalars.size()), 3);
        QCOMPARE(out.scalars[0].tag, std::string("acc"));
        QCOMPARE(out.scalars[1].tag, std::string("acc"));
        QCOMPARE(out.scalars[2].tag, std::string("plain"));
    }

    // Images (4), histograms (5), audio (6) are fields this reader does not know: left out,
    // as are values with an empty or non-UTF-8 tag.
    void nonScalarsAreLeftOut() {
        // Event{step: 1, summary{value{tag "img", 4: {…}}, value{tag "h", 5: {…}}}}
        const std::string image = "\x0a\x03img\x22\x02\x08\x01";
        const std::string histo = "\x0a\x01h\x2a\x02\x08\x02";
        std::string summary;
        for (const std::string& v : {image, histo}) {
            summary += '\x0a';
            summary += char(v.size());
            summary += v;
        }
        std::string event = "\x10\x01";
        event += '\x2a';
        event += char(summary.size());
        event += summary;
        EventStream s;
        auto out = feedAll(s, tfRecordFrame(event));
        QVERIFY(out.problems.empty());
        QVERIFY(out.scalars.empty());
        out = feedAll(s, simpleRecord(2, {{"", 1.0f}, {"bad\xff", 2.0f}, {"ok", 3.0f}}));
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(out.scalars[0].tag, std::string("ok"));
    }

    // A writer caught mid-record: nothing is reported for the record until its last byte, then
    // it is read once; the bytes before were held, not refused.
    void truncatedRecordIsWaitedFor() {
        const std::string first = simpleRecord(1, {{"loss", 1.0f}});
        const std::string second = simpleRecord(2, {{"loss", 0.5f}});
        EventStream s;
        auto out = feedAll(s, first);
        QCOMPARE(int(out.scalars.size()), 1);
        for (std::size_t i = 0; i + 1 < second.size(); ++i) {
            out = feedAll(s, second.substr(i, 1));
            QVERIFY(out.scalars.empty());
            QVERIFY(out.problems.empty());
            QCOMPARE(s.readOffset(), quint64(first.size() + i + 1));
        }
        QCOMPARE(s.pendingBytes(), second.size() - 1);
        QVERIFY(s.unfinished());
        QVERIFY2(s.unfinished()->find("at byte " + std::to_string(first.size())) !=
                     std::string::npos,
                 s.unfinished()->c_str());
        out = feedAll(s, second.substr(second.size() - 1));
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(out.scalars[0].value, 0.5);
        QVERIFY(!s.unfinished());
    }

    void corruptRecordIsSkipped() {
        const std::string a = simpleRecord(1, {{"loss", 1.0f}});
        std::string b = simpleRecord(2, {{"loss", 2.0f}});
        const std::string c = simpleRecord(3, {{"loss", 3.0f}});
        b[b.size() - 6] ^= 0x01; // a byte of its data: the data's CRC no longer matches
        EventStream s;
        const auto out = feedAll(s, a + b + c);
        QCOMPARE(int(out.scalars.size()), 2);
        QCOMPARE(out.scalars[0].step, qint64(1));
        QCOMPARE(out.scalars[1].step, qint64(3));
        QCOMPARE(int(out.problems.size()), 1);
        QCOMPARE(QString::fromStdString(out.problems[0]),
                 QStringLiteral("corrupt record at byte %1 (its CRC does not match): skipped")
                     .arg(a.size()));
        QVERIFY(!s.stopped());
    }

    // A length whose CRC fails cannot be trusted: the rest of the file cannot be framed.
    void corruptLengthStopsTheFile() {
        const std::string a = simpleRecord(1, {{"loss", 1.0f}});
        std::string b = simpleRecord(2, {{"loss", 2.0f}});
        b[2] ^= 0x01;
        EventStream s;
        auto out = feedAll(s, a + b + simpleRecord(3, {{"loss", 3.0f}}));
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY2(
            out.problems[0].find("corrupt record header at byte " + std::to_string(a.size())) == 0,
            out.problems[0].c_str());
        QVERIFY(out.problems[0].find("cannot be framed") != std::string::npos);
        QVERIFY(s.stopped());
        out = feedAll(s, simpleRecord(4, {{"loss", 4.0f}}));
        QVERIFY(out.scalars.empty());
        QVERIFY(out.problems.empty());
        QVERIFY(!s.unfinished());
    }

    // fuzz_tfevents (regressions/tfevents/offset-back-at-bad-header): a bad header met with
    // bytes after it held moved readOffset() back to the header. Reading never goes back.
    void offsetNeverGoesBackAtABadHeader() {
        std::string bad = simpleRecord(2, {{"loss", 2.0f}});
        bad[3] ^= 0x04;
        const std::string bytes = simpleRecord(1, {{"loss", 1.0f}}) + bad;
        EventStream s;
        std::uint64_t last = 0;
        for (std::size_t at = 0; at < bytes.size(); at += 3) {
            feedAll(s, std::string_view(bytes).substr(at, 3));
            QVERIFY2(s.readOffset() >= last, qPrintable(QString::number(at)));
            last = s.readOffset();
        }
        QVERIFY(s.stopped());
    }

    void randomBytesAreReportedOnce() {
        EventStream s;
        const auto out = feedAll(s, randomBytes(4096, 47));
        QVERIFY(out.scalars.empty());
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY2(out.problems[0].find("corrupt record header at byte 0") == 0,
                 out.problems[0].c_str());
        QVERIFY(s.stopped());
        QCOMPARE(s.pendingBytes(), std::size_t(0)); // nothing held
    }

    // A record longer than the limit is skipped from its header: never held, never allocated.
    void overLongRecordIsSkippedUnread() {
        const std::uint64_t length = EventStream::kMaxRecordBytes + 1;
        std::string header = littleEndian(length, 8);
        header += littleEndian(maskCrc32c(crc32c(header)), 4);
        EventStream s;
        auto out = feedAll(s, header + std::string(1000, 'x'));
        QVERIFY(out.scalars.empty());
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY2(out.problems[0] == "record at byte 0 holds 16777217 bytes, more than the 16 MiB "
                                    "read: skipped",
                 out.problems[0].c_str());
        QCOMPARE(s.pendingBytes(), std::size_t(0));
        QCOMPARE(s.readOffset(), quint64(12 + length + 4)); // reading goes on past it
        out = feedAll(s, simpleRecord(9, {{"loss", 9.0f}}));
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(out.scalars[0].step, qint64(9));
    }

    // The same over-long record fed whole in one piece: what follows it is still read.
    void overLongRecordInOnePiece() {
        const std::string big = tfRecordFrame(std::string(EventStream::kMaxRecordBytes + 5, 'y'));
        EventStream s;
        const auto out = feedAll(s, big + simpleRecord(2, {{"loss", 2.0f}}));
        QCOMPARE(int(out.problems.size()), 1);
        QCOMPARE(int(out.scalars.size()), 1);
    }

    void recordsThatAreNotEventsAreSkipped() {
        tb::Event negative;
        negative.set_step(-1);
        negative.mutable_summary()->add_value()->set_tag("x");
        EventStream s;
        const auto out =
            feedAll(s, tfRecordFrame("\xff\xff\xff") + tfRecordFrame(negative.SerializeAsString()) +
                           simpleRecord(1, {{"ok", 1.0f}}));
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(int(out.problems.size()), 2);
        QVERIFY2(out.problems[0] == "record at byte 0 is not a TensorBoard Event: skipped",
                 out.problems[0].c_str());
        QVERIFY2(out.problems[1].find("has step -1, outside 0..2^53") != std::string::npos,
                 out.problems[1].c_str());
    }

    void problemsAreBounded() {
        std::string bytes;
        for (int i = 0; i < 30; ++i) {
            std::string r = simpleRecord(i, {{"loss", 1.0f}});
            r[r.size() - 5] ^= 0x01;
            bytes += r;
        }
        EventStream s;
        const auto out = feedAll(s, bytes);
        QCOMPARE(out.problems.size(), EventStream::kMaxProblems + 1);
        QCOMPARE(out.problems.back(), std::string("more problems: not reported"));
    }

    // The file read as it grows, by offset: half a record waits, the rest completes it; the
    // file itself is never changed.
    void fileTailWaitsForTheRest() {
        QTemporaryDir dir;
        const QString path = dir.filePath("events.out.tfevents.1.host");
        const std::string one = versionRecord() + simpleRecord(1, {{"loss", 1.0f}});
        const std::string two = simpleRecord(2, {{"loss", 0.5f}});
        QVERIFY(writeFile(path, one + two.substr(0, 10)));
        daemon::EventFileTail tail(path.toStdString());
        EventStream::Output out;
        QCOMPARE(tail.poll(out, 1 << 20), quint64(one.size() + 10));
        QCOMPARE(int(out.scalars.size()), 1);
        out = {};
        QCOMPARE(tail.poll(out, 1 << 20), quint64(0));
        QVERIFY(out.scalars.empty() && out.problems.empty());
        QVERIFY(tail.unfinished());
        QVERIFY(writeFile(path, two.substr(10), true));
        // A poll reads at most what it is allowed: the rest comes with the next one.
        QCOMPARE(tail.poll(out, 5), quint64(5));
        QVERIFY(out.scalars.empty());
        tail.poll(out, 1 << 20);
        QCOMPARE(int(out.scalars.size()), 1);
        QCOMPARE(out.scalars[0].value, 0.5);
        QVERIFY(!tail.unfinished());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray::fromStdString(one + two));
    }

    void fileTailProblemsNameTheFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("events.out.tfevents.2.host");
        QVERIFY(writeFile(path, randomBytes(100, 5)));
        daemon::EventFileTail tail(path.toStdString());
        EventStream::Output out;
        tail.poll(out, 1 << 20);
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY2(QString::fromStdString(out.problems[0]).startsWith(path + ": corrupt record "),
                 out.problems[0].c_str());
        QVERIFY(tail.done());
        // A file cut shorter than what was read, and one that vanished: said once, then left.
        const QString cut = dir.filePath("events.out.tfevents.3.host");
        QVERIFY(writeFile(cut, simpleRecord(1, {{"a", 1.0f}}) + simpleRecord(2, {{"a", 1.0f}})));
        daemon::EventFileTail shrinking(cut.toStdString());
        out = {};
        shrinking.poll(out, 1 << 20);
        QVERIFY(QFile::resize(cut, 10));
        out = {};
        shrinking.poll(out, 1 << 20);
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY2(out.problems[0].find("was cut to 10 bytes") != std::string::npos,
                 out.problems[0].c_str());
        QVERIFY(shrinking.done());
        daemon::EventFileTail gone(dir.filePath("events.out.tfevents.none").toStdString());
        out = {};
        gone.poll(out, 1 << 20);
        QCOMPARE(int(out.problems.size()), 1);
        QVERIFY(gone.done());
    }

    void names_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("tag");
        QTest::addColumn<QString>("name");
        QTest::newRow("known") << ""
                               << "loss"
                               << "loss";
        QTest::newRow("known, capitalised") << ""
                                            << "Loss"
                                            << "loss";
        QTest::newRow("unknown kept as written") << ""
                                                 << "Custom/My Value"
                                                 << "Custom/My Value";
        QTest::newRow("HF train/loss") << ""
                                       << "train/loss"
                                       << "loss";
        QTest::newRow("HF train/learning_rate") << ""
                                                << "train/learning_rate"
                                                << "lr";
        QTest::newRow("HF train/grad_norm") << ""
                                            << "train/grad_norm"
                                            << "grad_norm";
        QTest::newRow("HF eval/loss") << ""
                                      << "eval/loss"
                                      << "test_loss";
        QTest::newRow("eval/accuracy") << ""
                                       << "eval/accuracy"
                                       << "test_accuracy";
        QTest::newRow("eval/runtime stays") << ""
                                            << "eval/runtime"
                                            << "eval/runtime";
        QTest::newRow("eval/samples_per_second stays") << ""
                                                       << "eval/samples_per_second"
                                                       << "eval/samples_per_second";
        QTest::newRow("train/accuracy stays") << ""
                                              << "train/accuracy"
                                              << "train/accuracy";
        QTest::newRow("Lightning folder") << "lightning_logs/version_0"
                                          << "train_loss"
                                          << "loss";
        QTest::newRow("Keras validation run") << "validation"
                                              << "epoch_loss"
                                              << "validation/epoch_loss";
        QTest::newRow("Keras train run") << "train"
                                         << "epoch_loss"
                                         << "train/epoch_loss";
        QTest::newRow("PyTorch tutorial Loss/train") << ""
                                                     << "Loss/train"
                                                     << "Loss/train";
        QTest::newRow("HF run folder") << "runs/May01_12-00-00_host"
                                       << "train/loss"
                                       << "loss";
        QTest::newRow("empty components") << ""
                                          << "train//loss"
                                          << "loss";
    }
    void names() {
        QFETCH(QString, folder);
        QFETCH(QString, tag);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(
                     daemon::tensorboardMetricName(folder.toStdString(), tag.toStdString())),
                 name);
    }

    // The scalars of one poll: one Metric per step, in the order the steps came, the last value
    // of a name kept, reserved names left out; JSON as a `@tessera` record plus wall_time.
    void oneMetricPerStep() {
        const std::vector<EventScalar> scalars = {
            {5, 100.0, "loss", 1.0},       {5, 100.5, "lr", 0.1},   {6, 101.0, "loss", 0.75},
            {5, 100.25, "loss", 0.9},      {5, 100.0, "step", 3.0}, {5, 100.0, "wall_time", 1.0},
            {5, 100.0, "quote\"d", 2.0e-7}};
        const std::vector<v1::Metric> metrics = daemon::scalarMetrics(scalars, 0);
        QCOMPARE(int(metrics.size()), 2);
        const v1::Metric& m = metrics[0];
        QCOMPARE(m.step(), qint64(5));
        QCOMPARE(m.rank(), 0);
        QCOMPARE(int(m.values().size()), 5); // loss, lr, quote"d, step, rank
        QCOMPARE(m.values().at("loss"), 0.9);
        QCOMPARE(m.values().at("lr"), 0.1);
        QCOMPARE(m.values().at("step"), 5.0);
        QCOMPARE(m.values().at("rank"), 0.0);
        QJsonParseError error;
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(m.json()), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, m.json().c_str());
        QCOMPARE(o.value("step").toInteger(), 5);
        QCOMPARE(o.value("rank").toInteger(), 0);
        QCOMPARE(o.value("loss").toDouble(), 0.9);
        QCOMPARE(o.value("quote\"d").toDouble(), 2.0e-7);
        QCOMPARE(o.value("wall_time").toDouble(), 100.5); // the step's latest
        QCOMPARE(o.size(), 6);
        QVERIFY(m.json().rfind("{\"step\":5,\"rank\":0,", 0) == 0);
        QCOMPARE(metrics[1].step(), qint64(6));
        QCOMPARE(metrics[1].values().at("loss"), 0.75);
    }

    void metricNamesAreBounded() {
        std::vector<EventScalar> scalars;
        for (int i = 0; i < 200; ++i) {
            scalars.push_back({1, 0.0, "m" + std::to_string(i), double(i)});
        }
        scalars.push_back({1, 0.0, std::string(200, 'n'), 1.0});
        const auto metrics = daemon::scalarMetrics(scalars, 0);
        QCOMPARE(int(metrics.size()), 1);
        QCOMPARE(int(metrics[0].values().size()), 128 + 2);
        QVERIFY(metrics[0].values().count("m127") && !metrics[0].values().count("m128"));
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(metrics[0].json())).object();
        QVERIFY(!o.contains("wall_time")); // no wall time written: none claimed
    }
};

QTEST_APPLESS_MAIN(TestEventStream)
#include "tst_event_stream.moc"
