// A Communicator decorator that adds up the wall time spent inside the wrapped communicator's
// calls: the trainer wraps the tensor-parallel group in it to report exposed communication.
#pragma once

#include "worker/train/nn/communicator.h"

#include <chrono>
#include <type_traits>

namespace tessera::train {

/// Forwards every call to `inner` (which must outlive it) and accumulates the seconds spent in
/// them. On CPU (MPI) the calls block, so this is the time compute waited for communication.
class TimedCommunicator final : public Communicator {
public:
    explicit TimedCommunicator(Communicator& inner) : m_inner(inner) {}

    /// Seconds inside calls since construction or the last take(); resets the counter.
    double take() {
        const double s = m_seconds;
        m_seconds = 0.0;
        return s;
    }

    int rank() const override { return m_inner.rank(); }
    int worldSize() const override { return m_inner.worldSize(); }
    Result<void> allReduceSum(float* d, std::size_t n) override {
        return timed([&] { return m_inner.allReduceSum(d, n); });
    }
    Result<void> allReduceSum(double* d, std::size_t n) override {
        return timed([&] { return m_inner.allReduceSum(d, n); });
    }
    Result<void> allReduceMin(int* d, std::size_t n) override {
        return timed([&] { return m_inner.allReduceMin(d, n); });
    }
    Result<void> broadcast(std::string& bytes, int root) override {
        return timed([&] { return m_inner.broadcast(bytes, root); });
    }
    Result<void> broadcast(float* d, std::size_t n, int root) override {
        return timed([&] { return m_inner.broadcast(d, n, root); });
    }
    Result<RequestId> iAllReduceSum(float* d, std::size_t n) override {
        return timed([&] { return m_inner.iAllReduceSum(d, n); });
    }
    Result<RequestId> iSend(const float* d, std::size_t n, int peer, int tag) override {
        return timed([&] { return m_inner.iSend(d, n, peer, tag); });
    }
    Result<void> recv(float* d, std::size_t n, int peer, int tag) override {
        return timed([&] { return m_inner.recv(d, n, peer, tag); });
    }
    Result<void> wait(RequestId r) override {
        return timed([&] { return m_inner.wait(r); });
    }
    Result<void> waitAll() override {
        return timed([&] { return m_inner.waitAll(); });
    }
    Result<void> poll() override {
        return timed([&] { return m_inner.poll(); });
    }
    Result<void> allGatherInPlace(float* d, const int* counts, const int* displs) override {
        return timed([&] { return m_inner.allGatherInPlace(d, counts, displs); });
    }
    Result<std::unique_ptr<Communicator>> split(int color, int key) override {
        return m_inner.split(color, key);
    }

private:
    template <typename F> std::invoke_result_t<F&> timed(F&& f) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = f();
        m_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
    }

    Communicator& m_inner;
    double m_seconds = 0.0;
};

} // namespace tessera::train
