// Unit test of metrics from plain output lines (issue 47): each trainer's real line format
// (log_formats.h), names and units (metric_names.h), model.metrics (metric_source.h) and a job's
// choice of format, steps and notices (plain_metrics.h), hostile lines included.
#include "worker/common/metric_source.h"
#include "worker/daemon/output/log_formats.h"
#include "worker/daemon/output/metric_names.h"
#include "worker/daemon/output/plain_metrics.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <map>

using namespace tessera;
using daemon::LineMetrics;
using daemon::PlainMetrics;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(tessera::LogFormat)

namespace {

/// "loss=2.31 lr=5e-05" from a LineMetrics' values, in a fixed order for comparison.
QMap<QString, double> valuesOf(const LineMetrics& m) {
    QMap<QString, double> out;
    for (const auto& [name, value] : m.values) {
        out.insert(QString::fromStdString(name), value);
    }
    return out;
}

MetricSource source(MetricSource::Kind kind, LogFormat format = LogFormat::KeyValue) {
    MetricSource s;
    s.kind = kind;
    s.format = format;
    return s;
}

v1::ModelSpec modelWithMetrics(const google::protobuf::Value& metrics) {
    v1::ModelSpec m;
    m.add_command("/usr/bin/python3");
    *m.mutable_metrics() = metrics;
    return m;
}

google::protobuf::Value stringValue(const std::string& s) {
    google::protobuf::Value v;
    v.set_string_value(s);
    return v;
}

google::protobuf::Value listValue(const std::vector<std::string>& items) {
    google::protobuf::Value v;
    for (const auto& i : items) {
        v.mutable_list_value()->add_values()->set_string_value(i);
    }
    return v;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestLogFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Lines as each project prints them (sources in log_formats.cpp), and what Tessera charts.
    void formats_data() {
        QTest::addColumn<LogFormat>("format");
        QTest::addColumn<std::string>("line");
        QTest::addColumn<qint64>("step");    // -1: the line names none
        QTest::addColumn<QString>("expect"); // name=value pairs that must be there
        QTest::newRow("hf train") << LogFormat::HfTrainer
                                  << std::string("{'loss': 2.3101, 'grad_norm': 1.5312, "
                                                 "'learning_rate': 5e-05, 'epoch': 0.12}")
                                  << qint64(-1)
                                  << "loss=2.3101 grad_norm=1.5312 lr=5e-05 epoch=0.12";
        QTest::newRow("hf eval") << LogFormat::HfTrainer
                                 << std::string("{'eval_loss': 2.0871, 'eval_runtime': 1.2345, "
                                                "'eval_samples_per_second': 81.01, "
                                                "'eval_steps_per_second': 10.13, 'epoch': 1.0}")
                                 << qint64(-1) << "test_loss=2.0871 epoch=1";
        QTest::newRow("hf summary")
            << LogFormat::HfTrainer
            << std::string("{'train_runtime': 12.3456, 'train_samples_per_second': 4.05, "
                           "'train_steps_per_second': 0.51, 'train_loss': 2.2012, 'epoch': 3.0}")
            << qint64(-1) << "train_runtime=12.3456 train_loss=2.2012 epoch=3";
        QTest::newRow("hf numpy 2 repr")
            << LogFormat::HfTrainer
            << std::string("{'loss': np.float64(1.25), 'grad_norm': tensor(0.5), 'epoch': 0.5}")
            << qint64(-1) << "loss=1.25 grad_norm=0.5 epoch=0.5";
        QTest::newRow("megatron")
            << LogFormat::Megatron
            << std::string(" [2025-08-01 07:19:50] iteration        2/    5000 | consumed "
                           "samples:          256 | elapsed time per iteration (ms): 12936.1 | "
                           "throughput per GPU (TFLOP/s/GPU): 118.7 | learning rate: "
                           "1.395349E-07 | global batch size:   128 | lm loss: 1.044022E+01 | "
                           "loss scale: 1.0 | grad norm: 26.305 | number of skipped iterations:"
                           "   0 | number of nan iterations:   0 |")
            << qint64(2)
            << "loss=10.44022 lr=1.395349e-07 step_ms=12936.1 grad_norm=26.305 "
               "consumed_samples=256 global_batch_size=128";
        QTest::newRow("megatron validation")
            << LogFormat::Megatron
            << std::string(" validation loss at iteration 100 | lm loss value: 5.123456E+00 | "
                           "lm loss PPL: 1.678657E+02 | ")
            << qint64(100) << "test_loss=5.123456";
        QTest::newRow("torchtitan")
            << LogFormat::Torchtitan
            << daemon::withoutEscapes(
                   "[rank0]:[titan] 2025-01-10 12:00:00,123 - root - INFO - \x1b[31mstep:  1  "
                   "\x1b[32mloss: 12.2345  \x1b[38;2;180;60;0mgrad_norm:  3.1416  "
                   "\x1b[38;2;54;234;195mmemory: 10.00GiB(10.52%)  \x1b[34mtps: 1,234  "
                   "\x1b[36mtflops: 12.34  \x1b[35mmfu: 3.95%\x1b[39m")
            << qint64(1)
            << "loss=12.2345 grad_norm=3.1416 mem_bytes=10737418240 tokens_per_s=1234 "
               "tflops=12.34 mfu=0.0395";
        QTest::newRow("torchtitan validate")
            << LogFormat::Torchtitan
            << std::string("[titan] - root - INFO - validate step: 20  loss:  2.5000  memory: "
                           " 1.00GiB(1.00%)  tps: 99")
            << qint64(20) << "test_loss=2.5 tokens_per_s=99";
        QTest::newRow("deepspeed pipe")
            << LogFormat::DeepSpeed
            << std::string("steps: 100 loss: 2.3456 iter time (s): 0.123 samples/sec: 260.100")
            << qint64(100) << "loss=2.3456 step_ms=123 samples_per_s=260.1";
        QTest::newRow("deepspeed log_dist")
            << LogFormat::DeepSpeed
            << std::string("[2024-05-01 10:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] "
                           "step=10, skipped=0, lr=[0.00015], mom=[(0.9, 0.999)]")
            << qint64(10) << "lr=0.00015";
        QTest::newRow("lightning")
            << LogFormat::Lightning
            << std::string("Epoch 2:  45%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96"
                           "\x8c     | 450/1000 [00:10<00:12, 44.12it/s, v_num=0, "
                           "train_loss=0.123, val_acc=0.875]")
            << qint64(2450) << "loss=0.123 test_accuracy=0.875 epoch=2";
        QTest::newRow("lightning empty bar")
            << LogFormat::Lightning
            << std::string("Epoch 0:   0%|          | 0/1000 [00:00<?, ?it/s, v_num=3, "
                           "train_loss=2.5]")
            << qint64(0) << "loss=2.5";
        QTest::newRow("nanogpt iter")
            << LogFormat::NanoGpt << std::string("iter 12: loss 2.8731, time 212.04ms, mfu 0.01%")
            << qint64(12) << "loss=2.8731 step_ms=212.04 mfu=0.0001";
        QTest::newRow("nanogpt first iters")
            << LogFormat::NanoGpt
            << std::string("iter 0: loss 4.2874, time 9999.01ms, mfu -100.00%") << qint64(0)
            << "loss=4.2874 step_ms=9999.01";
        QTest::newRow("nanogpt eval")
            << LogFormat::NanoGpt << std::string("step 250: train loss 1.9616, val loss 2.0698")
            << qint64(250) << "test_loss=2.0698 eval_train_loss=1.9616";
        QTest::newRow("key=value")
            << LogFormat::KeyValue << std::string("step=10 loss=0.5123 lr=1e-3 tokens_per_s=9,800")
            << qint64(10) << "loss=0.5123 lr=0.001 tokens_per_s=9800";
        QTest::newRow("key: value")
            << LogFormat::KeyValue << std::string("Epoch: 1, Step: 100, Loss: 0.5, LR: 0.001")
            << qint64(100) << "loss=0.5 lr=0.001 epoch=1";
        QTest::newRow("key=value with total")
            << LogFormat::KeyValue
            << std::string("[rank0] iteration=7/100 | loss=2.31 | samples_per_second=12.5")
            << qint64(7) << "loss=2.31 samples_per_s=12.5";
    }
    void formats() {
        QFETCH(LogFormat, format);
        QFETCH(std::string, line);
        QFETCH(qint64, step);
        QFETCH(QString, expect);
        const auto m = daemon::parseFormatLine(format, line);
        QVERIFY2(m.has_value(), line.c_str());
        QCOMPARE(m->step.has_value() ? qint64(*m->step) : qint64(-1), step);
        const auto values = valuesOf(*m);
        for (const QString& pair : expect.split(' ')) {
            const QString name = pair.section('=', 0, 0);
            const double want = pair.section('=', 1).toDouble();
            QVERIFY2(values.contains(name), qPrintable(name + " missing"));
            QVERIFY2(near(values.value(name), want),
                     qPrintable(name + " = " + QString::number(values.value(name), 'g', 17)));
        }
        if (expect.contains("mfu") == false && format == LogFormat::NanoGpt) {
            QVERIFY(!values.contains("mfu")); // the -100% placeholder is left out
        }
    }

    // Lines that resemble a format and are not its metric lines.
    void notMetricLines_data() {
        QTest::addColumn<LogFormat>("format");
        QTest::addColumn<std::string>("line");
        QTest::newRow("hf: a dict without epoch")
            << LogFormat::HfTrainer << std::string("{'a': 1}");
        QTest::newRow("hf: JSON") << LogFormat::HfTrainer
                                  << std::string("{\"loss\": 1, \"epoch\": 1}");
        QTest::newRow("megatron: prose")
            << LogFormat::Megatron << std::string("skipping iteration 5 because of nan");
        QTest::newRow("torchtitan: no loss")
            << LogFormat::Torchtitan << std::string("step: 5  memory: 1GiB");
        QTest::newRow("deepspeed: steps in prose")
            << LogFormat::DeepSpeed << std::string("it took 3 steps: then stopped");
        QTest::newRow("lightning: heading") << LogFormat::Lightning << std::string("Epoch 1 of 5");
        QTest::newRow("nanogpt: no loss") << LogFormat::NanoGpt << std::string("iter 3: waiting");
        QTest::newRow("key=value: no step")
            << LogFormat::KeyValue << std::string("loss=0.5 lr=0.1");
        QTest::newRow("key=value: only a step") << LogFormat::KeyValue << std::string("step=5");
        QTest::newRow("key=value: step not whole")
            << LogFormat::KeyValue << std::string("step=1.5 loss=2");
        QTest::newRow("key=value: step too big")
            << LogFormat::KeyValue << std::string("step=99999999999999999999 loss=2");
        QTest::newRow("key=value: nan loss")
            << LogFormat::KeyValue << std::string("step=3 loss=nan");
        QTest::newRow("key=value: infinite")
            << LogFormat::KeyValue << std::string("step=3 loss=1e999");
    }
    void notMetricLines() {
        QFETCH(LogFormat, format);
        QFETCH(std::string, line);
        QVERIFY2(!daemon::parseFormatLine(format, line).has_value(), line.c_str());
    }

    void names() {
        QCOMPARE(daemon::knownMetricName("lm loss"), std::string("loss"));
        QCOMPARE(daemon::knownMetricName("Learning Rate"), std::string("lr"));
        QCOMPARE(daemon::knownMetricName("learning-rate"), std::string("lr"));
        QCOMPARE(daemon::knownMetricName("tps"), std::string("tokens_per_s"));
        QCOMPARE(daemon::knownMetricName("elapsed time per iteration (ms)"),
                 std::string("step_ms"));
        QCOMPARE(daemon::knownMetricName("val/loss"), std::string("test_loss"));
        QCOMPARE(daemon::knownMetricName("consumed samples"), std::string());
        QCOMPARE(daemon::canonicalMetricName("Consumed  Samples"), std::string("consumed_samples"));
        QCOMPARE(daemon::canonicalMetricName("--"), std::string());
        QCOMPARE(daemon::canonicalMetricName("a\x1b[2Jb"), std::string("a[2jb"));
    }

    void values() {
        QCOMPARE(daemon::metricValue("1,234", "tokens_per_s").value(), 1234.0);
        QCOMPARE(daemon::metricValue("1,234,567.5", "x").value(), 1234567.5);
        QVERIFY(!daemon::metricValue("12,34", "x"));
        QVERIFY(near(daemon::metricValue("3.95%", "mfu").value(), 0.0395));
        QCOMPARE(daemon::metricValue("212.04ms", "step_ms").value(), 212.04);
        QCOMPARE(daemon::metricValue("0.5s", "step_ms").value(), 500.0);
        QCOMPARE(daemon::metricValue("0.5", "step_ms", 1000.0).value(), 500.0);
        QCOMPARE(daemon::metricValue("2GiB", "mem_bytes").value(), 2147483648.0);
        QCOMPARE(daemon::metricValue("1.5E+01", "loss").value(), 15.0);
        QCOMPARE(daemon::metricValue("+3", "loss").value(), 3.0);
        for (const char* bad : {"", "nan", "inf", "-inf", "abc", "1.2.3", "0x10", "1e999", "3%"}) {
            QVERIFY2(!daemon::metricValue(bad, "loss"), bad);
        }
    }

    void specNames() {
        QCOMPARE(int(metricSource(v1::ModelSpec()).value().kind), int(MetricSource::Kind::Auto));
        auto none = metricSource(modelWithMetrics(stringValue("none")));
        QCOMPARE(int(none.value().kind), int(MetricSource::Kind::None));
        auto meg = metricSource(modelWithMetrics(stringValue("megatron")));
        QCOMPARE(int(meg.value().kind), int(MetricSource::Kind::Format));
        QCOMPARE(int(meg.value().format), int(LogFormat::Megatron));
        for (LogFormat f : allLogFormats()) {
            auto s = metricSource(modelWithMetrics(stringValue(std::string(logFormatName(f)))));
            QVERIFY(s && s->format == f);
        }
        auto unknown = metricSource(modelWithMetrics(stringValue("tensorflow")));
        QVERIFY(!unknown);
        QVERIFY(unknown.error().message.find("model.metrics") != std::string::npos);
        QVERIFY(unknown.error().message.find("\"hf-trainer\"") != std::string::npos);
        google::protobuf::Value number;
        number.set_number_value(3);
        QVERIFY(!metricSource(modelWithMetrics(number)));
    }

    void specPatterns() {
        auto ok =
            metricSource(modelWithMetrics(listValue({"it (?<step>\\d+) loss (?P<loss>\\S+)"})));
        QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
        QCOMPARE(ok->patterns.at(0), std::string("it (?P<step>\\d+) loss (?P<loss>\\S+)"));
        auto bad = metricSource(modelWithMetrics(listValue({"(?P<loss>\\d+)", "loss (?P<x>[0-9"})));
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.find("pattern 1") != std::string::npos,
                 bad.error().message.c_str());
        QVERIFY(bad.error().message.find("loss (?P<x>[0-9") != std::string::npos);
        auto lookbehind = metricSource(modelWithMetrics(listValue({"(?<=a)(?P<loss>\\d)"})));
        QVERIFY(!lookbehind);
        auto noMetric = metricSource(modelWithMetrics(listValue({"step (?P<step>\\d+)"})));
        QVERIFY(!noMetric);
        QVERIFY(noMetric.error().message.find("names no metric") != std::string::npos);
        QVERIFY(!metricSource(modelWithMetrics(listValue({}))));
        QVERIFY(
            !metricSource(modelWithMetrics(listValue(std::vector<std::string>(17, "(?P<a>1)")))));
        QVERIFY(
            !metricSource(modelWithMetrics(listValue({"(?P<a>" + std::string(2000, 'x') + ")"}))));
        QCOMPARE(re2GroupSyntax("\\(?<a>x) (?<b>y) (?<=c)"),
                 std::string("\\(?<a>x) (?P<b>y) (?<=c)"));
    }

    // "auto" keeps the first specific format, announces it once, and numbers stepless lines.
    void autoKeepsTheFirstFormat() {
        PlainMetrics plain(source(MetricSource::Kind::Auto));
        QVERIFY(plain.take(0, "loading weights: 100%").metrics.empty());
        auto kv = plain.take(0, "step=1 loss=3.0"); // key=value until a specific format shows
        QCOMPARE(kv.metrics.size(), std::size_t(1));
        QCOMPARE(kv.notices.size(), std::size_t(1));
        QVERIFY(kv.notices[0].find("key=value") != std::string::npos);
        auto hf = plain.take(0, "{'loss': 2.5, 'learning_rate': 5e-05, 'epoch': 0.1}");
        QCOMPARE(hf.metrics.size(), std::size_t(1));
        QCOMPARE(hf.metrics[0].step(), 1); // the first training log line
        QCOMPARE(hf.notices.size(), std::size_t(1));
        QVERIFY2(hf.notices[0].find("charting loss, lr, epoch from Hugging Face Trainer lines") !=
                     std::string::npos,
                 hf.notices[0].c_str());
        QVERIFY(plain.take(0, "step=2 loss=9.0").metrics.empty()); // locked to the Trainer
        auto second = plain.take(0, "{'loss': 2.4, 'learning_rate': 4e-05, 'epoch': 0.2}");
        QCOMPARE(second.metrics.at(0).step(), 2);
        QVERIFY(second.notices.empty());
        auto eval = plain.take(0, "{'eval_loss': 2.2, 'epoch': 0.2}");
        QCOMPARE(eval.metrics.at(0).step(), 2); // an evaluation belongs to the last step
        QCOMPARE(eval.metrics.at(0).values().at("test_loss"), 2.2);
        QCOMPARE(plain.take(1, "{'loss': 7.0, 'epoch': 0.1}").metrics.at(0).step(), 1); // per rank
        const v1::Metric& m = second.metrics[0];
        QCOMPARE(m.rank(), 0);
        QCOMPARE(QByteArray::fromStdString(m.json()),
                 QByteArray("{\"step\":2,\"rank\":0,\"loss\":2.3999999999999999,"
                            "\"lr\":4.0000000000000003e-05,\"epoch\":0.20000000000000001}"));
    }

    void recordsStopAuto() {
        PlainMetrics plain(source(MetricSource::Kind::Auto));
        QCOMPARE(plain.take(0, "iter 1: loss 2.0, time 5ms").metrics.size(), std::size_t(1));
        auto notice = plain.recordSeen();
        QVERIFY(notice && notice->find("@tessera records") != std::string::npos);
        QVERIFY(!plain.recordSeen());
        QVERIFY(plain.take(0, "iter 2: loss 1.9, time 5ms").metrics.empty());
        // A named format keeps reading beside records.
        PlainMetrics named(source(MetricSource::Kind::Format, LogFormat::NanoGpt));
        QVERIFY(!named.recordSeen());
        QCOMPARE(named.take(0, "iter 2: loss 1.9, time 5ms").metrics.size(), std::size_t(1));
    }

    void noneChartsNothing() {
        PlainMetrics plain(source(MetricSource::Kind::None));
        for (const char* line : {"step=1 loss=2", "iter 1: loss 2.0", "{'loss': 1, 'epoch': 1}"}) {
            auto t = plain.take(0, line);
            QVERIFY(t.metrics.empty() && t.notices.empty());
        }
    }

    void namedFormatReadsOnlyItsLines() {
        PlainMetrics plain(source(MetricSource::Kind::Format, LogFormat::Megatron));
        QVERIFY(plain.take(0, "step=1 loss=2").metrics.empty());
        auto t = plain.take(3, " iteration 5/ 10 | lm loss: 2.5E+00 |");
        QCOMPARE(t.metrics.size(), std::size_t(1));
        QCOMPARE(t.metrics[0].rank(), 3);
        QVERIFY(t.notices.at(0).find("Megatron-LM lines (model.metrics \"megatron\")") !=
                std::string::npos);
        QVERIFY(
            plain.take(-1, " iteration 6/ 10 | lm loss: 2.4E+00 |").metrics.empty()); // mpirun's
    }

    void patterns() {
        MetricSource s = source(MetricSource::Kind::Patterns);
        s.patterns = {re2GroupSyntax("^E(?<epoch>\\d+) it(?<step>\\d+) (?<mfu>\\S+)$"),
                      "acc=(?P<val_acc>[0-9.]+)"};
        PlainMetrics plain(s);
        auto a = plain.take(0, "E1 it40 3.5%");
        QCOMPARE(a.metrics.size(), std::size_t(1));
        QCOMPARE(a.metrics[0].step(), 40);
        QVERIFY(near(a.metrics[0].values().at("mfu"), 0.035));
        QVERIFY(a.notices.at(0).find("patterns") != std::string::npos);
        auto b = plain.take(0, "eval acc=0.91");
        QCOMPARE(b.metrics.at(0).step(), 1); // no step group: numbered
        QCOMPARE(b.metrics.at(0).values().at("test_accuracy"), 0.91);
        auto c = plain.take(0, "E1 it41 abc"); // a group that is no number is left out
        QCOMPARE(c.metrics.size(), std::size_t(1));
        QVERIFY(!c.metrics[0].values().contains("mfu"));
        QCOMPARE(c.metrics[0].values().at("epoch"), 1.0);
    }

    // tqdm redraws after '\r': each redraw is read, a repeat at the same step is not.
    void progressBarRedraws() {
        PlainMetrics plain(source(MetricSource::Kind::Auto));
        const std::string bar =
            "\rEpoch 0:  10%|#         | 1/10 [00:01<00:09, 1.0it/s, v_num=0, train_loss=2.0]"
            "\rEpoch 0:  10%|#         | 1/10 [00:01<00:09, 1.0it/s, v_num=0, train_loss=2.0]"
            "\rEpoch 0:  20%|##        | 2/10 [00:02<00:08, 1.0it/s, v_num=0, train_loss=1.5]";
        auto t = plain.take(0, bar);
        QCOMPARE(t.metrics.size(), std::size_t(2));
        QCOMPARE(t.metrics[0].step(), 1);
        QCOMPARE(t.metrics[1].step(), 2);
        QCOMPARE(t.metrics[1].values().at("loss"), 1.5);
    }

    // A bar longer than the worker's 64 KiB pieces: each piece is read, the redraws cut at its
    // edges are left out, no value is read from half a number.
    void piecesOfALongBar() {
        std::string line;
        for (int n = 1; n <= 2000; ++n) {
            line += "\rEpoch 0:  50%|#####     | " + std::to_string(n) +
                    "/2000 [00:01<00:01, 9.0it/s, v_num=0, train_loss=" + std::to_string(n) +
                    ".25]";
        }
        constexpr std::size_t kPiece = 64 * 1024;
        PlainMetrics plain(source(MetricSource::Kind::Auto));
        std::map<std::int64_t, double> seen;
        for (std::size_t at = 0; at < line.size(); at += kPiece) {
            const bool last = at + kPiece >= line.size();
            auto t = plain.take(0, std::string_view(line).substr(at, kPiece), at > 0, !last);
            for (const auto& m : t.metrics) {
                seen[m.step()] = m.values().at("loss");
            }
        }
        const std::size_t pieces = (line.size() + kPiece - 1) / kPiece;
        QVERIFY(pieces >= 2);
        QVERIFY2(seen.size() >= 2000 - pieces, qPrintable(QString::number(seen.size())));
        for (const auto& [step, loss] : seen) {
            QCOMPARE(loss, double(step) + 0.25);
        }
    }

    // Whatever a program prints: no crash, every metric name valid UTF-8 and finite values.
    void hostileLines() {
        PlainMetrics plain(source(MetricSource::Kind::Auto));
        QRandomGenerator rng(47);
        const std::vector<std::string> seeds = {"step=1 loss=2",
                                                "{'loss': 1, 'epoch': 1}",
                                                " iteration 1/ 2 | lm loss: 1 |",
                                                "step:  1  loss: 2  tps: 1",
                                                "steps: 1 loss: 2",
                                                "iter 1: loss 2",
                                                "Epoch 0:  0%| | 0/1 [00:00, x=1]"};
        for (int i = 0; i < 20000; ++i) {
            std::string line = seeds[std::size_t(i) % seeds.size()];
            const int edits = int(rng.bounded(6));
            for (int e = 0; e < edits; ++e) {
                const auto at = std::size_t(rng.bounded(int(line.size()) + 1));
                line.insert(at, 1, char(rng.bounded(256)));
            }
            auto t = plain.take(int(rng.bounded(3)), line);
            for (const auto& m : t.metrics) {
                std::string bytes;
                QVERIFY(m.SerializeToString(&bytes)); // protobuf refuses names that are not UTF-8
                for (const auto& [name, value] : m.values()) {
                    QVERIFY(std::isfinite(value));
                    QVERIFY(!name.empty());
                }
            }
        }
        QVERIFY(plain.take(0, std::string(1 << 20, '=')).metrics.empty());
        QVERIFY(plain.take(0, std::string(100000, '\r')).metrics.empty());
        std::string manyPairs = "step=1";
        for (int i = 0; i < 1000; ++i) {
            manyPairs += " k" + std::to_string(i) + "=1";
        }
        auto many = plain.take(0, manyPairs);
        QVERIFY(many.metrics.empty() || many.metrics[0].values_size() <= 130);
    }
};

QTEST_APPLESS_MAIN(TestLogFormats)
#include "tst_log_formats.moc"
