// GPU test of NcclCommunicator: a world-size-1 communicator (collectives, requests, split,
// host delegation, stream ordering) and, with two GPUs, two ranks on two threads (all-reduce,
// large send/recv exchange, all-gather, broadcast, split, abort on timeout). Skips without GPUs.
#include "tests/support/thread_communicator.h"
#include "worker/train/cuda/cuda_ops.h"
#include "worker/train/cuda/nccl_communicator.h"

#include <QtTest>

#include <cuda_runtime_api.h>

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

using namespace tessera;
using namespace tessera::train;
using tessera::train::test::ThreadCommunicator;

namespace {

/// Number of CUDA devices, or 0 with the reason in `why`.
int deviceCount(QString& why) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        why = QString("no CUDA device: %1").arg(cudaGetErrorString(e));
        return 0;
    }
    if (n == 0) {
        why = "no CUDA device: cudaGetDeviceCount found none";
    }
    return n;
}

std::vector<float> download(Ops& ops, const float* p, std::size_t n) {
    std::vector<float> h(n);
    ops.download(h.data(), p, n);
    return h;
}

/// Failures collected on worker threads, reported by the test thread.
struct Failures {
    std::mutex mutex;
    QStringList list;
    void add(int rank, const QString& what) {
        std::lock_guard lock(mutex);
        list << QString("rank %1: %2").arg(rank).arg(what);
    }
    /// Records a failed Result; returns whether it succeeded.
    template <typename T> bool check(int rank, const Result<T>& r, const char* what) {
        if (!r) {
            add(rank, QString("%1: %2").arg(what, QString::fromStdString(r.error().message)));
        }
        return r.has_value();
    }
    void expect(int rank, bool ok, const QString& what) {
        if (!ok) {
            add(rank, what);
        }
    }
};

bool allEqual(const std::vector<float>& v, float value) {
    return std::all_of(v.begin(), v.end(), [&](float x) { return x == value; });
}

} // namespace

class TestNcclCommunicator : public QObject {
    Q_OBJECT

private:
    int m_devices = 0;
    QString m_why;

private Q_SLOTS:
    void initTestCase() { m_devices = deviceCount(m_why); }

    void singleRank() {
        if (m_devices < 1) {
            QSKIP(qPrintable(m_why));
        }
        auto ops = CudaOps::create(0, false);
        QVERIFY2(ops, ops ? "" : ops.error().message.c_str());
        auto hosts = ThreadCommunicator::makeGroup(1);
        auto comm = NcclCommunicator::create(*hosts[0], **ops);
        QVERIFY2(comm, comm ? "" : comm.error().message.c_str());
        NcclCommunicator& c = **comm;
        QCOMPARE(c.rank(), 0);
        QCOMPARE(c.worldSize(), 1);

        // Ordering: fill on the compute stream → all-reduce on the NCCL stream → scale.
        const std::size_t n = 1 << 20;
        float* x = (*ops)->alloc(n);
        (*ops)->fill(x, 3.0f, n);
        QVERIFY(c.allReduceSum(x, n).has_value());
        (*ops)->scale(x, 2.0f, n);
        QVERIFY(allEqual(download(**ops, x, n), 6.0f));

        auto r1 = c.iAllReduceSum(x, n / 2);
        auto r2 = c.iAllReduceSum(x + n / 2, n / 2);
        QVERIFY(r1 && r2);
        QVERIFY(c.poll().has_value());
        QVERIFY(c.wait(*r2).has_value());
        QVERIFY(c.waitAll().has_value());
        QVERIFY(!c.wait(*r1).has_value()); // already completed
        QVERIFY(c.broadcast(x, n, 0).has_value());
        const int counts[1] = {int(n / 4)};
        const int displs[1] = {7};
        QVERIFY(c.allGatherInPlace(x, counts, displs).has_value());
        QVERIFY(allEqual(download(**ops, x, n), 6.0f));

        double d[2] = {1.5, 2.5};
        QVERIFY(c.allReduceSum(d, 2).has_value());
        QCOMPARE(d[1], 2.5);
        int i[1] = {4};
        QVERIFY(c.allReduceMin(i, 1).has_value());
        QCOMPARE(i[0], 4);
        std::string bytes = "id";
        QVERIFY(c.broadcast(bytes, 0).has_value());
        QCOMPARE(bytes, std::string("id"));

        auto sub = c.split(0, 0);
        QVERIFY2(sub, sub ? "" : sub.error().message.c_str());
        QVERIFY((*sub)->allReduceSum(x, n).has_value());
        QVERIFY(allEqual(download(**ops, x, n), 6.0f));
        sub->reset();
        QVERIFY(!c.aborted());
        (*ops)->release(x);
        auto status = (*ops)->status();
        QVERIFY2(status, status ? "" : status.error().message.c_str());
    }

    void twoRanks() {
        if (m_devices < 2) {
            QSKIP(qPrintable(m_devices == 0
                                 ? m_why
                                 : QString("needs 2 CUDA devices for a 2-rank NCCL run, found %1")
                                       .arg(m_devices)));
        }
        auto hosts = ThreadCommunicator::makeGroup(2);
        Failures failures;
        auto rankMain = [&](int rank) {
            auto ops = CudaOps::create(rank, false);
            if (!failures.check(rank, ops, "CudaOps::create")) {
                return;
            }
            CudaOps& o = **ops;
            auto comm = NcclCommunicator::create(*hosts[std::size_t(rank)], o);
            if (!failures.check(rank, comm, "NcclCommunicator::create")) {
                return;
            }
            NcclCommunicator& c = **comm;
            const int peer = 1 - rank;
            const std::size_t n = 4 << 20; // 16 MB: larger than NCCL's p2p buffers

            float* x = o.alloc(n);
            o.fill(x, float(rank + 1), n);
            failures.check(rank, c.allReduceSum(x, n), "allReduceSum");
            failures.expect(rank, allEqual(download(o, x, n), 3.0f), "allReduceSum result");

            auto req = c.iAllReduceSum(x, n);
            if (failures.check(rank, req, "iAllReduceSum")) {
                failures.check(rank, c.wait(*req), "wait");
            }
            failures.expect(rank, allEqual(download(o, x, n), 6.0f), "iAllReduceSum result");

            // Both ranks send first, then receive: must not deadlock (grouped on recv).
            float* out = o.alloc(n);
            float* in = o.alloc(n);
            o.fill(out, float(10 + rank), n);
            auto send = c.iSend(out, n, peer, 0);
            failures.check(rank, send, "iSend");
            failures.check(rank, c.recv(in, n, peer, 0), "recv");
            failures.check(rank, c.waitAll(), "waitAll");
            failures.expect(rank, allEqual(download(o, in, n), float(10 + peer)), "recv data");

            // All-gather: equal halves, then uneven segments (3 and 5 floats).
            o.fill(x, float(rank + 1), n);
            const int half[2] = {int(n / 2), int(n / 2)};
            const int halfAt[2] = {0, int(n / 2)};
            failures.check(rank, c.allGatherInPlace(x, half, halfAt), "allGatherInPlace equal");
            auto g = download(o, x, n);
            failures.expect(rank, g.front() == 1.0f && g.back() == 2.0f, "all-gather equal");
            o.fill(x, float(rank + 1), 8);
            const int uneven[2] = {3, 5};
            const int unevenAt[2] = {0, 3};
            failures.check(rank, c.allGatherInPlace(x, uneven, unevenAt), "allGatherInPlace");
            g = download(o, x, 8);
            failures.expect(rank, g == std::vector<float>{1, 1, 1, 2, 2, 2, 2, 2},
                            "all-gather uneven");

            o.fill(x, float(rank + 1), 16);
            failures.check(rank, c.broadcast(x, 16, 1), "broadcast");
            failures.expect(rank, allEqual(download(o, x, 16), 2.0f), "broadcast result");

            auto sub = c.split(rank, 0); // two groups of one
            if (failures.check(rank, sub, "split")) {
                failures.expect(rank, (*sub)->worldSize() == 1, "split world size");
                failures.check(rank, (*sub)->allReduceSum(x, 16), "split allReduceSum");
                sub->reset();
            }

            // Abort on timeout: rank 1 never joins rank 0's all-reduce.
            auto shortComm = NcclCommunicator::create(*hosts[std::size_t(rank)], o,
                                                      std::chrono::milliseconds(2000));
            if (failures.check(rank, shortComm, "create (short timeout)") && rank == 0) {
                auto lone = (*shortComm)->iAllReduceSum(x, 16);
                if (failures.check(rank, lone, "lone iAllReduceSum")) {
                    auto w = (*shortComm)->wait(*lone);
                    failures.expect(
                        rank, !w && w.error().message.find("did not finish") != std::string::npos,
                        "a lone all-reduce must time out");
                    failures.expect(rank, (*shortComm)->aborted(), "aborted after the timeout");
                    failures.expect(rank, !(*shortComm)->allReduceSum(x, 16),
                                    "calls after an abort fail");
                }
            }
            if (shortComm) {
                shortComm->reset(); // rank 1: finalize (or abort after the timeout)
            }
            o.release(x);
            o.release(out);
            o.release(in);
        };
        std::thread t0(rankMain, 0);
        std::thread t1(rankMain, 1);
        t0.join();
        t1.join();
        QVERIFY2(failures.list.isEmpty(), qPrintable(failures.list.join("\n")));
    }
};

QTEST_GUILESS_MAIN(TestNcclCommunicator)
#include "test_nccl_communicator.moc"
