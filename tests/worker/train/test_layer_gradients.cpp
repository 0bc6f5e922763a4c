// Unit test of the explicit backward passes: Linear, ReLU, softmax cross-entropy and the whole
// MLP against central finite differences of their forward passes (computed in double).
#include "linear.h"
#include "mlp.h"
#include "relu.h"
#include "softmax_cross_entropy.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace tessera::train;

namespace {

std::vector<float> randomVector(std::size_t n, std::mt19937_64& rng, double scale = 1.0) {
    std::uniform_real_distribution<double> u(-scale, scale);
    std::vector<float> v(n);
    for (auto& x : v) {
        x = float(u(rng));
    }
    return v;
}

// Compares analytic gradient `g` of f with respect to `w` with central differences
// (f(w+h) − f(w−h)) / 2h. Returns the worst |g − n| / (1e-3 + |n|) over all entries.
double worstGradientError(std::vector<float>& w, const std::vector<float>& g,
                          const std::function<double()>& f, float h) {
    double worst = 0.0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const float saved = w[i];
        w[i] = saved + h;
        const double up = f();
        w[i] = saved - h;
        const double down = f();
        w[i] = saved;
        const double actualStep = double(saved + h) - double(saved - h);
        const double numeric = (up - down) / actualStep;
        worst = std::max(worst, std::abs(double(g[i]) - numeric) / (1e-3 + std::abs(numeric)));
    }
    return worst;
}

constexpr double kTolerance = 1e-2;

} // namespace

class TestLayerGradients : public QObject {
    Q_OBJECT

private slots:
    void linear_data() {
        QTest::addColumn<int>("B");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::newRow("1x3->2") << 1 << 3 << 2;
        QTest::newRow("4x5->3") << 4 << 5 << 3;
        QTest::newRow("7x16->10") << 7 << 16 << 10;
        QTest::newRow("32x9->1") << 32 << 9 << 1;
    }

    // L = Σ c ⊙ linear(x) for a fixed random c: dL/dy = c, so backward(c) must match d/dW, d/db,
    // d/dx of L.
    void linear() {
        QFETCH(int, B);
        QFETCH(int, in);
        QFETCH(int, out);
        std::mt19937_64 rng(1234 + B * 100 + in * 10 + out);
        Linear layer(in, out);
        std::vector<float> params(layer.paramCount());
        std::vector<float> grads(layer.paramCount());
        layer.bindParams(params.data(), grads.data());
        layer.initParams(rng);
        std::vector<float> x = randomVector(std::size_t(B) * in, rng);
        const std::vector<float> c = randomVector(std::size_t(B) * out, rng);
        std::vector<float> y(std::size_t(B) * out);
        std::vector<float> dx(std::size_t(B) * in);
        const auto loss = [&]() {
            layer.forward(x.data(), y.data(), B);
            double L = 0.0;
            for (std::size_t i = 0; i < y.size(); ++i) {
                L += double(c[i]) * y[i];
            }
            return L;
        };
        loss();
        layer.backward(x.data(), y.data(), c.data(), dx.data(), B);
        const std::vector<float> analytic = grads; // dW then db
        const double errParams = worstGradientError(params, analytic, loss, 1e-2f);
        const double errInput = worstGradientError(x, dx, loss, 1e-2f);
        QVERIFY2(errParams < kTolerance, qPrintable(QString("params rel err %1").arg(errParams)));
        QVERIFY2(errInput < kTolerance, qPrintable(QString("input rel err %1").arg(errInput)));
    }

    void relu() {
        std::mt19937_64 rng(7);
        const int B = 5;
        const int F = 6;
        Relu layer(F);
        std::vector<float> x = randomVector(std::size_t(B) * F, rng);
        for (auto& v : x) { // keep clear of the kink so finite differences are exact
            if (std::abs(v) < 0.05f) {
                v = 0.1f;
            }
        }
        const std::vector<float> c = randomVector(x.size(), rng);
        std::vector<float> y(x.size());
        std::vector<float> dx(x.size());
        const auto loss = [&]() {
            layer.forward(x.data(), y.data(), B);
            double L = 0.0;
            for (std::size_t i = 0; i < y.size(); ++i) {
                L += double(c[i]) * y[i];
            }
            return L;
        };
        loss();
        layer.backward(x.data(), y.data(), c.data(), dx.data(), B);
        const double err = worstGradientError(x, dx, loss, 1e-3f);
        QVERIFY2(err < kTolerance, qPrintable(QString("rel err %1").arg(err)));
    }

    void softmaxCrossEntropy_data() {
        QTest::addColumn<int>("B");
        QTest::addColumn<int>("C");
        QTest::addColumn<double>("logitScale");
        QTest::newRow("1x2") << 1 << 2 << 1.0;
        QTest::newRow("6x10") << 6 << 10 << 2.0;
        QTest::newRow("3x10 large logits") << 3 << 10 << 30.0;
    }

    void softmaxCrossEntropy() {
        QFETCH(int, B);
        QFETCH(int, C);
        QFETCH(double, logitScale);
        std::mt19937_64 rng(99 + B + C);
        SoftmaxCrossEntropy head(C);
        std::vector<float> z = randomVector(std::size_t(B) * C, rng, logitScale);
        std::vector<int> labels(static_cast<std::size_t>(B));
        for (int i = 0; i < B; ++i) {
            labels[std::size_t(i)] = int(rng() % std::uint64_t(C));
        }
        const float scale = 1.0f / float(B); // gradient of the mean loss
        const auto loss = [&]() {
            return head.forward(z.data(), labels.data(), B) * scale;
        };
        const double L = loss();
        QVERIFY(std::isfinite(L) && L > 0.0);
        std::vector<float> dz(z.size());
        head.backward(labels.data(), B, scale, dz.data());
        const double err = worstGradientError(z, dz, loss, 1e-3f);
        QVERIFY2(err < kTolerance, qPrintable(QString("rel err %1").arg(err)));
    }

    void softmaxLossValue() {
        // Uniform logits: loss = log C per sample; argmax of (0, 5, 1) is class 1.
        SoftmaxCrossEntropy head(3);
        const float z[6] = {0, 0, 0, 0, 5, 1};
        const int y[2] = {2, 1};
        std::int64_t correct = 0;
        const double L = head.forward(z, y, 2, &correct);
        const double expected = std::log(3.0) + (std::log(1 + std::exp(5.0) + std::exp(1.0)) - 5);
        QVERIFY(std::abs(L - expected) < 1e-6);
        QCOMPARE(correct, std::int64_t(1));
    }

    // The whole stack: Linear → ReLU → Linear → ReLU → Linear → softmax CE, through Mlp.
    // Seed chosen so that no ReLU input lies within the finite-difference step of its kink (with
    // seed 5 one does, and the central difference there is half a one-sided slope).
    void mlpEndToEnd() {
        std::mt19937_64 rng(6);
        const int B = 4;
        const int in = 6;
        auto created = Mlp::create(in, {5, 4}, 3, B);
        QVERIFY(created.has_value());
        Mlp& model = *created;
        model.init(11);
        std::vector<float> x = randomVector(std::size_t(B) * in, rng);
        const int labels[B] = {0, 2, 1, 2};
        SoftmaxCrossEntropy head(3);
        const auto loss = [&]() {
            const float* logits = model.forward(x.data(), B);
            return head.forward(logits, labels, B) / B;
        };
        loss();
        std::vector<float> dlogits(std::size_t(B) * 3);
        head.backward(labels, B, 1.0f / B, dlogits.data());
        model.backward(dlogits.data(), B);
        const std::vector<float> analytic = model.gradients();
        const double err = worstGradientError(model.parameters(), analytic, loss, 1e-3f);
        QVERIFY2(err < kTolerance, qPrintable(QString("rel err %1").arg(err)));

        // The check can fail: a gradient off by 10% in one entry is caught.
        std::vector<float> wrong = analytic;
        std::size_t biggest = 0;
        for (std::size_t i = 0; i < wrong.size(); ++i) {
            if (std::abs(wrong[i]) > std::abs(wrong[biggest])) {
                biggest = i;
            }
        }
        wrong[biggest] *= 1.1f;
        QVERIFY(worstGradientError(model.parameters(), wrong, loss, 1e-3f) > kTolerance);
    }

    void mlpInitIsDeterministic() {
        auto a = Mlp::create(784, {256, 128}, 10, 8);
        auto b = Mlp::create(784, {256, 128}, 10, 8);
        QVERIFY(a && b);
        QCOMPARE(a->parameterCount(),
                 std::size_t(784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10));
        a->init(42);
        b->init(42);
        QVERIFY(a->parameters() == b->parameters());
        b->init(43);
        QVERIFY(a->parameters() != b->parameters());
        // PyTorch's nn.Linear bound: |W| <= 1/sqrt(fan_in) for the first layer.
        const float bound = 1.0f / std::sqrt(784.0f);
        for (std::size_t i = 0; i < 784 * 256; ++i) {
            QVERIFY(std::abs(a->parameters()[i]) <= bound);
        }
    }

    void mlpRejectsBadSizes() {
        QVERIFY(!Mlp::create(784, {256, 0}, 10, 8).has_value());
        QVERIFY(!Mlp::create(0, {}, 10, 8).has_value());
    }
};

QTEST_GUILESS_MAIN(TestLayerGradients)
#include "test_layer_gradients.moc"
