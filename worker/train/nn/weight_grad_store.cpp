// Deferred weight-gradient queues (see weight_grad_store.h).
#include "worker/train/nn/weight_grad_store.h"

#include <algorithm>
#include <string>

namespace tessera::train {

WeightGradStore::WeightGradStore(Ops& ops, int queues, std::size_t floatsPerQueue)
    : m_ops(ops), m_capacity(floatsPerQueue), m_queues(std::size_t(std::max(queues, 0))) {
    for (Queue& q : m_queues) {
        q.arena = m_ops.alloc(std::max<std::size_t>(floatsPerQueue, 1));
    }
}

WeightGradStore::~WeightGradStore() {
    for (Queue& q : m_queues) {
        m_ops.release(q.arena);
    }
}

void WeightGradStore::capture(int queue, int layer) {
    m_queue = queue >= 0 && std::size_t(queue) < m_queues.size() ? queue : -1;
    m_layer = layer;
}

Result<void> WeightGradStore::defer(WeightGradSource& source, const float* x, std::size_t xFloats,
                                    const float* dy, std::size_t dyFloats, int rows) {
    if (m_queue < 0) {
        return fail(ErrorCode::Internal, "a weight gradient was deferred outside a capture");
    }
    Queue& q = m_queues[std::size_t(m_queue)];
    const std::size_t nx = std::size_t(rows) * xFloats;
    const std::size_t ndy = std::size_t(rows) * dyFloats;
    if (q.used + nx + ndy > m_capacity) {
        return fail(ErrorCode::Internal,
                    "the deferred weight gradients of one micro-batch need more than the " +
                        std::to_string(m_capacity) + " floats reserved for them");
    }
    Entry e{&source, m_layer, rows, q.used, q.used + nx};
    m_ops.copy(q.arena + e.x, x, nx);
    m_ops.copy(q.arena + e.dy, dy, ndy);
    q.used += nx + ndy;
    q.entries.push_back(e);
    return {};
}

int WeightGradStore::runLayer(int queue, int layer) {
    Queue& q = m_queues[std::size_t(queue)];
    int ran = 0;
    while (q.next < q.entries.size() && q.entries[q.next].layer == layer) {
        const Entry& e = q.entries[q.next];
        e.source->weightGradient(q.arena + e.x, q.arena + e.dy, e.rows);
        ++q.next;
        ++ran;
    }
    return ran;
}

std::size_t WeightGradStore::pending(int queue) const {
    const Queue& q = m_queues[std::size_t(queue)];
    return q.entries.size() - q.next;
}

void WeightGradStore::clear(int queue) {
    Queue& q = m_queues[std::size_t(queue)];
    q.entries.clear();
    q.used = 0;
    q.next = 0;
}

} // namespace tessera::train
