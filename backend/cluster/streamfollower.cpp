// Reconnect loop of the backend's stream followers (see streamfollower.h).
#include "backend/cluster/streamfollower.h"

#include "backend/cluster/workerclient.h"

#include <grpcpp/grpcpp.h>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>

namespace tessera {

StreamFollower::StreamFollower(std::shared_ptr<WorkerClient> client, quint64 fromSeq, int giveUpMs)
    : m_client(std::move(client)), m_lastSeq(fromSeq > 0 ? fromSeq - 1 : 0), m_giveUpMs(giveUpMs) {}

StreamFollower::~StreamFollower() {
    stopFollowing(); // normally done by the subclass already
}

void StreamFollower::setBackoff(int firstMs, int maxMs, int giveUpMs) {
    m_backoffFirstMs = std::max(1, firstMs);
    m_backoffMaxMs = std::max(m_backoffFirstMs, maxMs);
    m_giveUpMs = giveUpMs;
}

void StreamFollower::startFollowing() {
    if (m_thread.joinable()) {
        return;
    }
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

void StreamFollower::stopFollowing() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        if (m_context) {
            m_context->TryCancel();
        }
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

bool StreamFollower::interruptStream() {
    std::lock_guard lock(m_mutex);
    if (!m_context) {
        return false;
    }
    m_context->TryCancel();
    return true;
}

bool StreamFollower::sleepFor(int ms) {
    std::unique_lock lock(m_mutex);
    m_wake.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_stop.load(); });
    return !m_stop.load();
}

bool StreamFollower::isFinal(const grpc::Status& status) const {
    const auto code = status.error_code();
    return code == grpc::StatusCode::NOT_FOUND || code == grpc::StatusCode::UNAUTHENTICATED ||
           code == grpc::StatusCode::PERMISSION_DENIED ||
           code == grpc::StatusCode::INVALID_ARGUMENT;
}

void StreamFollower::run() {
    int delayMs = m_backoffFirstMs;
    QElapsedTimer unreachableFor; // runs while no stream has delivered anything
    while (!m_stop) {
        grpc::ClientContext context;
        {
            std::lock_guard lock(m_mutex);
            if (m_stop) {
                break;
            }
            m_context = &context;
        }
        // Opening the stream may wait for a connection: not under the lock, so that stop and
        // interrupt never wait for it (a TryCancel before the call starts cancels it at once).
        ++m_connections;
        const Pass pass = readStream(&context, m_lastSeq.load() + 1);
        {
            std::lock_guard lock(m_mutex);
            m_context = nullptr;
        }
        if (m_stop) {
            break;
        }
        if (pass.status.ok() && pass.complete) {
            onFinished();
            return;
        }
        if (isFinal(pass.status)) {
            onLost(QString::fromStdString(m_client->toError(pass.status, callName()).message));
            return;
        }
        if (pass.gotAny || !unreachableFor.isValid()) {
            unreachableFor.start();
            delayMs = m_backoffFirstMs;
        } else if (m_giveUpMs > 0 && unreachableFor.elapsed() > m_giveUpMs) {
            onLost(
                QCoreApplication::translate("tessera::StreamFollower",
                                            "%1 — gave up following %2 after %3 s")
                    .arg(QString::fromStdString(m_client->toError(pass.status, callName()).message),
                         QString::fromStdString(subject()), QString::number(m_giveUpMs / 1000)));
            return;
        }
        const QString reason =
            pass.status.ok() ? QCoreApplication::translate("tessera::StreamFollower",
                                                           "stream ended before its final message")
                             : QString::fromStdString(pass.status.error_message());
        onReconnecting(m_lastSeq.load() + 1, delayMs, reason);
        if (!sleepFor(delayMs)) {
            break;
        }
        delayMs = std::min(delayMs * 2, m_backoffMaxMs);
    }
}

} // namespace tessera
