// Unit test of the optimizers (SGD, AdamW against torch.optim), ZeRO-1 sharding (thread ranks
// instead of MPI), global gradient-norm clipping and the learning-rate schedules.
#include "tests/support/thread_communicator.h"
#include "worker/train/lr_schedule.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/optimizer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace tessera;
using namespace tessera::train;

namespace {

constexpr int kParams = 37; // not divisible by 2, 3 or 4: uneven ZeRO shards
constexpr int kSteps = 5;

float initialParam(int i) {
    return 0.5f * std::sin(0.7f * float(i) + 0.3f);
}
float gradient(int step, int i) {
    return std::cos(0.37f * float(i) + 1.3f * float(step)) * (1.0f + 0.1f * float(step));
}
float lrOf(int step) {
    return 0.05f * (1.0f + float(step)) / float(kSteps); // changes every step, like a schedule
}

OptimizerConfig sgdConfig() {
    OptimizerConfig c;
    c.kind = OptimizerConfig::Kind::Sgd;
    c.momentum = 0.9f;
    c.weightDecay = 0.01f;
    return c;
}
OptimizerConfig adamwConfig() {
    OptimizerConfig c;
    c.kind = OptimizerConfig::Kind::AdamW;
    c.beta1 = 0.8f;
    c.beta2 = 0.95f;
    c.eps = 1e-6f;
    c.weightDecay = 0.1f;
    return c;
}

/// kSteps of `config` over kParams parameters on one rank (or the DP shard of rank `dpRank`).
std::vector<float> runSteps(const OptimizerConfig& config, Communicator* dp, int zeroStage) {
    CpuOps ops;
    std::vector<float> p(kParams);
    std::vector<float> g(kParams);
    for (int i = 0; i < kParams; ++i) {
        p[std::size_t(i)] = initialParam(i);
    }
    auto opt = Optimizer::create(config, ops, p.data(), g.data(), kParams, dp, zeroStage);
    if (!opt) {
        qWarning("%s", opt.error().message.c_str());
        return {};
    }
    for (int s = 0; s < kSteps; ++s) {
        for (int i = 0; i < kParams; ++i) {
            g[std::size_t(i)] = gradient(s, i);
        }
        if (auto r = (*opt)->step(lrOf(s)); !r) {
            qWarning("%s", r.error().message.c_str());
            return {};
        }
    }
    return p;
}

/// Runs tests/worker/train/torch_optim_reference.py; empty object when torch is missing.
QJsonObject torchReference(const QJsonObject& request, QString* why) {
    QProcess py;
    py.start("/usr/bin/python3",
             {QStringLiteral(TESSERA_SOURCE_DIR) + "/tests/worker/train/torch_optim_reference.py"});
    if (!py.waitForStarted()) {
        *why = "/usr/bin/python3 is missing (install python3-torch)";
        return {};
    }
    py.write(QJsonDocument(request).toJson(QJsonDocument::Compact));
    py.closeWriteChannel();
    py.waitForFinished(120000);
    if (py.exitCode() != 0) {
        *why = "the PyTorch reference failed (install python3-torch): " +
               QString::fromUtf8(py.readAllStandardError()).right(300);
        return {};
    }
    return QJsonDocument::fromJson(py.readAllStandardOutput()).object();
}

QJsonArray toJson(const std::vector<float>& v) {
    QJsonArray a;
    for (float x : v) {
        a.append(double(x));
    }
    return a;
}

} // namespace

class TestOptimizer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesTorch_data() {
        QTest::addColumn<bool>("adamw");
        QTest::newRow("sgd momentum + weight decay") << false;
        QTest::newRow("adamw") << true;
    }

    void matchesTorch() {
        QFETCH(bool, adamw);
        const OptimizerConfig c = adamw ? adamwConfig() : sgdConfig();
        const std::vector<float> ours = runSteps(c, nullptr, 0);
        QCOMPARE(int(ours.size()), kParams);

        QJsonObject req;
        req["kind"] = adamw ? "adamw" : "sgd";
        std::vector<float> p0(kParams);
        QJsonArray grads;
        QJsonArray lrs;
        for (int i = 0; i < kParams; ++i) {
            p0[std::size_t(i)] = initialParam(i);
        }
        for (int s = 0; s < kSteps; ++s) {
            std::vector<float> g(kParams);
            for (int i = 0; i < kParams; ++i) {
                g[std::size_t(i)] = gradient(s, i);
            }
            grads.append(toJson(g));
            lrs.append(double(lrOf(s)));
        }
        req["p0"] = toJson(p0);
        req["grads"] = grads;
        req["lrs"] = lrs;
        req["momentum"] = double(c.momentum);
        req["weight_decay"] = double(c.weightDecay);
        req["beta1"] = double(c.beta1);
        req["beta2"] = double(c.beta2);
        req["eps"] = double(c.eps);
        QString why;
        const QJsonObject out = torchReference(req, &why);
        if (out.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        const QJsonArray ref = out["params"].toArray();
        QCOMPARE(ref.size(), kParams);
        for (int i = 0; i < kParams; ++i) {
            const double want = ref[i].toDouble();
            const double got = ours[std::size_t(i)];
            QVERIFY2(std::abs(got - want) <= 1e-5 + 1e-5 * std::abs(want),
                     qPrintable(QStringLiteral("param %1: ours %2, torch %3")
                                    .arg(i)
                                    .arg(got, 0, 'g', 9)
                                    .arg(want, 0, 'g', 9)));
        }
    }

    void zeroStage1MatchesUnsharded_data() {
        QTest::addColumn<bool>("adamw");
        QTest::addColumn<int>("ranks");
        for (bool a : {false, true}) {
            for (int d : {2, 3, 4}) {
                QTest::addRow("%s-dp%d", a ? "adamw" : "sgd", d) << a << d;
            }
        }
    }

    void zeroStage1MatchesUnsharded() {
        QFETCH(bool, adamw);
        QFETCH(int, ranks);
        const OptimizerConfig c = adamw ? adamwConfig() : sgdConfig();
        const std::vector<float> reference = runSteps(c, nullptr, 0);
        std::vector<std::vector<float>> results(static_cast<std::size_t>(ranks));
        test::runThreadRanks(
            ranks, [&](int r, Communicator& dp) { results[std::size_t(r)] = runSteps(c, &dp, 1); });
        for (int r = 0; r < ranks; ++r) {
            QCOMPARE(results[std::size_t(r)], reference); // element-wise update: bit-identical
        }
    }

    void zeroShardsAndState() {
        // 37 floats over 4 ranks: 10, 9, 9, 9.
        QCOMPARE(Optimizer::shardRange(37, 0, 4), std::make_pair(std::size_t(0), std::size_t(10)));
        QCOMPARE(Optimizer::shardRange(37, 1, 4), std::make_pair(std::size_t(10), std::size_t(19)));
        QCOMPARE(Optimizer::shardRange(37, 3, 4), std::make_pair(std::size_t(28), std::size_t(37)));
        test::runThreadRanks(4, [&](int r, Communicator& dp) {
            CpuOps ops;
            std::vector<float> p(37), g(37);
            auto opt = Optimizer::create(adamwConfig(), ops, p.data(), g.data(), 37, &dp, 1);
            QVERIFY(opt.has_value());
            const auto [b, e] = Optimizer::shardRange(37, r, 4);
            QCOMPARE((*opt)->begin(), b);
            QCOMPARE((*opt)->end(), e);
            const auto state = (*opt)->state();
            QCOMPARE(int(state.size()), 2);
            QCOMPARE(state[0].name, std::string("exp_avg"));
            QCOMPARE(state[1].count, e - b);
            QCOMPARE((*opt)->stateFloats(), 2 * (e - b));
        });
        CpuOps ops;
        std::vector<float> p(4), g(4);
        auto plain = Optimizer::create(OptimizerConfig{}, ops, p.data(), g.data(), 4, nullptr, 0);
        QVERIFY(plain.has_value());
        QVERIFY((*plain)->state().empty()); // SGD without momentum keeps no state
        QVERIFY(!Optimizer::create(OptimizerConfig{}, ops, p.data(), g.data(), 4, nullptr, 2));
    }

    void globalNormOverTensorParallelRanks() {
        // Two TP ranks of one replica: a replicated tensor (identical on both, counted once) and
        // a sharded one (different halves). Expected: √(Σrep² + Σshard0² + Σshard1²).
        const std::vector<float> replicated = {1.0f, -2.0f, 2.0f};                    // Σ² = 9
        const std::vector<std::vector<float>> shards = {{3.0f, 4.0f}, {12.0f, 0.0f}}; // 25, 144
        std::vector<double> norms(2);
        test::runThreadRanks(2, [&](int r, Communicator& mp) {
            CpuOps ops;
            std::vector<float> grads = replicated;
            grads.insert(grads.end(), shards[std::size_t(r)].begin(), shards[std::size_t(r)].end());
            std::vector<ParamTensor> tensors(2);
            tensors[0] = {"ln.weight", 0, 3, {3}, false};
            tensors[1] = {"fc.weight", 3, 2, {2}, true};
            auto n = globalGradNorm(ops, grads.data(), tensors, r, &mp);
            QVERIFY(n.has_value());
            norms[std::size_t(r)] = *n;
        });
        QCOMPARE(norms[0], std::sqrt(9.0 + 25.0 + 144.0));
        QCOMPARE(norms[1], norms[0]);

        CpuOps ops;
        std::vector<float> single = {3.0f, 4.0f};
        std::vector<ParamTensor> t = {{"w", 0, 2, {2}, false}};
        auto alone = globalGradNorm(ops, single.data(), t, 0, nullptr);
        QVERIFY(alone.has_value());
        QCOMPARE(*alone, 5.0);
    }

    void clipping_data() {
        QTest::addColumn<double>("norm");
        QTest::addColumn<double>("maxNorm");
        QTest::addColumn<double>("scale");
        QTest::newRow("above") << 5.0 << 1.0 << 1.0 / (5.0 + 1e-6);
        QTest::newRow("below") << 0.5 << 1.0 << 1.0;
        QTest::newRow("off") << 50.0 << 0.0 << 1.0;
    }

    void clipping() {
        QFETCH(double, norm);
        QFETCH(double, maxNorm);
        QFETCH(double, scale);
        const float s = clipScale(norm, maxNorm);
        QCOMPARE(s, float(scale));
        CpuOps ops;
        std::vector<float> g = {3.0f, 4.0f};
        applyClip(ops, g.data(), g.size(), s);
        QCOMPARE(g[0], 3.0f * float(scale));
        QCOMPARE(g[1], 4.0f * float(scale));
    }

    void lrWarmupAndCosine() {
        auto s = makeLrSchedule("cosine", 1e-3, 1e-4, 10, 110);
        QVERIFY(s.has_value());
        QCOMPARE(s->at(1), 1e-4); // peak · 1/10
        QCOMPARE(s->at(5), 5e-4);
        QCOMPARE(s->at(10), 1e-3);   // end of warm-up = peak
        QCOMPARE(s->at(60), 5.5e-4); // half way: (peak + min) / 2
        QCOMPARE(s->at(110), 1e-4);  // the floor at the end
        QCOMPARE(s->at(500), 1e-4);  // clamped afterwards
        for (int step = 11; step <= 110; ++step) {
            const double progress = (step - 10) / 100.0;
            const double want =
                1e-4 + 0.5 * (1e-3 - 1e-4) * (1 + std::cos(std::numbers::pi * progress));
            QVERIFY(std::abs(s->at(step) - want) < 1e-15);
        }
        auto c = makeLrSchedule("constant", 0.1, 0.0, 4, 0);
        QVERIFY(c.has_value());
        QCOMPARE(c->at(2), 0.05);
        QCOMPARE(c->at(4), 0.1);
        QCOMPARE(c->at(1000), 0.1);
        auto plain = makeLrSchedule("", 0.1, 0.0, 0, 0);
        QVERIFY(plain.has_value());
        QCOMPARE(plain->at(1), 0.1);
    }

    void lrCosineMatchesTorch() {
        QJsonObject req{{"kind", "cosine"}, {"peak", 3e-3}, {"min", 3e-4}, {"tmax", 40}};
        QString why;
        const QJsonObject out = torchReference(req, &why);
        if (out.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        auto s = makeLrSchedule("cosine", 3e-3, 3e-4, 7, 47);
        QVERIFY(s.has_value());
        const QJsonArray lrs = out["lrs"].toArray();
        QCOMPARE(lrs.size(), 41);
        for (int k = 0; k <= 40; ++k) { // torch's k-th scheduler step = our step warmup + k
            QVERIFY2(std::abs(s->at(7 + k) - lrs[k].toDouble()) < 1e-12,
                     qPrintable(QStringLiteral("k %1: ours %2 torch %3")
                                    .arg(k)
                                    .arg(s->at(7 + k))
                                    .arg(lrs[k].toDouble())));
        }
    }

    void badSettings_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("min");
        QTest::addColumn<qint64>("warmup");
        QTest::addColumn<qint64>("total");
        QTest::newRow("unknown") << "linear" << 0.1 << 0.0 << qint64(0) << qint64(10);
        QTest::newRow("zero peak") << "constant" << 0.0 << 0.0 << qint64(0) << qint64(10);
        QTest::newRow("min above peak") << "cosine" << 0.1 << 0.2 << qint64(0) << qint64(10);
        QTest::newRow("negative warmup") << "cosine" << 0.1 << 0.0 << qint64(-1) << qint64(10);
        QTest::newRow("cosine without total") << "cosine" << 0.1 << 0.0 << qint64(0) << qint64(0);
    }

    void badSettings() {
        QFETCH(QString, name);
        QFETCH(double, peak);
        QFETCH(double, min);
        QFETCH(qint64, warmup);
        QFETCH(qint64, total);
        auto s = makeLrSchedule(name.toStdString(), peak, min, warmup, total);
        QVERIFY(!s.has_value());
        QCOMPARE(s.error().code, ErrorCode::InvalidArgument);
    }

    void optimizerNames() {
        auto a = optimizerConfigFrom("adamw", 0, 0.1, 0, 0, 0);
        QVERIFY(a.has_value());
        QCOMPARE(a->kind, OptimizerConfig::Kind::AdamW);
        QCOMPARE(a->beta1, 0.9f);
        QCOMPARE(a->beta2, 0.999f);
        QCOMPARE(a->eps, 1e-8f);
        auto s = optimizerConfigFrom("", 0.9, 0, 0, 0, 0);
        QVERIFY(s.has_value());
        QCOMPARE(s->kind, OptimizerConfig::Kind::Sgd);
        auto bad = optimizerConfigFrom("lamb", 0, 0, 0, 0, 0);
        QVERIFY(!bad.has_value());
        QVERIFY(bad.error().message.find("lamb") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestOptimizer)
#include "test_optimizer.moc"
