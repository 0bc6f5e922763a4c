// WatchJob follower with reconnect-from-last-seq and de-duplication (see jobwatcher.h).
#include "jobwatcher.h"

#include "jobtypes.h"
#include "logging.h"
#include "workerclient.h"

#include <grpcpp/grpcpp.h>

#include <QElapsedTimer>

#include <algorithm>

namespace tessera {

JobWatcher::JobWatcher(std::shared_ptr<WorkerClient> client, const QString& jobId, quint64 fromSeq,
                       QObject* parent)
    : QObject(parent), m_client(std::move(client)), m_jobId(jobId),
      m_lastSeq(fromSeq > 0 ? fromSeq - 1 : 0) {
    registerBackendMetaTypes();
}

JobWatcher::~JobWatcher() {
    stop();
}

void JobWatcher::setBackoff(int firstMs, int maxMs, int giveUpMs) {
    m_backoffFirstMs = std::max(1, firstMs);
    m_backoffMaxMs = std::max(m_backoffFirstMs, maxMs);
    m_giveUpMs = giveUpMs;
}

void JobWatcher::start() {
    if (m_thread.joinable()) {
        return;
    }
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

void JobWatcher::stop() {
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

bool JobWatcher::interrupt() {
    std::lock_guard lock(m_mutex);
    if (!m_context) {
        return false;
    }
    qCInfo(lcJobs) << "interrupting the WatchJob stream of" << m_jobId << "after seq"
                   << m_lastSeq.load();
    m_context->TryCancel();
    return true;
}

bool JobWatcher::sleepFor(int ms) {
    std::unique_lock lock(m_mutex);
    m_wake.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_stop.load(); });
    return !m_stop.load();
}

void JobWatcher::run() {
    int delayMs = m_backoffFirstMs;
    QElapsedTimer unreachableFor; // runs while no stream has delivered anything
    while (!m_stop) {
        grpc::ClientContext context;
        const quint64 fromSeq = m_lastSeq.load() + 1;
        {
            std::lock_guard lock(m_mutex);
            if (m_stop) {
                break;
            }
            m_context = &context;
        }
        // Opening the stream may wait for a connection: not under the lock, so that stop() and
        // interrupt() never wait for it (a TryCancel before the call starts cancels it at once).
        std::unique_ptr<grpc::ClientReader<v1::JobEvent>> reader =
            m_client->watchJob(&context, m_jobId, fromSeq);
        ++m_connections;
        bool sawTerminal = false;
        bool gotAny = false;
        v1::JobEvent event;
        while (reader->Read(&event)) {
            gotAny = true;
            if (event.seq() <= m_lastSeq.load()) {
                continue; // replayed twice by the worker: already delivered
            }
            m_lastSeq = event.seq();
            if (event.has_state()) {
                const auto s = event.state().state();
                sawTerminal = s == v1::JOB_STATE_SUCCEEDED || s == v1::JOB_STATE_FAILED ||
                              s == v1::JOB_STATE_CANCELLED;
            }
            Q_EMIT eventReceived(event);
        }
        const grpc::Status status = reader->Finish();
        {
            std::lock_guard lock(m_mutex);
            m_context = nullptr;
        }
        if (m_stop) {
            break;
        }
        if (status.ok() && sawTerminal) {
            Q_EMIT finished();
            return;
        }
        const auto code = status.error_code();
        if (code == grpc::StatusCode::NOT_FOUND || code == grpc::StatusCode::UNAUTHENTICATED ||
            code == grpc::StatusCode::PERMISSION_DENIED ||
            code == grpc::StatusCode::INVALID_ARGUMENT) {
            Q_EMIT lost(QString::fromStdString(m_client->toError(status, "WatchJob").message));
            return;
        }
        if (gotAny || !unreachableFor.isValid()) {
            unreachableFor.start();
            delayMs = m_backoffFirstMs;
        } else if (m_giveUpMs > 0 && unreachableFor.elapsed() > m_giveUpMs) {
            Q_EMIT lost(QString::fromStdString(
                m_client->toError(status, "WatchJob").message + " — gave up following job " +
                m_jobId.toStdString() + " after " + std::to_string(m_giveUpMs / 1000) + " s"));
            return;
        }
        const QString reason = status.ok()
                                   ? QStringLiteral("stream ended before the job's final state")
                                   : QString::fromStdString(status.error_message());
        qCInfo(lcJobs) << "WatchJob stream of" << m_jobId << "broke (" << reason
                       << "); reconnecting from seq" << m_lastSeq.load() + 1 << "in" << delayMs
                       << "ms";
        Q_EMIT reconnecting(m_lastSeq.load() + 1, delayMs, reason);
        if (!sleepFor(delayMs)) {
            break;
        }
        delayMs = std::min(delayMs * 2, m_backoffMaxMs);
    }
}

} // namespace tessera
