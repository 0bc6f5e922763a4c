// Every layer's forward and backward, softmax cross-entropy and the SGD/AdamW steps against
// PyTorch (tests/worker/nn/torch_reference.py run by /usr/bin/python3, float64 reference) on
// the same parameters, inputs and upstream gradients; and that backward accumulates.
//
// Error measure (per tensor): rel = max_i |ours_i − torch_i| / max(max_i |torch_i|, 1e-6),
// i.e. the largest deviation relative to the tensor's largest magnitude. Bound: 1e-4.
#include "worker/train/nn/activation_layer.h"
#include "worker/train/nn/attention_layer.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/nn/embedding_layer.h"
#include "worker/train/nn/layer_norm_layer.h"
#include "worker/train/nn/linear_layer.h"
#include "worker/train/nn/patch_embedding_layer.h"
#include "worker/train/nn/pool_layer.h"
#include "worker/train/nn/transformer_block.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>

using namespace tessera::train;

namespace {

constexpr double kTolerance = 1e-4;
constexpr const char* kPython = "/usr/bin/python3";

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

std::vector<float> randn(std::mt19937_64& rng, std::size_t n, float sd = 1.0f) {
    std::normal_distribution<float> dist(0.0f, sd);
    std::vector<float> v(n);
    for (auto& x : v) {
        x = dist(rng);
    }
    return v;
}

bool writeFloats(const QString& path, const float* data, std::size_t n) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(reinterpret_cast<const char*>(data), qint64(n * sizeof(float))) ==
               qint64(n * sizeof(float));
}

std::vector<float> readFloats(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray b = f.readAll();
    std::vector<float> v(std::size_t(b.size()) / sizeof(float));
    std::memcpy(v.data(), b.constData(), v.size() * sizeof(float));
    return v;
}

enum class Input { Normal, Ids, Pixels };

/// One layer configuration: how to build it and what torch_reference.py needs to rebuild it.
struct LayerCase {
    const char* name;
    QJsonObject meta; // kind and sizes for the Python side
    std::function<std::unique_ptr<Layer>(Ops&)> make;
    int B;
    QJsonArray xShape;
    Input input = Input::Normal;
    int vocab = 0;           // Input::Ids
    float paramNoise = 0.1f; // added to the initial parameters so LayerNorm/biases are not trivial
};

/// What our side computed for one case and what torch wrote back.
struct CaseResult {
    std::vector<float> y, dx;
    std::vector<std::string> paramNames;
    std::map<std::string, std::vector<float>> grads, grads2; // after one / two backward calls
    bool hasDx = true;
};

QJsonObject obj(std::initializer_list<std::pair<QString, QJsonValue>> kv) {
    QJsonObject o;
    for (const auto& [k, v] : kv) {
        o.insert(k, v);
    }
    return o;
}

std::vector<LayerCase> layerCases() {
    const TpContext tp1{};
    auto linear = [tp1](int in, int out, int T, LinearInit init) {
        return [=](Ops& ops) -> std::unique_ptr<Layer> {
            return std::make_unique<LinearLayer>(ops, "linear", in, out, T, LinearMode::Replicated,
                                                 init, tp1);
        };
    };
    auto attention = [tp1](int T, int C, int H, bool causal) {
        return [=](Ops& ops) -> std::unique_ptr<Layer> {
            return std::make_unique<AttentionLayer>(
                ops, "attn", T, C, H, causal ? AttentionMask::Causal : AttentionMask::None, tp1);
        };
    };
    auto block = [tp1](int T, int C, int H, int M, bool causal) {
        return [=](Ops& ops) -> std::unique_ptr<Layer> {
            return std::make_unique<TransformerBlock>(
                ops, "block", T, C, H, M, causal ? AttentionMask::Causal : AttentionMask::None,
                tp1);
        };
    };
    auto patch = [](int P, int C, bool cls) {
        return [=](Ops& ops) -> std::unique_ptr<Layer> {
            return std::make_unique<PatchEmbeddingLayer>(ops, "patch", 28, P, C, cls);
        };
    };
    std::vector<LayerCase> cs;
    cs.push_back({"linear_3x7to5",
                  obj({{"kind", "linear"}, {"in", 7}, {"out", 5}}),
                  linear(7, 5, 1, LinearInit::TorchDefault),
                  3,
                  {3, 7}});
    cs.push_back({"linear_b1_784to33",
                  obj({{"kind", "linear"}, {"in", 784}, {"out", 33}}),
                  linear(784, 33, 1, LinearInit::TorchDefault),
                  1,
                  {1, 784}});
    cs.push_back({"linear_tokens_2x4x6to9",
                  obj({{"kind", "linear"}, {"in", 6}, {"out", 9}}),
                  linear(6, 9, 4, LinearInit::Normal),
                  2,
                  {2, 4, 6}});
    cs.push_back({"relu_4x37",
                  obj({{"kind", "relu"}}),
                  [](Ops& ops) {
                      return std::make_unique<ActivationLayer>(ops, Activation::Relu, "relu", 37);
                  },
                  4,
                  {4, 37}});
    cs.push_back({"gelu_3x37",
                  obj({{"kind", "gelu"}}),
                  [](Ops& ops) {
                      return std::make_unique<ActivationLayer>(ops, Activation::Gelu, "gelu", 37);
                  },
                  3,
                  {3, 37}});
    cs.push_back({"layer_norm_2x3x11",
                  obj({{"kind", "layer_norm"}, {"C", 11}}),
                  [](Ops& ops) { return std::make_unique<LayerNormLayer>(ops, "ln", 11, 3); },
                  2,
                  {2, 3, 11}});
    cs.push_back({"layer_norm_b1_t1",
                  obj({{"kind", "layer_norm"}, {"C", 8}}),
                  [](Ops& ops) { return std::make_unique<LayerNormLayer>(ops, "ln", 8, 1); },
                  1,
                  {1, 1, 8}});
    LayerCase emb{"embedding_3x5_v13_c8",
                  obj({{"kind", "embedding"}, {"V", 13}, {"T", 5}, {"C", 8}}),
                  [](Ops& ops) { return std::make_unique<EmbeddingLayer>(ops, "emb", 13, 5, 8); },
                  3,
                  {3, 5}};
    emb.input = Input::Ids;
    emb.vocab = 13;
    cs.push_back(emb);
    for (auto [name, P, C, cls, B] : {std::tuple{"patch_embedding_cls_p7", 7, 12, true, 2},
                                      std::tuple{"patch_embedding_mean_p4_b1", 4, 6, false, 1}}) {
        LayerCase c{name,
                    obj({{"kind", "patch_embedding"}, {"S", 28}, {"P", P}, {"C", C}, {"cls", cls}}),
                    patch(P, C, cls), B, QJsonArray{B, 784}};
        c.input = Input::Pixels;
        cs.push_back(c);
    }
    for (auto [name, B, T, C, H, causal] :
         {std::tuple{"attention_causal_2x5_c12_h3", 2, 5, 12, 3, true},
          std::tuple{"attention_full_2x5_c12_h3", 2, 5, 12, 3, false},
          std::tuple{"attention_causal_b1_t1_h2", 1, 1, 8, 2, true},
          std::tuple{"attention_full_3x7_c6_h1", 3, 7, 6, 1, false}}) {
        LayerCase c{name, obj({{"kind", "attention"}, {"C", C}, {"H", H}, {"causal", causal}}),
                    attention(T, C, H, causal), B, QJsonArray{B, T, C}};
        c.paramNoise = 0.3f;
        cs.push_back(c);
    }
    for (auto [name, B, T, C, H, M, causal] :
         {std::tuple{"block_causal_2x5_c12_h3_m20", 2, 5, 12, 3, 20, true},
          std::tuple{"block_full_2x7_c8_h2_m32", 2, 7, 8, 2, 32, false},
          std::tuple{"block_causal_b1_t1_c6_h1", 1, 1, 6, 1, 10, true}}) {
        LayerCase c{name,
                    obj({{"kind", "block"}, {"C", C}, {"H", H}, {"M", M}, {"causal", causal}}),
                    block(T, C, H, M, causal), B, QJsonArray{B, T, C}};
        c.paramNoise = 0.3f;
        cs.push_back(c);
    }
    cs.push_back({"pool_cls_3x4x5",
                  obj({{"kind", "pool"}, {"mode", "cls"}}),
                  [](Ops& ops) {
                      return std::make_unique<PoolLayer>(ops, "pool", 4, 5, PoolMode::ClassToken);
                  },
                  3,
                  {3, 4, 5}});
    cs.push_back(
        {"pool_mean_3x4x5",
         obj({{"kind", "pool"}, {"mode", "mean"}}),
         [](Ops& ops) { return std::make_unique<PoolLayer>(ops, "pool", 4, 5, PoolMode::Mean); },
         3,
         {3, 4, 5}});
    return cs;
}

} // namespace

class TestLayersTorch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void matchesTorch_data();
    void matchesTorch();
    void backwardAccumulates_data();
    void backwardAccumulates();

private:
    void runLayerCase(const LayerCase& c, std::uint64_t seed);
    void runCrossEntropyCase();
    void runOptimizerCase(const char* name, QJsonObject meta);

    QTemporaryDir m_dir;
    std::map<QString, CaseResult> m_results;
};

void TestLayersTorch::runLayerCase(const LayerCase& c, std::uint64_t seed) {
    CpuOps ops;
    auto layer = c.make(ops);
    const int B = c.B;
    std::mt19937_64 rng(seed);
    std::vector<float> params(layer->paramCount());
    layer->initParams(seed, params.data());
    const auto noise = randn(rng, params.size(), c.paramNoise);
    for (std::size_t i = 0; i < params.size(); ++i) {
        params[i] += noise[i];
    }
    std::vector<float> grads(params.size(), 0.0f);
    layer->bind(params.data(), grads.data());

    const std::size_t nx = std::size_t(B) * layer->inputSize();
    const std::size_t ny = std::size_t(B) * layer->outputSize();
    std::vector<float> x = randn(rng, nx);
    if (c.input == Input::Ids) {
        for (auto& v : x) {
            v = float(rng() % std::uint64_t(c.vocab));
        }
    } else if (c.input == Input::Pixels) {
        for (auto& v : x) {
            v = float(rng() % 256) / 255.0f;
        }
    }
    const std::vector<float> dy = randn(rng, ny);
    std::vector<float> y(ny), dx(nx), dx2(nx);
    std::vector<float> cache(std::size_t(B) * layer->cacheSize() + 1);
    std::vector<float> scratch(std::size_t(B) * layer->scratchSize() + 1);
    QVERIFY(layer->forward(x.data(), y.data(), cache.data(), scratch.data(), B).has_value());
    QVERIFY(
        layer->backward(x.data(), y.data(), cache.data(), dy.data(), dx.data(), scratch.data(), B)
            .has_value());
    const std::vector<float> grads1 = grads;
    QVERIFY(
        layer->backward(x.data(), y.data(), cache.data(), dy.data(), dx2.data(), scratch.data(), B)
            .has_value());

    const QString dir = m_dir.filePath(c.name);
    QVERIFY(QDir().mkpath(dir));
    CaseResult r;
    r.y = y;
    r.dx = dx;
    r.hasDx = c.input != Input::Ids;
    QJsonObject meta = c.meta;
    QJsonArray names;
    for (const auto& p : layer->params()) {
        names.append(QString::fromStdString(p.name));
        r.paramNames.push_back(p.name);
        r.grads[p.name].assign(grads1.begin() + std::ptrdiff_t(p.offset),
                               grads1.begin() + std::ptrdiff_t(p.offset + p.count));
        r.grads2[p.name].assign(grads.begin() + std::ptrdiff_t(p.offset),
                                grads.begin() + std::ptrdiff_t(p.offset + p.count));
        QVERIFY(writeFloats(dir + "/param_" + QString::fromStdString(p.name) + ".bin",
                            params.data() + p.offset, p.count));
    }
    meta.insert("params", names);
    meta.insert("x_shape", c.xShape);
    QVERIFY(writeFloats(dir + "/x.bin", x.data(), nx));
    QVERIFY(writeFloats(dir + "/dy.bin", dy.data(), ny));
    QFile f(dir + "/meta.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(meta).toJson());
    m_results[c.name] = std::move(r);
}

void TestLayersTorch::runCrossEntropyCase() {
    CpuOps ops;
    const int rows = 7, V = 11;
    std::mt19937_64 rng(77);
    const std::vector<float> logits = randn(rng, std::size_t(rows) * V, 2.0f);
    std::vector<float> labels(rows);
    for (auto& l : labels) {
        l = float(rng() % V);
    }
    std::vector<float> losses(rows), probs(logits.size()), dlogits(logits.size());
    ops.crossEntropyForward(losses.data(), probs.data(), logits.data(), labels.data(), rows, V);
    ops.crossEntropyBackward(dlogits.data(), probs.data(), labels.data(), rows, V,
                             1.0f / float(rows));
    const QString dir = m_dir.filePath("cross_entropy_7x11");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeFloats(dir + "/x.bin", logits.data(), logits.size()));
    QVERIFY(writeFloats(dir + "/labels.bin", labels.data(), labels.size()));
    QFile f(dir + "/meta.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(obj({{"kind", "cross_entropy"}, {"rows", rows}, {"V", V}})).toJson());
    CaseResult r;
    r.y = losses;
    r.dx = dlogits;
    m_results["cross_entropy_7x11"] = std::move(r);
}

void TestLayersTorch::runOptimizerCase(const char* name, QJsonObject meta) {
    CpuOps ops;
    const std::size_t n = 50;
    const int steps = meta["steps"].toInt();
    std::mt19937_64 rng(99);
    const std::vector<float> p0 = randn(rng, n);
    const std::vector<float> g = randn(rng, n * std::size_t(steps));
    std::vector<float> p = p0, m(n, 0.0f), v(n, 0.0f);
    const float lr = float(meta["lr"].toDouble());
    const float wd = float(meta["weight_decay"].toDouble());
    for (int s = 0; s < steps; ++s) {
        const float* gs = g.data() + std::size_t(s) * n;
        if (meta["kind"].toString() == "sgd") {
            ops.sgdStep(p.data(), gs, m.data(), n, lr, float(meta["momentum"].toDouble()), wd,
                        s == 0);
        } else {
            ops.adamwStep(p.data(), gs, m.data(), v.data(), n, lr, float(meta["beta1"].toDouble()),
                          float(meta["beta2"].toDouble()), float(meta["eps"].toDouble()), wd,
                          s + 1);
        }
    }
    const QString dir = m_dir.filePath(name);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeFloats(dir + "/p0.bin", p0.data(), n));
    QVERIFY(writeFloats(dir + "/grads.bin", g.data(), g.size()));
    QFile f(dir + "/meta.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(meta).toJson());
    CaseResult r;
    r.hasDx = false;
    r.y.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        r.y[i] = p[i] - p0[i]; // compare the update, not p (p's magnitude would hide errors)
    }
    m_results[name] = std::move(r);
}

void TestLayersTorch::initTestCase() {
    QProcess probe;
    probe.start(kPython, {"-c", "import torch"});
    if (!probe.waitForFinished(120000) || probe.exitStatus() != QProcess::NormalExit ||
        probe.exitCode() != 0) {
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch); no PyTorch "
              "reference to compare with");
    }
    QVERIFY(m_dir.isValid());
    std::uint64_t seed = 1000;
    for (const auto& c : layerCases()) {
        runLayerCase(c, seed++);
    }
    runCrossEntropyCase();
    runOptimizerCase("sgd_momentum_wd", obj({{"kind", "sgd"},
                                             {"lr", 0.1},
                                             {"momentum", 0.9},
                                             {"weight_decay", 0.01},
                                             {"steps", 3}}));
    runOptimizerCase("sgd_plain", obj({{"kind", "sgd"},
                                       {"lr", 0.05},
                                       {"momentum", 0.0},
                                       {"weight_decay", 0.0},
                                       {"steps", 2}}));
    runOptimizerCase("adamw", obj({{"kind", "adamw"},
                                   {"lr", 0.01},
                                   {"beta1", 0.9},
                                   {"beta2", 0.999},
                                   {"eps", 1e-8},
                                   {"weight_decay", 0.1},
                                   {"steps", 4}}));
    QProcess py;
    py.setProcessChannelMode(QProcess::MergedChannels);
    py.start(kPython, {QStringLiteral(TESSERA_SOURCE_DIR "/tests/worker/nn/torch_reference.py"),
                       m_dir.path()});
    QVERIFY(py.waitForFinished(100000));
    const QByteArray out = py.readAll();
    QVERIFY2(py.exitStatus() == QProcess::NormalExit && py.exitCode() == 0, out.constData());
}

void TestLayersTorch::matchesTorch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, r] : m_results) {
        QTest::newRow(name.toUtf8().constData()) << name;
    }
}

void TestLayersTorch::matchesTorch() {
    QFETCH(QString, name);
    const CaseResult& r = m_results.at(name);
    const QString dir = m_dir.filePath(name);
    const double ey = relErr(r.y, readFloats(dir + "/ref_y.bin"));
    double worst = ey;
    QString report = QString("y %1").arg(ey, 0, 'g', 3);
    QVERIFY2(ey < kTolerance, qPrintable(name + ": forward rel err " + QString::number(ey)));
    if (r.hasDx) {
        const double e = relErr(r.dx, readFloats(dir + "/ref_dx.bin"));
        worst = std::max(worst, e);
        report += QString(", dx %1").arg(e, 0, 'g', 3);
        QVERIFY2(e < kTolerance, qPrintable(name + ": dx rel err " + QString::number(e)));
    }
    for (const auto& p : r.paramNames) {
        const QString pn = QString::fromStdString(p);
        const double e = relErr(r.grads.at(p), readFloats(dir + "/ref_grad_" + pn + ".bin"));
        worst = std::max(worst, e);
        report += QString(", d%1 %2").arg(pn).arg(e, 0, 'g', 3);
        QVERIFY2(e < kTolerance, qPrintable(name + ": d" + pn + " rel err " + QString::number(e)));
    }
    qInfo("%s: max rel err %.3g (%s)", qPrintable(name), worst, qPrintable(report));
}

void TestLayersTorch::backwardAccumulates_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, r] : m_results) {
        if (!r.paramNames.empty()) {
            QTest::newRow(name.toUtf8().constData()) << name;
        }
    }
}

void TestLayersTorch::backwardAccumulates() {
    QFETCH(QString, name);
    const CaseResult& r = m_results.at(name);
    for (const auto& p : r.paramNames) {
        std::vector<float> twice = r.grads.at(p);
        for (auto& v : twice) {
            v *= 2.0f;
        }
        const double e = relErr(r.grads2.at(p), twice);
        QVERIFY2(e < 1e-6, qPrintable(name + ": d" + QString::fromStdString(p) +
                                      " after two backward calls is not twice one (rel err " +
                                      QString::number(e) + ")"));
    }
}

QTEST_GUILESS_MAIN(TestLayersTorch)
#include "test_layers_torch.moc"
