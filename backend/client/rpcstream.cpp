// A control-API stream that reopens itself (see rpcstream.h).
#include "backend/client/rpcstream.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace tessera::client {

RpcStream::RpcStream(Call call, Ended ended) : m_call(std::move(call)), m_ended(std::move(ended)) {}

RpcStream::~RpcStream() {
    stop();
}

void RpcStream::start() {
    if (!m_thread.joinable()) {
        m_thread = std::thread([this] { run(); });
    }
}

void RpcStream::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        if (m_context) {
            m_context->TryCancel();
        }
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void RpcStream::interrupt() {
    std::lock_guard lock(m_mutex);
    if (m_context) {
        m_interrupted = true;
        m_context->TryCancel();
    }
}

bool RpcStream::pause(int ms) {
    std::unique_lock lock(m_mutex);
    return !m_wake.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_stopping; });
}

void RpcStream::run() {
    int retryMs = kFirstRetryMs;
    for (;;) {
        grpc::ClientContext context;
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping) {
                return;
            }
            m_context = &context;
        }
        const auto begun = std::chrono::steady_clock::now();
        const grpc::Status status = m_call(context);
        bool interrupted = false;
        {
            std::lock_guard lock(m_mutex);
            m_context = nullptr;
            if (m_stopping) {
                return;
            }
            interrupted = std::exchange(m_interrupted, false);
        }
        if (!m_ended(status)) {
            return;
        }
        if (std::chrono::steady_clock::now() - begun >= std::chrono::milliseconds(kSteadyMs)) {
            retryMs = kFirstRetryMs;
        }
        if (!interrupted && !pause(retryMs)) {
            return;
        }
        retryMs = std::min(retryMs * 2, kMaxRetryMs);
    }
}

} // namespace tessera::client
