// One job of a server, gap-free across lost connections (see jobfeed.h).
#include "backend/client/jobfeed.h"

#include "backend/client/rpcstream.h"
#include "backend/service/backendclient.h"
#include "tessera/backend/v1/backend.grpc.pb.h"
#include "worker/common/tsan_handoff.h"

#include <algorithm>

namespace tessera::client {

namespace bv1 = tessera::backend::v1;

namespace {

/// The event seq an update carries (0: a state, a relaunch, a line of Tessera's own).
quint64 seqOf(const bv1::JobUpdate& u) {
    if (u.has_metric()) {
        return u.metric().seq();
    }
    return u.has_log() ? u.log().seq() : 0;
}

/// Whether following ends for good with `code` (the server does not know the job, or refuses).
bool final(grpc::StatusCode code) {
    return code == grpc::StatusCode::OK || code == grpc::StatusCode::NOT_FOUND ||
           code == grpc::StatusCode::INVALID_ARGUMENT ||
           code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::PERMISSION_DENIED;
}

} // namespace

JobFeed::JobFeed(std::shared_ptr<BackendClient> client, QString jobId, QObject* parent)
    : QObject(parent), m_client(std::move(client)), m_jobId(std::move(jobId)) {
    registerBackendMetaTypes();
}

JobFeed::~JobFeed() {
    stop();
}

void JobFeed::start(quint64 fromSeq, bool replayOnly) {
    if (m_stream) {
        return;
    }
    m_replayOnly = replayOnly;
    m_readSeq = fromSeq > 0 ? fromSeq - 1 : 0;
    m_lastSeq = m_readSeq;
    auto call = [this, replayOnly, opens = 0](grpc::ClientContext& context) mutable {
        bv1::WatchJobRequest request;
        request.set_job_id(m_jobId.toStdString());
        request.set_backfill(true);
        const quint64 from = m_readSeq + 1;
        request.set_from_seq(from);
        request.set_replay_only(replayOnly);
        auto reader = m_client->stub().WatchJob(&context, request);
        const bool again = opens++ > 0;
        bool first = true;
        bv1::JobUpdate update;
        while (reader->Read(&update)) {
            if (const quint64 seq = seqOf(update); seq > m_readSeq) {
                m_readSeq = seq;
            }
            const bool resumed = std::exchange(first, false) && again;
            QMetaObject::invokeMethod(this, tsanHandOff([this, update, resumed, from] {
                                          if (resumed) {
                                              Q_EMIT this->resumed(from);
                                          }
                                          onUpdate(update);
                                      }),
                                      Qt::QueuedConnection);
        }
        return reader->Finish();
    };
    auto ended = [this, replayOnly](const grpc::Status& status) {
        QMetaObject::invokeMethod(
            this,
            tsanHandOff([this, code = int(status.error_code()),
                         message = QString::fromStdString(status.error_message())] {
                onEnded(code, message);
            }),
            Qt::QueuedConnection);
        return !replayOnly && !final(status.error_code());
    };
    m_stream = std::make_unique<RpcStream>(std::move(call), std::move(ended));
    m_stream->start();
}

void JobFeed::stop() {
    if (m_stream) {
        m_stream->stop();
    }
}

void JobFeed::interrupt() {
    if (m_stream) {
        m_stream->interrupt();
    }
}

void JobFeed::onUpdate(const bv1::JobUpdate& update) {
    if (m_ended) {
        return;
    }
    if (const quint64 seq = seqOf(update); seq > 0) {
        if (seq <= m_lastSeq) {
            return; // delivered before the stream broke
        }
        m_lastSeq = seq;
    }
    if (update.has_state()) {
        const bv1::StateUpdate& s = update.state();
        const JobState state = jobStateFromName(QString::fromStdString(s.state()));
        const QString reason = QString::fromStdString(s.reason());
        m_owner = QString::fromStdString(s.owner());
        if (!m_stateKnown || state != m_state || reason != m_reason) {
            m_stateKnown = true;
            m_state = state;
            m_reason = reason;
            Q_EMIT stateChanged(state, reason);
        }
    } else if (update.has_metric()) {
        const bv1::MetricUpdate& m = update.metric();
        MetricPoint p;
        p.jobId = m_jobId;
        p.seq = m.seq();
        p.step = m.step();
        p.rank = m.rank();
        p.timeMs = m.time_ms();
        for (const auto& [key, value] : m.values()) {
            p.values.insert(QString::fromStdString(key), value);
        }
        Q_EMIT metricReceived(p);
    } else if (update.has_log()) {
        const bv1::LogUpdate& l = update.log();
        Q_EMIT logLine(QString::fromStdString(l.stream()), QString::fromStdString(l.text()),
                       l.rank(), l.seq());
    } else if (update.has_recovery()) {
        const bv1::RecoveryUpdate& r = update.recovery();
        if (r.attempt() <= m_lastAttempt) {
            return; // replayed again after a reconnect
        }
        m_lastAttempt = r.attempt();
        QStringList workers;
        for (const std::string& w : r.workers()) {
            workers << QString::fromStdString(w);
        }
        Q_EMIT recovering(r.attempt(), QString::fromStdString(r.cause()), r.resume_step(), workers);
    }
}

void JobFeed::onEnded(int code, const QString& message) {
    if (m_ended) {
        return;
    }
    const auto status = grpc::StatusCode(code);
    if (status == grpc::StatusCode::OK && (isTerminal(m_state) || m_replayOnly)) {
        m_ended = true;
        Q_EMIT finished();
    } else if (final(status) || m_replayOnly) {
        m_ended = true;
        const Error error =
            backendCallError(grpc::Status(status, message.toStdString()), m_client->endpoint());
        Q_EMIT gone(status == grpc::StatusCode::OK ? m_reason
                                                   : QString::fromStdString(error.message),
                    status != grpc::StatusCode::OK && error.code == ErrorCode::Unavailable);
    } else {
        Q_EMIT interrupted(QString::fromStdString(
            backendCallError(grpc::Status(status, message.toStdString()), m_client->endpoint())
                .message));
    }
}

} // namespace tessera::client
