// Tensor parallelism without MPI: layers built by buildLayers for TP 2 (two threads joined by an
// ThreadCommunicator) give the same outputs, input gradients, initial parameters and gathered
// parameter gradients as the TP = 1 layers built from the same seed (1e-5 relative).
#include "tests/support/thread_communicator.h"
#include "worker/common/model_desc.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/nn/model.h"

#include <QtTest>

#include <cblas.h>

#include <random>
#include <thread>

using namespace tessera;
using namespace tessera::train;

namespace {

constexpr double kTolerance = 1e-5;
constexpr std::uint64_t kSeed = 1234;

/// max|a − b| / max(max|b|, 1e-6) (see test_layers_torch).
double relErr(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) {
        return INFINITY;
    }
    double diff = 0.0, mag = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff = std::max(diff, std::abs(double(a[i]) - double(b[i])));
        mag = std::max(mag, std::abs(double(b[i])));
    }
    return diff / std::max(mag, 1e-6);
}

/// One rank's run over layers first..last: y, dx of the first layer, params and grads by
/// "layer/param" name with their shapes.
struct RunResult {
    std::vector<float> y, dx;
    std::vector<std::string> names;
    std::vector<std::vector<std::int64_t>> shapes;
    std::vector<std::vector<float>> params, grads;
    QString error;
};

RunResult runRange(const v1::ModelSpec& spec, const ModelDesc& desc, int first, int last,
                   TpContext tp, const std::vector<float>& x, const std::vector<float>& dy, int B) {
    RunResult out;
    CpuOps ops;
    auto built = buildLayers(spec, desc, first, last, ops, tp);
    if (!built) {
        out.error = QString::fromStdString(built.error().message);
        return out;
    }
    auto& layers = *built;
    std::size_t total = 0;
    for (auto& l : layers) {
        total += l->paramCount();
    }
    std::vector<float> params(total), grads(total, 0.0f);
    std::size_t off = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        layers[i]->initParams(layerSeed(kSeed, first + int(i)), params.data() + off);
        layers[i]->bind(params.data() + off, grads.data() + off);
        off += layers[i]->paramCount();
    }
    const std::size_t n = layers.size();
    std::vector<std::vector<float>> acts(n + 1), caches(n), scratch(n);
    acts[0] = x;
    for (std::size_t i = 0; i < n; ++i) {
        acts[i + 1].assign(std::size_t(B) * layers[i]->outputSize(), 0.0f);
        caches[i].assign(std::size_t(B) * layers[i]->cacheSize() + 1, 0.0f);
        scratch[i].assign(std::size_t(B) * layers[i]->scratchSize() + 1, 0.0f);
        if (!layers[i]->forward(acts[i].data(), acts[i + 1].data(), caches[i].data(),
                                scratch[i].data(), B)) {
            out.error = "forward failed";
            return out;
        }
    }
    std::vector<float> d = dy;
    for (std::size_t i = n; i-- > 0;) {
        std::vector<float> dx(std::size_t(B) * layers[i]->inputSize(), 0.0f);
        if (!layers[i]->backward(acts[i].data(), acts[i + 1].data(), caches[i].data(), d.data(),
                                 dx.data(), scratch[i].data(), B)) {
            out.error = "backward failed";
            return out;
        }
        d = std::move(dx);
    }
    out.y = acts[n];
    out.dx = d;
    off = 0;
    for (auto& l : layers) {
        for (const auto& p : l->params()) {
            out.names.push_back(l->name() + "/" + p.name);
            out.shapes.push_back(p.shape);
            out.params.emplace_back(params.begin() + std::ptrdiff_t(off + p.offset),
                                    params.begin() + std::ptrdiff_t(off + p.offset + p.count));
            out.grads.emplace_back(grads.begin() + std::ptrdiff_t(off + p.offset),
                                   grads.begin() + std::ptrdiff_t(off + p.offset + p.count));
        }
        off += l->paramCount();
    }
    return out;
}

/// Full tensor (shape `full`) from the TP shards: split rows (in `groups` blocks, qkv: 3) or
/// columns, detected from the shard shape; replicated tensors come back from rank 0.
std::vector<float> gather(const std::vector<std::vector<float>>& shards,
                          const std::vector<std::int64_t>& shard,
                          const std::vector<std::int64_t>& full, int groups) {
    const int t = int(shards.size());
    if (shard == full) {
        return shards[0];
    }
    const std::int64_t cols = full.size() > 1 ? full[1] : 1;
    std::vector<float> out(std::size_t(full[0] * cols));
    if (shard[0] != full[0]) { // rows split, per group
        const std::int64_t G = full[0] / groups, Gl = shard[0] / groups;
        for (int r = 0; r < t; ++r) {
            for (int g = 0; g < groups; ++g) {
                for (std::int64_t i = 0; i < Gl; ++i) {
                    std::copy_n(shards[std::size_t(r)].begin() + (g * Gl + i) * cols, cols,
                                out.begin() + (g * G + r * Gl + i) * cols);
                }
            }
        }
    } else { // columns split
        const std::int64_t cl = shard[1];
        for (int r = 0; r < t; ++r) {
            for (std::int64_t o = 0; o < full[0]; ++o) {
                std::copy_n(shards[std::size_t(r)].begin() + o * cl, cl,
                            out.begin() + o * cols + r * cl);
            }
        }
    }
    return out;
}

v1::ModelSpec transformer(const char* family, int dim, int heads, int mlpDim) {
    v1::ModelSpec m;
    m.set_family(family);
    m.set_dim(dim);
    m.set_blocks(2);
    m.set_heads(heads);
    m.set_mlp_dim(mlpDim);
    m.set_patch(7);
    m.set_pooling("cls");
    m.set_context(6);
    m.set_vocab_size(11);
    return m;
}

} // namespace

Q_DECLARE_METATYPE(v1::ModelSpec)

class TestTpLayers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { openblas_set_num_threads(1); }
    void matchesSingleRank_data();
    void matchesSingleRank();
};

void TestTpLayers::matchesSingleRank_data() {
    QTest::addColumn<v1::ModelSpec>("spec");
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("last");
    QTest::addColumn<int>("B");
    v1::ModelSpec mlp;
    mlp.set_family("mlp");
    mlp.add_hidden(64);
    mlp.add_hidden(32);
    QTest::newRow("mlp linear0(col) relu0 linear1(row)") << mlp << 0 << 2 << 3;
    QTest::newRow("mlp whole model") << mlp << 0 << 4 << 2;
    QTest::newRow("gpt block1 causal") << transformer("gpt", 16, 4, 24) << 2 << 2 << 2;
    QTest::newRow("gpt blocks + ln_f + head") << transformer("gpt", 8, 2, 0) << 1 << 4 << 1;
    QTest::newRow("gpt whole model") << transformer("gpt", 8, 2, 0) << 0 << 4 << 2;
    QTest::newRow("vit whole model") << transformer("vit", 12, 2, 20) << 0 << 5 << 2;
    QTest::newRow("vit block0 non-causal") << transformer("vit", 12, 2, 20) << 1 << 1 << 2;
}

void TestTpLayers::matchesSingleRank() {
    QFETCH(v1::ModelSpec, spec);
    QFETCH(int, first);
    QFETCH(int, last);
    QFETCH(int, B);
    auto desc = describeModel(spec);
    QVERIFY2(desc.has_value(), desc ? "" : desc.error().message.c_str());
    CpuOps probeOps;
    auto probe = buildLayers(spec, *desc, first, last, probeOps, TpContext{});
    QVERIFY(probe.has_value());
    const int in = int(probe->front()->inputSize()), out = int(probe->back()->outputSize());
    std::mt19937_64 rng(7);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> x(std::size_t(B) * in), dy(std::size_t(B) * out);
    for (auto& v : x) {
        v = desc->family == "gpt" && first == 0 ? float(rng() % 11) : nd(rng);
    }
    for (auto& v : dy) {
        v = nd(rng);
    }

    const RunResult ref = runRange(spec, *desc, first, last, TpContext{}, x, dy, B);
    QVERIFY2(ref.error.isEmpty(), qPrintable(ref.error));

    constexpr int kTp = 2;
    std::vector<RunResult> ranks(kTp);
    test::runThreadRanks(kTp, [&](int r, Communicator& comm) {
        ranks[std::size_t(r)] =
            runRange(spec, *desc, first, last, TpContext{&comm, r, kTp}, x, dy, B);
    });
    double worst = 0.0;
    for (int r = 0; r < kTp; ++r) {
        const RunResult& rr = ranks[std::size_t(r)];
        QVERIFY2(rr.error.isEmpty(), qPrintable(rr.error));
        const double ey = relErr(rr.y, ref.y), edx = relErr(rr.dx, ref.dx);
        worst = std::max({worst, ey, edx});
        QVERIFY2(ey < kTolerance, qPrintable(QString("rank %1 y rel err %2").arg(r).arg(ey)));
        QVERIFY2(edx < kTolerance, qPrintable(QString("rank %1 dx rel err %2").arg(r).arg(edx)));
        QCOMPARE(rr.names, ref.names);
    }
    for (std::size_t i = 0; i < ref.names.size(); ++i) {
        const int groups = ref.names[i].find("qkv") != std::string::npos ? 3 : 1;
        std::vector<std::vector<float>> p, g;
        for (const auto& rr : ranks) {
            p.push_back(rr.params[i]);
            g.push_back(rr.grads[i]);
            if (ranks[0].shapes[i] == ref.shapes[i]) { // replicated: every rank has all of it
                QCOMPARE(relErr(rr.grads[i], ref.grads[i]) < kTolerance, true);
            }
        }
        const QString name = QString::fromStdString(ref.names[i]);
        QVERIFY2(gather(p, ranks[0].shapes[i], ref.shapes[i], groups) == ref.params[i],
                 qPrintable(name + ": TP shards are not slices of the TP = 1 init"));
        const double e = relErr(gather(g, ranks[0].shapes[i], ref.shapes[i], groups), ref.grads[i]);
        worst = std::max(worst, e);
        QVERIFY2(e < kTolerance, qPrintable(name + " gathered grad rel err " + QString::number(e)));
    }
    qInfo("max rel err TP2 vs TP1: %.3g", worst);
}

QTEST_GUILESS_MAIN(TestTpLayers)
#include "test_tp_layers.moc"
