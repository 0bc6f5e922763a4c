// In-process Communicator for tests: N threads of one process form a group; allReduceSum and
// broadcast(float) rendezvous through a shared board and a std::barrier. No MPI needed.
#pragma once

#include "communicator.h"

#include <barrier>
#include <memory>
#include <vector>

namespace tessera::train::test {

/// What the threads of one group share.
struct InprocBoard {
    explicit InprocBoard(int n) : size(n), slots(std::size_t(n), nullptr), barrier(n) {}
    int size;
    std::vector<float*> slots; // each rank's buffer during a collective
    std::barrier<> barrier;
};

/// One rank's handle; every rank calls the same collectives in the same order.
class InprocCommunicator final : public Communicator {
public:
    InprocCommunicator(std::shared_ptr<InprocBoard> board, int rank)
        : m_board(std::move(board)), m_rank(rank) {}

    int rank() const override { return m_rank; }
    int worldSize() const override { return m_board->size; }

    Result<void> allReduceSum(float* data, std::size_t n) override {
        m_board->slots[std::size_t(m_rank)] = data;
        m_board->barrier.arrive_and_wait();
        std::vector<float> sum(n, 0.0f);
        for (float* s : m_board->slots) { // same order on every rank: identical results
            for (std::size_t i = 0; i < n; ++i) {
                sum[i] += s[i];
            }
        }
        m_board->barrier.arrive_and_wait(); // everyone has read every buffer
        std::copy(sum.begin(), sum.end(), data);
        m_board->barrier.arrive_and_wait();
        return {};
    }
    Result<void> broadcast(float* data, std::size_t n, int root) override {
        m_board->slots[std::size_t(m_rank)] = data;
        m_board->barrier.arrive_and_wait();
        if (m_rank != root) {
            std::copy(m_board->slots[std::size_t(root)], m_board->slots[std::size_t(root)] + n,
                      data);
        }
        m_board->barrier.arrive_and_wait();
        return {};
    }

    Result<void> allReduceSum(double*, std::size_t) override { return unsupported(); }
    Result<void> allReduceMin(int*, std::size_t) override { return unsupported(); }
    Result<void> broadcast(std::string&, int) override { return unsupported(); }
    Result<RequestId> iAllReduceSum(float*, std::size_t) override { return unsupported(); }
    Result<RequestId> iSend(const float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> recv(float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> wait(RequestId) override { return unsupported(); }
    Result<void> waitAll() override { return {}; }
    Result<void> poll() override { return {}; }
    Result<void> allGatherInPlace(float*, const int*, const int*) override { return unsupported(); }
    Result<std::unique_ptr<Communicator>> split(int, int) override { return unsupported(); }

private:
    static std::unexpected<Error> unsupported() {
        return fail(ErrorCode::Internal, "InprocCommunicator supports allReduceSum(float) and "
                                         "broadcast(float) only");
    }
    std::shared_ptr<InprocBoard> m_board;
    int m_rank;
};

} // namespace tessera::train::test
