// describeModel(): parameter counts by hand, spec errors, and agreement with what buildLayers
// really builds (cost(), the activation bytes the engine allocates, parameter counts).
#include "worker/common/model_desc.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/nn/model.h"

#include <QtTest>

using namespace tessera;
using namespace tessera::train;

namespace {

v1::ModelSpec mlp(std::initializer_list<int> hidden) {
    v1::ModelSpec m;
    m.set_family("mlp");
    for (int h : hidden) {
        m.add_hidden(h);
    }
    return m;
}

v1::ModelSpec vit(int dim, int blocks, int heads, int mlpDim, int patch, const char* pooling) {
    v1::ModelSpec m;
    m.set_family("vit");
    m.set_dim(dim);
    m.set_blocks(blocks);
    m.set_heads(heads);
    m.set_mlp_dim(mlpDim);
    m.set_patch(patch);
    m.set_pooling(pooling);
    return m;
}

v1::ModelSpec gpt(int dim, int blocks, int heads, int mlpDim, int context, int vocab) {
    v1::ModelSpec m;
    m.set_family("gpt");
    m.set_dim(dim);
    m.set_blocks(blocks);
    m.set_heads(heads);
    m.set_mlp_dim(mlpDim);
    m.set_context(context);
    m.set_vocab_size(vocab);
    return m;
}

/// Block parameters by the GPT-2 formula: 2 LayerNorms (4C), qkv (3C² + 3C), proj (C² + C),
/// fc (CM + M), fc2 (MC + C).
std::int64_t blockParams(std::int64_t C, std::int64_t M) {
    return 4 * C + (3 * C * C + 3 * C) + (C * C + C) + (C * M + M) + (M * C + C);
}

} // namespace

Q_DECLARE_METATYPE(v1::ModelSpec)

class TestModelDesc : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void paramCounts_data();
    void paramCounts();
    void badSpecs_data();
    void badSpecs();
    void builtLayersMatchDesc_data();
    void builtLayersMatchDesc();
    void tpDivisibility();
    void mlpTpModes();
};

void TestModelDesc::paramCounts_data() {
    QTest::addColumn<v1::ModelSpec>("spec");
    QTest::addColumn<qint64>("params");
    QTest::addColumn<int>("layers");
    QTest::newRow("mlp 784-256-128-10") << mlp({256, 128}) << qint64(235146) << 5;
    QTest::newRow("mlp 784-10") << mlp({}) << qint64(784 * 10 + 10) << 1;
    {
        // ViT, C 32, 2 blocks, M 4C, patch 7 (16 patches + cls = 17 tokens).
        const std::int64_t C = 32, M = 128, P = 7, T = 17;
        const std::int64_t p =
            (P * P * C + C + C + T * C) + 2 * blockParams(C, M) + 2 * C + (C * 10 + 10);
        QTest::newRow("vit cls") << vit(32, 2, 4, 0, 7, "cls") << qint64(p) << 6;
    }
    {
        const std::int64_t C = 24, M = 40, P = 4, T = 49;
        const std::int64_t p =
            (P * P * C + C + T * C) + 3 * blockParams(C, M) + 2 * C + (C * 10 + 10);
        QTest::newRow("vit mean") << vit(24, 3, 2, 40, 4, "mean") << qint64(p) << 7;
    }
    {
        const std::int64_t C = 48, M = 192, T = 64, V = 65;
        const std::int64_t p = (V * C + T * C) + 2 * blockParams(C, M) + 2 * C + (C * V + V);
        QTest::newRow("gpt") << gpt(48, 2, 6, 0, 64, 65) << qint64(p) << 5;
    }
}

void TestModelDesc::paramCounts() {
    QFETCH(v1::ModelSpec, spec);
    QFETCH(qint64, params);
    QFETCH(int, layers);
    auto d = describeModel(spec);
    QVERIFY2(d.has_value(), d ? "" : d.error().message.c_str());
    QCOMPARE(qint64(d->params()), params);
    QCOMPARE(int(d->layers.size()), layers);
}

void TestModelDesc::badSpecs_data() {
    QTest::addColumn<v1::ModelSpec>("spec");
    QTest::addColumn<QString>("field");
    QTest::newRow("dim % heads") << gpt(30, 1, 4, 0, 8, 10) << "heads";
    QTest::newRow("patch 5 does not divide 28") << vit(32, 1, 4, 0, 5, "cls") << "patch";
    QTest::newRow("patch 0") << vit(32, 1, 4, 0, 0, "cls") << "patch";
    QTest::newRow("pooling max") << vit(32, 1, 4, 0, 7, "max") << "pooling";
    QTest::newRow("unknown family") << [] {
        v1::ModelSpec m;
        m.set_family("resnet");
        return m;
    }() << "family";
    QTest::newRow("context 0") << gpt(32, 1, 4, 0, 0, 10) << "context";
    QTest::newRow("blocks 0") << gpt(32, 0, 4, 0, 8, 10) << "blocks";
    QTest::newRow("hidden 0") << mlp({64, 0}) << "hidden";
}

void TestModelDesc::badSpecs() {
    QFETCH(v1::ModelSpec, spec);
    QFETCH(QString, field);
    auto d = describeModel(spec);
    QVERIFY(!d.has_value());
    QCOMPARE(int(d.error().code), int(ErrorCode::InvalidArgument));
    QVERIFY2(QString::fromStdString(d.error().message).contains(field), d.error().message.c_str());
}

void TestModelDesc::builtLayersMatchDesc_data() {
    QTest::addColumn<v1::ModelSpec>("spec");
    QTest::newRow("mlp") << mlp({256, 128});
    QTest::newRow("mlp odd") << mlp({64, 32, 16});
    QTest::newRow("vit cls") << vit(32, 2, 4, 0, 7, "cls");
    QTest::newRow("vit mean") << vit(24, 1, 3, 40, 14, "mean");
    QTest::newRow("gpt") << gpt(32, 2, 4, 48, 16, 27);
}

void TestModelDesc::builtLayersMatchDesc() {
    QFETCH(v1::ModelSpec, spec);
    auto d = describeModel(spec);
    QVERIFY2(d.has_value(), d ? "" : d.error().message.c_str());
    CpuOps ops;
    auto layers = buildLayers(spec, *d, 0, int(d->layers.size()) - 1, ops, TpContext{});
    QVERIFY2(layers.has_value(), layers ? "" : layers.error().message.c_str());
    QCOMPARE(layers->size(), d->layers.size());
    std::int64_t paramSum = 0;
    std::int64_t width = d->inputSize;
    for (std::size_t i = 0; i < layers->size(); ++i) {
        const Layer& l = *(*layers)[i];
        const LayerDesc& ld = d->layers[i];
        const LayerCost c = l.cost();
        QCOMPARE(QString::fromStdString(l.name()), QString::fromStdString(ld.name));
        QCOMPARE(qint64(c.params), qint64(ld.params));
        QCOMPARE(c.forwardFlopsPerSample, ld.forwardFlopsPerSample);
        QCOMPARE(qint64(c.activationBytesPerSample), qint64(ld.activationBytesPerSample));
        // What the engine allocates per sample for this layer's activations: output + cache.
        const std::int64_t allocated = 4 * (l.outputSize() + std::int64_t(l.cacheSize()));
        QCOMPARE(qint64(allocated), qint64(ld.activationBytesPerSample));
        QCOMPARE(qint64(l.paramCount()), qint64(ld.params)); // TP = 1: the whole layer
        QCOMPARE(qint64(l.inputSize()), qint64(width));      // layers chain
        width = l.outputSize();
        paramSum += std::int64_t(l.paramCount());
    }
    QCOMPARE(qint64(width), qint64(d->rowsPerSample) * d->classes);
    QCOMPARE(qint64(paramSum), qint64(d->params()));
}

void TestModelDesc::tpDivisibility() {
    // A block must split its heads and MLP width; layer ranges must lie inside the model.
    const v1::ModelSpec spec = gpt(24, 1, 3, 0, 8, 10);
    auto d = describeModel(spec);
    QVERIFY(d.has_value());
    CpuOps ops;
    auto layers = buildLayers(spec, *d, 1, 1, ops, TpContext{});
    QVERIFY(layers.has_value());
    auto bad = buildLayers(spec, *d, 0, 5, ops, TpContext{});
    QVERIFY(!bad.has_value()); // out of range
    QVERIFY(QString::fromStdString(bad.error().message).contains("outside"));
    QCOMPARE(d->layers[1].tpDivides, (std::vector<std::int64_t>{3, 96}));
}

void TestModelDesc::mlpTpModes() {
    // 784-64-32-16-10: linear0 column (splits 64), linear1 row (splits 64), linear2 column
    // (splits 16), linear3 row (splits 16); relu0 and relu2 work on shards.
    auto d = describeModel(mlp({64, 32, 16}));
    QVERIFY(d.has_value());
    QCOMPARE(d->layers.size(), std::size_t(7));
    QCOMPARE(d->layers[0].tpDivides, (std::vector<std::int64_t>{64}));
    QCOMPARE(d->layers[1].tpDivides, (std::vector<std::int64_t>{64}));
    QCOMPARE(d->layers[2].tpDivides, (std::vector<std::int64_t>{64}));
    QVERIFY(d->layers[3].tpDivides.empty());
    QCOMPARE(d->layers[4].tpDivides, (std::vector<std::int64_t>{16}));
    QCOMPARE(d->layers[6].tpDivides, (std::vector<std::int64_t>{16}));
    // 784-64-10: the trailing linear1 is row-parallel (paired with linear0).
    auto d2 = describeModel(mlp({64}));
    QVERIFY(d2.has_value());
    QCOMPARE(d2->layers[2].tpDivides, (std::vector<std::int64_t>{64}));
}

QTEST_GUILESS_MAIN(TestModelDesc)
#include "test_model_desc.moc"
