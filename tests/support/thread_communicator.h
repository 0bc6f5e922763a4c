// Test helper: a host Communicator whose ranks are threads of one process (no MPI): tensor-
// parallel layers, ZeRO-1 and the global norm are tested with it, and NCCL communicators are
// bootstrapped through it for one rank per GPU thread inside a Qt Test executable.
#pragma once

#include "worker/train/nn/communicator.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace tessera::train::test {

/// State shared by the ranks of one group: a reusable barrier and one slot per rank.
struct ThreadGroup {
    explicit ThreadGroup(int n) : size(n), slots(std::size_t(n)) {}
    void barrier() {
        std::unique_lock lock(mutex);
        const std::uint64_t gen = generation;
        if (++arrived == size) {
            arrived = 0;
            ++generation;
            cv.notify_all();
        } else {
            cv.wait(lock, [&] { return generation != gen; });
        }
    }
    int size;
    std::mutex mutex;
    std::condition_variable cv;
    int arrived = 0;
    std::uint64_t generation = 0;
    std::vector<std::string> slots;
    std::map<int, std::shared_ptr<ThreadGroup>> children; ///< split(): color → new group
};

/// Host collectives by exchanging byte strings through the group (every rank sums in rank
/// order, so all ranks get bit-identical results); non-blocking and point-to-point operations
/// report Internal.
class ThreadCommunicator final : public Communicator {
public:
    ThreadCommunicator(std::shared_ptr<ThreadGroup> group, int rank)
        : m_group(std::move(group)), m_rank(rank) {}

    /// `size` communicators of one new group; hand one to each thread.
    static std::vector<std::unique_ptr<Communicator>> makeGroup(int size) {
        auto group = std::make_shared<ThreadGroup>(size);
        std::vector<std::unique_ptr<Communicator>> comms;
        for (int r = 0; r < size; ++r) {
            comms.push_back(std::make_unique<ThreadCommunicator>(group, r));
        }
        return comms;
    }

    int rank() const override { return m_rank; }
    int worldSize() const override { return m_group->size; }

    Result<void> allReduceSum(float* data, std::size_t n) override { return reduce(data, n); }
    Result<void> allReduceSum(double* data, std::size_t n) override { return reduce(data, n); }
    Result<void> allReduceMin(int* data, std::size_t n) override {
        const auto all =
            exchange(std::string(reinterpret_cast<const char*>(data), n * sizeof(int)));
        for (std::size_t i = 0; i < n; ++i) {
            for (const std::string& s : all) {
                int v;
                std::memcpy(&v, s.data() + i * sizeof(int), sizeof(int));
                data[i] = std::min(data[i], v);
            }
        }
        return {};
    }
    Result<void> broadcast(std::string& bytes, int root) override {
        bytes = exchange(bytes)[std::size_t(root)];
        return {};
    }
    Result<void> broadcast(float* data, std::size_t n, int root) override {
        std::string bytes(reinterpret_cast<const char*>(data), n * sizeof(float));
        broadcast(bytes, root);
        std::memcpy(data, bytes.data(), n * sizeof(float));
        return {};
    }
    Result<RequestId> iAllReduceSum(float*, std::size_t) override { return unsupported(); }
    Result<RequestId> iSend(const float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> recv(float*, std::size_t, int, int) override { return unsupported(); }
    Result<void> wait(RequestId) override { return unsupported(); }
    Result<void> waitAll() override { return {}; }
    Result<void> poll() override { return {}; }
    Result<void> allGatherInPlace(float* data, const int* counts, const int* displs) override {
        const auto all = exchange(std::string(reinterpret_cast<const char*>(data + displs[m_rank]),
                                              std::size_t(counts[m_rank]) * sizeof(float)));
        for (int r = 0; r < m_group->size; ++r) {
            std::memcpy(data + displs[r], all[std::size_t(r)].data(), all[std::size_t(r)].size());
        }
        return {};
    }

    Result<std::unique_ptr<Communicator>> split(int color, int key) override {
        const int mine[2] = {color, key};
        const auto all = exchange(std::string(reinterpret_cast<const char*>(mine), sizeof(mine)));
        std::vector<std::tuple<int, int>> members; // (key, old rank) of my color
        for (int r = 0; r < m_group->size; ++r) {
            int ck[2];
            std::memcpy(ck, all[std::size_t(r)].data(), sizeof(ck));
            if (ck[0] == color) {
                members.emplace_back(ck[1], r);
            }
        }
        std::sort(members.begin(), members.end());
        int newRank = 0;
        while (std::get<1>(members[std::size_t(newRank)]) != m_rank) {
            ++newRank;
        }
        if (newRank == 0) {
            std::lock_guard lock(m_group->mutex);
            m_group->children[color] = std::make_shared<ThreadGroup>(int(members.size()));
        }
        m_group->barrier();
        std::shared_ptr<ThreadGroup> child;
        {
            std::lock_guard lock(m_group->mutex);
            child = m_group->children[color];
        }
        m_group->barrier();
        if (m_rank == 0) {
            std::lock_guard lock(m_group->mutex);
            m_group->children.clear();
        }
        return std::unique_ptr<Communicator>(new ThreadCommunicator(child, newRank));
    }

private:
    std::vector<std::string> exchange(std::string mine) {
        {
            std::lock_guard lock(m_group->mutex);
            m_group->slots[std::size_t(m_rank)] = std::move(mine);
        }
        m_group->barrier();
        std::vector<std::string> all;
        {
            std::lock_guard lock(m_group->mutex);
            all = m_group->slots;
        }
        m_group->barrier();
        return all;
    }
    template <typename T> Result<void> reduce(T* data, std::size_t n) {
        const auto all = exchange(std::string(reinterpret_cast<const char*>(data), n * sizeof(T)));
        for (std::size_t i = 0; i < n; ++i) {
            T s = 0;
            for (const std::string& bytes : all) {
                T v;
                std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
                s += v;
            }
            data[i] = s;
        }
        return {};
    }
    static Failure unsupported() {
        return fail(ErrorCode::Internal, "not supported by the test ThreadCommunicator");
    }

    std::shared_ptr<ThreadGroup> m_group;
    int m_rank;
};

/// Runs body(rank, communicator) on `size` threads of one group and joins them.
inline void runThreadRanks(int size, const std::function<void(int, Communicator&)>& body) {
    auto comms = ThreadCommunicator::makeGroup(size);
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r) {
        threads.emplace_back([&, r] { body(r, *comms[std::size_t(r)]); });
    }
    for (auto& t : threads) {
        t.join();
    }
}

} // namespace tessera::train::test
