// A stream's queue of updates (WatchJob, WatchCluster, WatchJobs), filled on the backend's thread
// and drained by the gRPC thread that writes the stream.
#pragma once

#include "tessera/backend/v1/backend.pb.h"

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace tessera {

/// FIFO of stream messages with an end. push/close from one thread, pop from another. A client
/// that reads slower than updates come (a frozen laptop on a 1,000 points/s job) is cut once
/// kMaxItems wait, with RESOURCE_EXHAUSTED: it reconnects with backfill from its last seen seq and
/// loses nothing, and the server's memory stays bounded.
template <typename T> class StreamQueue {
public:
    static constexpr size_t kMaxItems = 200000;

    /// Appends `update` unless the queue was closed; past kMaxItems, closes it instead.
    void push(T update) {
        {
            std::lock_guard lock(m_mutex);
            if (m_closed) {
                return;
            }
            if (m_items.size() >= kMaxItems) {
                m_closed = true;
                m_items.clear();
                m_end = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                     "this client read too slowly and fell 200,000 updates "
                                     "behind: watch again from the last seq it saw");
            } else {
                m_items.push_back(std::move(update));
            }
        }
        m_ready.notify_one();
    }
    /// Ends the stream with `status` once the updates queued before are taken.
    void close(grpc::Status status) {
        {
            std::lock_guard lock(m_mutex);
            if (m_closed) {
                return;
            }
            m_closed = true;
            m_end = std::move(status);
        }
        m_ready.notify_one();
    }
    /// Waits at most `wait` for the next update; nullopt when none came (see closed()).
    std::optional<T> pop(std::chrono::milliseconds wait) {
        std::unique_lock lock(m_mutex);
        m_ready.wait_for(lock, wait, [this] { return !m_items.empty() || m_closed; });
        if (m_items.empty()) {
            return std::nullopt;
        }
        T next = std::move(m_items.front());
        m_items.pop_front();
        return next;
    }
    /// Closed and drained: the stream ends with end().
    bool finished() const {
        std::lock_guard lock(m_mutex);
        return m_closed && m_items.empty();
    }
    /// close() was called (updates may still wait to be taken).
    bool closed() const {
        std::lock_guard lock(m_mutex);
        return m_closed;
    }
    /// How the stream ends (valid once closed()).
    grpc::Status end() const {
        std::lock_guard lock(m_mutex);
        return m_end;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<T> m_items;
    bool m_closed = false;
    grpc::Status m_end;
};

/// One WatchJob stream's queue.
using UpdateQueue = StreamQueue<tessera::backend::v1::JobUpdate>;
/// One WatchCluster stream's queue.
using ClusterQueue = StreamQueue<tessera::backend::v1::ClusterSnapshot>;
/// One WatchJobs stream's queue.
using JobsQueue = StreamQueue<tessera::backend::v1::JobsUpdate>;
/// One WatchTelemetry stream's queue.
using TelemetryQueue = StreamQueue<tessera::backend::v1::TelemetryUpdate>;

} // namespace tessera
