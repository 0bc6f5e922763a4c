// Test helper: an in-process Communicator whose "ranks" are threads of one process, for testing
// collectives-using code (ZeRO-1 all-gather, norm all-reduce) without MPI. Only the calls those
// tests need are implemented; the rest report Internal.
#pragma once

#include "communicator.h"

#include <barrier>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace tessera::train::test {

/// Shared state of `size` thread ranks.
struct ThreadGroupState {
    explicit ThreadGroupState(int n) : size(n), sync(n), pointers(std::size_t(n)) {}
    int size;
    std::barrier<> sync;
    std::vector<void*> pointers;
};

class ThreadRankCommunicator final : public Communicator {
public:
    ThreadRankCommunicator(std::shared_ptr<ThreadGroupState> s, int rank)
        : m_s(std::move(s)), m_rank(rank) {}

    int rank() const override { return m_rank; }
    int worldSize() const override { return m_s->size; }

    Result<void> allReduceSum(float* data, std::size_t n) override { return sum(data, n); }
    Result<void> allReduceSum(double* data, std::size_t n) override { return sum(data, n); }
    Result<void> allReduceMin(int*, std::size_t) override { return unsupported(); }
    Result<void> broadcast(std::string&, int) override { return unsupported(); }
    Result<void> broadcast(float*, std::size_t, int) override { return unsupported(); }
    Result<RequestId> iAllReduceSum(float*, std::size_t) override { return unsupported(); }
    Result<RequestId> iSend(const float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> recv(float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> wait(RequestId) override { return unsupported(); }
    Result<void> waitAll() override { return {}; }
    Result<void> poll() override { return {}; }
    Result<std::unique_ptr<Communicator>> split(int, int) override { return unsupported(); }

    Result<void> allGatherInPlace(float* data, const int* counts, const int* displs) override {
        m_s->pointers[std::size_t(m_rank)] = data;
        m_s->sync.arrive_and_wait();
        for (int r = 0; r < m_s->size; ++r) {
            if (r != m_rank) {
                const auto* src = static_cast<const float*>(m_s->pointers[std::size_t(r)]);
                std::memcpy(data + displs[r], src + displs[r], std::size_t(counts[r]) * 4);
            }
        }
        m_s->sync.arrive_and_wait();
        return {};
    }

private:
    std::unexpected<Error> unsupported() {
        return fail(ErrorCode::Internal, "ThreadRankCommunicator: not implemented");
    }
    template <typename T> Result<void> sum(T* data, std::size_t n) {
        std::vector<T> mine(data, data + n);
        m_s->pointers[std::size_t(m_rank)] = mine.data();
        m_s->sync.arrive_and_wait();
        for (std::size_t i = 0; i < n; ++i) {
            T total = 0;
            for (int r = 0; r < m_s->size; ++r) {
                total += static_cast<const T*>(m_s->pointers[std::size_t(r)])[i];
            }
            data[i] = total;
        }
        m_s->sync.arrive_and_wait();
        return {};
    }

    std::shared_ptr<ThreadGroupState> m_s;
    int m_rank;
};

/// Runs body(rank, communicator) on `size` threads and joins them.
inline void runThreadRanks(int size, const std::function<void(int, Communicator&)>& body) {
    auto state = std::make_shared<ThreadGroupState>(size);
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r) {
        threads.emplace_back([&, r] {
            ThreadRankCommunicator comm(state, r);
            body(r, comm);
        });
    }
    for (auto& t : threads) {
        t.join();
    }
}

} // namespace tessera::train::test
