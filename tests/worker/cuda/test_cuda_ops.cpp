// GPU test of CudaOps: every Ops method on the same random inputs runs on CudaOps (FP32 matrix
// products) and on CpuOps, results compared within 1e-4 relative (TF32 gemm rows: 1e-2).
// Also the check macros and the peak-FLOP/s table, which need no GPU. Skips without a GPU.
#include "worker/train/cuda/cuda_check.h"
#include "worker/train/cuda/cuda_ops.h"
#include "worker/train/nn/cpu_ops.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <vector>

using namespace tessera;
using namespace tessera::train;

namespace {

using Outputs = std::vector<std::vector<float>>;

/// Buffers of one case on one backend: inputs drawn from a generator seeded per case (so both
/// backends see the same numbers), released at the end.
class Bufs {
public:
    Bufs(Ops& ops, std::uint64_t seed) : m_ops(ops), m_rng(seed) {}
    ~Bufs() {
        for (float* p : m_ptrs) {
            m_ops.release(p);
        }
    }
    /// n floats uniform in [lo, hi).
    float* random(std::size_t n, float lo = -1.0f, float hi = 1.0f) {
        std::uniform_real_distribution<float> u(lo, hi);
        std::vector<float> h(n);
        for (float& v : h) {
            v = u(m_rng);
        }
        return upload(h);
    }
    /// n integers in 0..upTo-1 stored as floats (token ids, labels).
    float* ids(std::size_t n, int upTo) {
        std::uniform_int_distribution<int> u(0, upTo - 1);
        std::vector<float> h(n);
        for (float& v : h) {
            v = float(u(m_rng));
        }
        return upload(h);
    }
    float* zeros(std::size_t n) { return keep(m_ops.alloc(n)); }
    float* upload(const std::vector<float>& h) {
        float* p = zeros(h.size());
        m_ops.upload(p, h.data(), h.size());
        return p;
    }
    std::vector<float> get(const float* p, std::size_t n) {
        std::vector<float> h(n);
        m_ops.download(h.data(), p, n);
        return h;
    }

private:
    float* keep(float* p) {
        m_ptrs.push_back(p);
        return p;
    }
    Ops& m_ops;
    std::mt19937_64 m_rng;
    std::vector<float*> m_ptrs;
};

using Case = std::function<Outputs(Ops&, Bufs&)>;

/// C = alpha·op(A)·op(B) + beta·C with padded leading dimensions.
Case gemmCase(bool ta, bool tb, int M, int N, int K) {
    return [=](Ops& ops, Bufs& b) {
        const int lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 2, ldc = N + 1;
        float* A = b.random(std::size_t(ta ? K : M) * lda);
        float* B = b.random(std::size_t(tb ? N : K) * ldb);
        float* C = b.random(std::size_t(M) * ldc);
        ops.gemm(ta, tb, M, N, K, 0.7f, A, lda, B, ldb, 0.3f, C, ldc);
        return Outputs{b.get(C, std::size_t(M) * ldc)};
    };
}

Case batchedCase(bool ta, bool tb) {
    return [=](Ops& ops, Bufs& b) {
        const int M = 17, N = 12, K = 33, batch = 5;
        const int lda = ta ? M : K, ldb = tb ? K : N, ldc = N;
        const std::int64_t sA = std::int64_t(M) * K + 7, sB = std::int64_t(K) * N + 5,
                           sC = std::int64_t(M) * N;
        float* A = b.random(std::size_t(sA) * batch);
        float* B = b.random(std::size_t(sB) * batch);
        float* C = b.random(std::size_t(sC) * batch);
        ops.gemmStridedBatched(ta, tb, M, N, K, 1.0f, A, lda, sA, B, ldb, sB, 0.5f, C, ldc, sC,
                               batch);
        return Outputs{b.get(C, std::size_t(sC) * batch)};
    };
}

Case layerNormCase(int rows, int C) {
    return [=](Ops& ops, Bufs& b) {
        const std::size_t n = std::size_t(rows) * C;
        float* x = b.random(n, -2.0f, 3.0f);
        float* w = b.random(C);
        float* bias = b.random(C);
        float* y = b.zeros(n);
        float* mean = b.zeros(rows);
        float* rstd = b.zeros(rows);
        ops.layerNormForward(y, mean, rstd, x, w, bias, rows, C, 1e-5f);
        float* dy = b.random(n);
        float* dx = b.zeros(n);
        float* dw = b.random(C);
        float* db = b.random(C);
        ops.layerNormBackward(dx, dw, db, dy, x, w, mean, rstd, rows, C);
        return Outputs{b.get(y, n),  b.get(mean, rows), b.get(rstd, rows),
                       b.get(dx, n), b.get(dw, C),      b.get(db, C)};
    };
}

Case softmaxCase(AttentionMask mask) {
    return [=](Ops& ops, Bufs& b) {
        const int BH = 6, T = 37;
        const std::size_t n = std::size_t(BH) * T * T;
        float* att = b.random(n, -3.0f, 3.0f);
        ops.softmaxForward(att, BH, T, 0.25f, mask);
        float* datt = b.random(n);
        float* ds = b.zeros(n);
        ops.softmaxBackward(ds, att, datt, BH, T, 0.25f);
        ops.softmaxBackward(datt, att, datt, BH, T, 0.25f); // in place
        return Outputs{b.get(att, n), b.get(ds, n), b.get(datt, n)};
    };
}

Case tokensCase(bool withCls) {
    return [=](Ops& ops, Bufs& b) {
        const int B = 3, N = 9, C = 20, Tt = N + (withCls ? 1 : 0);
        float* x = b.random(std::size_t(B) * N * C);
        float* cls = withCls ? b.random(C) : nullptr;
        float* pos = b.random(std::size_t(Tt) * C);
        float* out = b.zeros(std::size_t(B) * Tt * C);
        ops.tokensForward(out, x, cls, pos, B, N, C);
        float* dout = b.random(std::size_t(B) * Tt * C);
        float* dx = b.zeros(std::size_t(B) * N * C);
        float* dcls = withCls ? b.random(C) : nullptr;
        float* dpos = b.random(std::size_t(Tt) * C);
        ops.tokensBackward(dx, dcls, dpos, dout, B, N, C);
        Outputs o{b.get(out, std::size_t(B) * Tt * C), b.get(dx, std::size_t(B) * N * C),
                  b.get(dpos, std::size_t(Tt) * C)};
        if (withCls) {
            o.push_back(b.get(dcls, C));
        }
        return o;
    };
}

Case poolCase(PoolMode mode) {
    return [=](Ops& ops, Bufs& b) {
        const int B = 4, T = 11, C = 19;
        float* x = b.random(std::size_t(B) * T * C);
        float* y = b.zeros(std::size_t(B) * C);
        ops.poolForward(y, x, B, T, C, mode);
        float* dy = b.random(std::size_t(B) * C);
        float* dx = b.random(std::size_t(B) * T * C);
        ops.poolBackward(dx, dy, B, T, C, mode);
        return Outputs{b.get(y, std::size_t(B) * C), b.get(dx, std::size_t(B) * T * C)};
    };
}

/// Element-wise map y = f(x) (and its backward) over an odd length.
constexpr std::size_t kN = 10007;

const std::map<QString, Case>& cases() {
    static const std::map<QString, Case> all = {
        {"alloc",
         [](Ops&, Bufs& b) {
             return Outputs{b.get(b.zeros(kN), kN)};
         }},
        {"fill",
         [](Ops& ops, Bufs& b) {
             float* x = b.random(kN);
             ops.fill(x + 3, 2.5f, kN - 5);
             return Outputs{b.get(x, kN)};
         }},
        {"copy",
         [](Ops& ops, Bufs& b) {
             float* x = b.random(kN);
             float* y = b.zeros(kN);
             ops.copy(y + 1, x + 2, kN - 2);
             return Outputs{b.get(y, kN)};
         }},
        {"copy2d",
         [](Ops& ops, Bufs& b) {
             float* src = b.random(13 * 40);
             float* dst = b.random(13 * 31);
             ops.copy2d(dst + 2, 31, src + 5, 40, 13, 27);
             return Outputs{b.get(dst, 13 * 31)};
         }},
        {"gemm NN", gemmCase(false, false, 37, 29, 64)},
        {"gemm NT", gemmCase(false, true, 37, 29, 64)},
        {"gemm TN", gemmCase(true, false, 37, 29, 64)},
        {"gemm TT", gemmCase(true, true, 37, 29, 64)},
        {"gemm large", gemmCase(false, true, 256, 192, 320)},
        {"gemmStridedBatched NN", batchedCase(false, false)},
        {"gemmStridedBatched NT", batchedCase(false, true)},
        {"gemmStridedBatched TN", batchedCase(true, false)},
        {"add",
         [](Ops& ops, Bufs& b) {
             float* a = b.random(kN);
             float* c = b.random(kN);
             float* y = b.zeros(kN);
             ops.add(y, a, c, kN);
             ops.add(a, a, c, kN); // aliasing
             return Outputs{b.get(y, kN), b.get(a, kN)};
         }},
        {"axpy scale",
         [](Ops& ops, Bufs& b) {
             float* x = b.random(kN);
             float* y = b.random(kN);
             ops.axpy(y, -1.75f, x, kN);
             ops.scale(x, 0.3f, kN);
             return Outputs{b.get(y, kN), b.get(x, kN)};
         }},
        {"addBias biasGradAccumulate",
         [](Ops& ops, Bufs& b) {
             const int rows = 133, cols = 70;
             float* y = b.random(std::size_t(rows) * cols);
             float* bias = b.random(cols);
             ops.addBias(y, bias, rows, cols);
             float* dbias = b.random(cols);
             ops.biasGradAccumulate(dbias, y, rows, cols);
             return Outputs{b.get(y, std::size_t(rows) * cols), b.get(dbias, cols)};
         }},
        {"relu",
         [](Ops& ops, Bufs& b) {
             float* x = b.random(kN);
             float* y = b.zeros(kN);
             ops.reluForward(y, x, kN);
             float* dy = b.random(kN);
             float* dx = b.zeros(kN);
             ops.reluBackward(dx, y, dy, kN);
             ops.reluBackward(dy, y, dy, kN); // in place
             return Outputs{b.get(y, kN), b.get(dx, kN), b.get(dy, kN)};
         }},
        {"gelu",
         [](Ops& ops, Bufs& b) {
             float* x = b.random(kN, -4.0f, 4.0f);
             float* y = b.zeros(kN);
             ops.geluForward(y, x, kN);
             float* dy = b.random(kN);
             float* dx = b.zeros(kN);
             ops.geluBackward(dx, x, dy, kN);
             return Outputs{b.get(y, kN), b.get(dx, kN)};
         }},
        {"layerNorm C=37", layerNormCase(45, 37)},
        {"layerNorm C=256", layerNormCase(20, 256)},
        {"softmax none", softmaxCase(AttentionMask::None)},
        {"softmax causal", softmaxCase(AttentionMask::Causal)},
        {"splitHeads mergeHeads",
         [](Ops& ops, Bufs& b) {
             const int B = 2, T = 7, H = 3, D = 5;
             const std::size_t n = std::size_t(B) * T * H * D;
             float* qkv = b.random(3 * n);
             float* q = b.zeros(n);
             float* k = b.zeros(n);
             float* v = b.zeros(n);
             ops.splitHeads(q, k, v, qkv, B, T, H, D);
             float* dqkv = b.zeros(3 * n);
             ops.splitHeadsBackward(dqkv, v, q, k, B, T, H, D);
             float* out = b.zeros(n);
             ops.mergeHeads(out, k, B, T, H, D);
             float* dy = b.zeros(n);
             ops.mergeHeadsBackward(dy, q, B, T, H, D);
             return Outputs{b.get(q, n),        b.get(k, n),   b.get(v, n),
                            b.get(dqkv, 3 * n), b.get(out, n), b.get(dy, n)};
         }},
        {"embedding",
         [](Ops& ops, Bufs& b) {
             const int B = 5, T = 16, C = 24, V = 7; // few ids: many repeats
             float* ids = b.ids(std::size_t(B) * T, V);
             float* wte = b.random(std::size_t(V) * C);
             float* wpe = b.random(std::size_t(T) * C);
             float* out = b.zeros(std::size_t(B) * T * C);
             ops.embeddingForward(out, ids, wte, wpe, B, T, C);
             float* dout = b.random(std::size_t(B) * T * C);
             float* dwte = b.random(std::size_t(V) * C);
             float* dwpe = b.random(std::size_t(T) * C);
             ops.embeddingBackward(dwte, dwpe, dout, ids, B, T, C);
             return Outputs{b.get(out, std::size_t(B) * T * C), b.get(dwte, std::size_t(V) * C),
                            b.get(dwpe, std::size_t(T) * C)};
         }},
        {"patchify",
         [](Ops& ops, Bufs& b) {
             const int B = 3, S = 28, P = 7;
             float* images = b.random(std::size_t(B) * S * S);
             float* patches = b.zeros(std::size_t(B) * S * S);
             ops.patchify(patches, images, B, S, P);
             return Outputs{b.get(patches, std::size_t(B) * S * S)};
         }},
        {"tokens cls", tokensCase(true)},
        {"tokens no cls", tokensCase(false)},
        {"pool mean", poolCase(PoolMode::Mean)},
        {"pool class token", poolCase(PoolMode::ClassToken)},
        {"crossEntropy countCorrect",
         [](Ops& ops, Bufs& b) {
             const int rows = 300, V = 65;
             float* logits = b.random(std::size_t(rows) * V, -4.0f, 4.0f);
             float* labels = b.ids(rows, V);
             float* losses = b.zeros(rows);
             float* probs = b.zeros(std::size_t(rows) * V);
             ops.crossEntropyForward(losses, probs, logits, labels, rows, V);
             float* dlogits = b.zeros(std::size_t(rows) * V);
             ops.crossEntropyBackward(dlogits, probs, labels, rows, V, 1.0f / 600.0f);
             // Labels = argmax on a third of the rows so that the count is not ~0.
             std::vector<float> l = b.get(labels, rows), x = b.get(logits, std::size_t(rows) * V);
             for (int r = 0; r < rows; r += 3) {
                 l[r] = float(std::max_element(x.begin() + r * V, x.begin() + (r + 1) * V) -
                              (x.begin() + r * V));
             }
             float* labels2 = b.upload(l);
             const float correct = float(ops.countCorrect(logits, labels2, rows, V));
             return Outputs{b.get(losses, rows),
                            b.get(probs, std::size_t(rows) * V),
                            b.get(dlogits, std::size_t(rows) * V),
                            {correct}};
         }},
        {"sum sumSquares",
         [](Ops& ops, Bufs& b) {
             const std::size_t n = 1000003;
             float* x = b.random(n, -0.5f, 1.0f);
             return Outputs{
                 {float(ops.sum(x, n)), float(ops.sumSquares(x, n)), float(ops.sum(x, 0))}};
         }},
        {"sgd",
         [](Ops& ops, Bufs& b) {
             float* p = b.random(kN);
             float* g = b.random(kN);
             float* m = b.random(kN);
             ops.sgdStep(p, g, m, kN, 0.1f, 0.9f, 0.01f, true);
             ops.sgdStep(p, g, m, kN, 0.1f, 0.9f, 0.01f, false);
             float* p2 = b.random(kN);
             ops.sgdStep(p2, g, nullptr, kN, 0.05f, 0.0f, 0.0f, false);
             return Outputs{b.get(p, kN), b.get(m, kN), b.get(p2, kN)};
         }},
        {"adamw",
         [](Ops& ops, Bufs& b) {
             float* p = b.random(kN);
             float* m = b.zeros(kN);
             float* v = b.zeros(kN);
             for (int step = 1; step <= 4; ++step) {
                 float* g = b.random(kN);
                 ops.adamwStep(p, g, m, v, kN, 1e-2f, 0.9f, 0.95f, 1e-8f, 0.1f, step);
             }
             return Outputs{b.get(p, kN), b.get(m, kN), b.get(v, kN)};
         }},
    };
    return all;
}

} // namespace

class TestCudaOps : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<CudaOps> m_fp32;
    std::unique_ptr<CudaOps> m_tf32;
    QString m_noGpu; ///< why GPU rows skip; empty with a GPU

private Q_SLOTS:
    void initTestCase() {
        auto fp32 = CudaOps::create(0, false);
        if (!fp32) {
            m_noGpu = QString::fromStdString(fp32.error().message);
            return;
        }
        m_fp32 = std::move(*fp32);
        auto tf32 = CudaOps::create(0, true);
        QVERIFY2(tf32.has_value(), tf32 ? "" : tf32.error().message.c_str());
        m_tf32 = std::move(*tf32);
        qInfo("device 0: %s, peak FP32 %.1f TFLOP/s, TF32 %.1f TFLOP/s", m_fp32->deviceName(),
              m_fp32->peakFlops(false) / 1e12, m_fp32->peakFlops(true) / 1e12);
    }

    /// No GPU: create() says so; with one: the device has a name and the kind is Cuda.
    void createReportsTheDevice() {
        if (!m_fp32) {
            QVERIFY2(m_noGpu.startsWith("no CUDA device: "), qPrintable(m_noGpu));
            QSKIP(qPrintable(m_noGpu));
        }
        QVERIFY(QByteArray(m_fp32->deviceName()).size() > 0);
        QCOMPARE(m_fp32->kind(), DeviceKind::Cuda);
        QVERIFY(!CudaOps::create(1000, false).has_value());
    }

    void checkMacrosNameCallAndPlace() {
        const auto cuda = TESSERA_CUDA_STATUS(cudaErrorInvalidValue);
        QVERIFY(!cuda);
        QCOMPARE(cuda.error().code, ErrorCode::Internal);
        const QString m = QString::fromStdString(cuda.error().message);
        QVERIFY2(m.contains("cudaErrorInvalidValue") && m.contains("test_cuda_ops.cpp:") &&
                     m.contains("invalid argument"),
                 qPrintable(m));
        const auto blas = TESSERA_CUBLAS_STATUS(CUBLAS_STATUS_INVALID_VALUE);
        QVERIFY(!blas);
        QVERIFY2(
            QString::fromStdString(blas.error().message).contains("CUBLAS_STATUS_INVALID_VALUE"),
            blas.error().message.c_str());
        const auto nccl = TESSERA_NCCL_STATUS(ncclInvalidArgument);
        QVERIFY(!nccl);
        QVERIFY2(QString::fromStdString(nccl.error().message).contains("ncclInvalidArgument"),
                 nccl.error().message.c_str());
        QVERIFY(TESSERA_CUDA_STATUS(cudaSuccess).has_value());
        QVERIFY(TESSERA_NCCL_STATUS(ncclInProgress).has_value());
    }

    void peakFlops_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("tf32");
        QTest::addColumn<double>("tflops");
        QTest::newRow("A100 SXM FP32") << "NVIDIA A100-SXM4-80GB" << false << 19.5;
        QTest::newRow("A100 PCIe TF32") << "NVIDIA A100-PCIE-40GB" << true << 156.0;
        QTest::newRow("H100 SXM TF32") << "NVIDIA H100 80GB HBM3" << true << 494.5;
        QTest::newRow("H100 PCIe FP32") << "NVIDIA H100 PCIe" << false << 51.0;
        QTest::newRow("H200 TF32") << "NVIDIA H200" << true << 494.5;
        QTest::newRow("L40S TF32") << "NVIDIA L40S" << true << 183.0;
        QTest::newRow("RTX 4090 FP32") << "NVIDIA GeForce RTX 4090" << false << 82.6;
        QTest::newRow("unknown") << "NVIDIA GeForce GTX 1080" << true << 0.0;
    }
    void peakFlops() {
        QFETCH(QString, name);
        QFETCH(bool, tf32);
        QFETCH(double, tflops);
        QCOMPARE(cudaPeakFlops(name.toStdString(), tf32) / 1e12, tflops);
    }

    void matchesCpuOps_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("tf32");
        QTest::addColumn<double>("tolerance");
        for (const auto& [name, c] : cases()) {
            QTest::newRow(qPrintable(name)) << name << false << 1e-4;
        }
        QTest::newRow("TF32 gemm NT") << QString("gemm NT") << true << 1e-2;
        QTest::newRow("TF32 gemm large") << QString("gemm large") << true << 1e-2;
        QTest::newRow("TF32 gemmStridedBatched TN")
            << QString("gemmStridedBatched TN") << true << 1e-2;
    }
    /// Element i of output k passes when |gpu − cpu| <= tolerance · (|cpu| + max_j |cpu_j|):
    /// relative error, measured against the tensor's scale where an element is near zero.
    void matchesCpuOps() {
        QFETCH(QString, name);
        QFETCH(bool, tf32);
        QFETCH(double, tolerance);
        if (!m_fp32) {
            QSKIP(qPrintable(m_noGpu));
        }
        const Case& run = cases().at(name);
        const std::uint64_t seed = qHash(name);
        CpuOps cpu;
        Outputs expected;
        {
            Bufs b(cpu, seed);
            expected = run(cpu, b);
        }
        CudaOps& gpu = tf32 ? *m_tf32 : *m_fp32;
        Outputs actual;
        {
            Bufs b(gpu, seed);
            actual = run(gpu, b);
        }
        auto status = gpu.status();
        QVERIFY2(status.has_value(), status ? "" : status.error().message.c_str());
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(actual[k].size(), expected[k].size());
            double maxAbs = 0.0;
            for (float v : expected[k]) {
                maxAbs = std::max(maxAbs, double(std::fabs(v)));
            }
            for (std::size_t i = 0; i < expected[k].size(); ++i) {
                const double e = expected[k][i], a = actual[k][i];
                if (!(std::fabs(a - e) <= tolerance * (std::fabs(e) + maxAbs))) {
                    QFAIL(qPrintable(QString("output %1 element %2: CudaOps %3, CpuOps %4 "
                                             "(tensor max |x| %5)")
                                         .arg(k)
                                         .arg(i)
                                         .arg(a, 0, 'g', 9)
                                         .arg(e, 0, 'g', 9)
                                         .arg(maxAbs)));
                }
            }
        }
    }

    /// Prints the achieved FLOP/s of a large TF32 and FP32 gemm against the device's peak (a
    /// measurement for the report, not a pass/fail bound).
    void gemmThroughput() {
        if (!m_fp32) {
            QSKIP(qPrintable(m_noGpu));
        }
        const int n = 4096;
        for (CudaOps* ops : {m_tf32.get(), m_fp32.get()}) {
            float* a = ops->alloc(std::size_t(n) * n);
            float* c = ops->alloc(std::size_t(n) * n);
            ops->fill(a, 0.001f, std::size_t(n) * n);
            ops->gemm(false, true, n, n, n, 1.0f, a, n, a, n, 0.0f, c, n); // warm-up
            ops->sync();
            const int reps = 10;
            QElapsedTimer timer;
            timer.start();
            for (int r = 0; r < reps; ++r) {
                ops->gemm(false, true, n, n, n, 1.0f, a, n, a, n, 0.0f, c, n);
            }
            ops->sync();
            const double seconds = double(timer.nsecsElapsed()) * 1e-9;
            const double flops = 2.0 * n * double(n) * n * reps / seconds;
            const double peak = ops->peakFlops(ops->tf32());
            qInfo("%s gemm %d^3 on %s: %.1f TFLOP/s, %.0f%% of the %.1f TFLOP/s datasheet peak",
                  ops->tf32() ? "TF32" : "FP32", n, ops->deviceName(), flops / 1e12,
                  peak > 0 ? 100.0 * flops / peak : 0.0, peak / 1e12);
            ops->release(a);
            ops->release(c);
            QVERIFY(ops->status().has_value());
        }
    }

    /// A failed cuBLAS call (lda too small) is kept and reported by status(), with file:line.
    void statusReportsAFailedCall() {
        if (!m_fp32) {
            QSKIP(qPrintable(m_noGpu));
        }
        auto ops = CudaOps::create(0, false);
        QVERIFY(ops.has_value());
        float* a = (*ops)->alloc(64);
        (*ops)->gemm(false, false, 4, 4, 4, 1.0f, a, 1, a, 4, 0.0f, a + 32, 4);
        auto status = (*ops)->status();
        QVERIFY(!status);
        const QString m = QString::fromStdString(status.error().message);
        QVERIFY2(m.contains("cublasGemmEx") && m.contains("cuda_ops.cpp:"), qPrintable(m));
        (*ops)->clearStatus();
        (*ops)->release(a);
        QVERIFY((*ops)->status().has_value());
    }
};

QTEST_GUILESS_MAIN(TestCudaOps)
#include "test_cuda_ops.moc"
