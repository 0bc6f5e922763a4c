// BackendService's handlers (see backendrpc.h).
#include "backend/service/backendrpc.h"

#include "backend/history/historyreader.h"
#include "backend/service/backendserver.h"
#include "backend/service/clientgate.h"
#include "backend/service/telemetryfanout.h"
#include "backend/service/updatequeue.h"

#include <QString>

#include <limits>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

grpc::Status stopped() {
    return {grpc::StatusCode::UNAVAILABLE,
            "the backend is stopping or handing the data folder over; ask again"};
}

} // namespace

grpc::Status BackendRpc::Describe(grpc::ServerContext* context, const bv1::DescribeRequest*,
                                  bv1::DescribeReply* reply) {
    auto answer =
        m_server->call([this, caller = callerOf(*context)] { return m_server->describe(caller); });
    if (!answer) {
        return stopped();
    }
    *reply = std::move(*answer);
    return grpc::Status::OK;
}

grpc::Status BackendRpc::HandOver(grpc::ServerContext*, const bv1::HandOverRequest* request,
                                  bv1::HandOverReply*) {
    const QString requester = QString::fromStdString(request->requester());
    auto answer = m_server->call([this, requester] { return m_server->handOver(requester); });
    return answer ? *answer : stopped();
}

grpc::Status BackendRpc::SubmitJob(grpc::ServerContext* context,
                                   const bv1::SubmitJobRequest* request,
                                   bv1::SubmitJobReply* reply) {
    auto answer = m_server->call([this, json = request->spec_json(), caller = callerOf(*context)] {
        bv1::SubmitJobReply r;
        const grpc::Status s = m_server->submit(json, caller, &r);
        return std::make_pair(s, r);
    });
    if (!answer) {
        return stopped();
    }
    *reply = answer->second;
    return answer->first;
}

grpc::Status BackendRpc::CancelJob(grpc::ServerContext* context,
                                   const bv1::CancelJobRequest* request, bv1::CancelJobReply*) {
    const QString jobId = QString::fromStdString(request->job_id());
    auto answer = m_server->call(
        [this, jobId, caller = callerOf(*context)] { return m_server->cancel(jobId, caller); });
    return answer ? *answer : stopped();
}

template <typename T>
grpc::Status BackendRpc::drain(grpc::ServerContext* context, grpc::ServerWriter<T>* writer,
                               const std::shared_ptr<StreamQueue<T>>& queue) {
    while (!context->IsCancelled()) {
        if (std::optional<T> next = queue->pop(std::chrono::milliseconds(100))) {
            if (!writer->Write(*next)) {
                break;
            }
        } else if (queue->finished()) {
            return queue->end();
        } else if (m_server->stopping()) {
            return stopped();
        }
    }
    queue->close(grpc::Status::CANCELLED); // its publisher drops it at its next update
    return grpc::Status::CANCELLED;
}

grpc::Status BackendRpc::WatchCluster(grpc::ServerContext* context, const bv1::WatchClusterRequest*,
                                      grpc::ServerWriter<bv1::ClusterSnapshot>* writer) {
    auto queue = std::make_shared<ClusterQueue>();
    if (!m_server->call([this, queue] {
            m_server->subscribeCluster(queue);
            return true;
        })) {
        return stopped();
    }
    return drain(context, writer, queue);
}

grpc::Status BackendRpc::WatchJobs(grpc::ServerContext* context,
                                   const bv1::WatchJobsRequest* request,
                                   grpc::ServerWriter<bv1::JobsUpdate>* writer) {
    auto queue = std::make_shared<JobsQueue>();
    if (!m_server->call([this, queue, recent = request->recent()] {
            m_server->subscribeJobs(queue, recent);
            return true;
        })) {
        return stopped();
    }
    return drain(context, writer, queue);
}

grpc::Status BackendRpc::WatchTelemetry(grpc::ServerContext* context,
                                        const bv1::WatchTelemetryRequest*,
                                        grpc::ServerWriter<bv1::TelemetryUpdate>* writer) {
    auto queue = std::make_shared<TelemetryQueue>();
    if (!m_server->call([this, queue] {
            m_server->telemetry()->subscribe(queue);
            return true;
        })) {
        return stopped();
    }
    return drain(context, writer, queue);
}

grpc::Status BackendRpc::ListOffers(grpc::ServerContext*, const bv1::ListOffersRequest*,
                                    bv1::ListOffersReply* reply) {
    auto answer = m_server->call([this] { return m_server->offers(); });
    if (!answer) {
        return stopped();
    }
    *reply = std::move(*answer);
    return grpc::Status::OK;
}

grpc::Status BackendRpc::Rent(grpc::ServerContext* context, const bv1::RentRequest* request,
                              bv1::RentReply* reply) {
    auto answer = m_server->call([this, provider = QString::fromStdString(request->provider()),
                                  offer = QString::fromStdString(request->offer_id()),
                                  count = request->count(), caller = callerOf(*context)] {
        bv1::RentReply r;
        const grpc::Status s = m_server->rent(provider, offer, count, caller, &r);
        return std::make_pair(s, r);
    });
    if (!answer) {
        return stopped();
    }
    *reply = answer->second;
    return answer->first;
}

grpc::Status BackendRpc::Release(grpc::ServerContext* context, const bv1::ReleaseRequest* request,
                                 bv1::ReleaseReply*) {
    auto answer =
        m_server->call([this, lease = QString::fromStdString(request->lease_id()),
                        caller = callerOf(*context)] { return m_server->release(lease, caller); });
    return answer ? *answer : stopped();
}

grpc::Status BackendRpc::SetAutoscale(grpc::ServerContext* context,
                                      const bv1::SetAutoscaleRequest* request,
                                      bv1::SetAutoscaleReply*) {
    auto answer = m_server->call([this, policy = request->policy(), caller = callerOf(*context)] {
        return m_server->setAutoscale(policy, caller);
    });
    return answer ? *answer : stopped();
}

grpc::Status BackendRpc::ListAudit(grpc::ServerContext*, const bv1::ListAuditRequest* request,
                                   bv1::ListAuditReply* reply) {
    auto answer = m_server->call([this, limit = request->limit(), since = request->since_ms()] {
        return m_server->audit(limit, since);
    });
    if (!answer) {
        return stopped();
    }
    *reply = std::move(*answer);
    return grpc::Status::OK;
}

grpc::Status BackendRpc::WatchJob(grpc::ServerContext* context, const bv1::WatchJobRequest* request,
                                  grpc::ServerWriter<bv1::JobUpdate>* writer) {
    auto queue = std::make_shared<UpdateQueue>();
    const QString jobId = QString::fromStdString(request->job_id());
    const bool wantsBackfill = request->backfill();
    auto subscribed = m_server->call([this, jobId, queue, wantsBackfill] {
        Backfill backfill;
        const grpc::Status s =
            m_server->subscribe(jobId, queue, wantsBackfill ? &backfill : nullptr);
        return std::make_pair(s, backfill);
    });
    if (!subscribed) {
        return stopped();
    }
    if (!subscribed->first.ok()) {
        return subscribed->first;
    }
    if (wantsBackfill) {
        // The job's state (always queued first), then the replay, then what came meanwhile.
        if (std::optional<bv1::JobUpdate> state = queue->pop(std::chrono::milliseconds(0))) {
            if (!writer->Write(*state)) {
                queue->close(grpc::Status::CANCELLED);
                return grpc::Status::CANCELLED;
            }
        }
        if (const grpc::Status replayed =
                replay(context, writer, jobId, request->from_seq(), subscribed->second);
            !replayed.ok() || request->replay_only()) {
            queue->close(grpc::Status::CANCELLED); // the server drops it at its next update
            return replayed;
        }
    }
    while (!context->IsCancelled()) {
        if (std::optional<bv1::JobUpdate> next = queue->pop(std::chrono::milliseconds(100))) {
            if (!writer->Write(*next)) {
                break; // the client went away
            }
        } else if (queue->finished()) {
            return queue->end();
        } else if (m_server->stopping()) {
            return stopped();
        }
    }
    queue->close(grpc::Status::CANCELLED); // the server drops it at its next update
    return grpc::Status::CANCELLED;
}

grpc::Status BackendRpc::replay(grpc::ServerContext* context,
                                grpc::ServerWriter<bv1::JobUpdate>* writer, const QString& jobId,
                                quint64 fromSeq, const Backfill& backfill) {
    if (backfill.storePath.isEmpty()) {
        return grpc::Status::OK;
    }
    HistoryReader reader;
    if (Result<void> opened = reader.open(backfill.storePath); !opened) {
        return {grpc::StatusCode::UNAVAILABLE, opened.error().message};
    }
    QList<bv1::RecoveryUpdate> relaunches;
    for (const bv1::RecoveryUpdate& r : backfill.relaunches) {
        if (r.seq_base() + 1 >= fromSeq) {
            relaunches.append(r);
        }
    }
    // A relaunch goes before the first event of its attempt (seq > its seq_base).
    const auto relaunchesUpTo = [&](quint64 seq) {
        while (!relaunches.isEmpty() && relaunches.first().seq_base() < seq) {
            bv1::JobUpdate u;
            *u.mutable_recovery() = relaunches.takeFirst();
            if (!writer->Write(u)) {
                return false;
            }
        }
        return true;
    };
    constexpr int kPage = 2000;
    quint64 after = fromSeq > 0 ? fromSeq - 1 : 0;
    while (!context->IsCancelled() && !m_server->stopping()) {
        const QList<StoredEvent> page = reader.events(jobId, after, backfill.upToSeq, kPage);
        for (const StoredEvent& e : page) {
            if (!relaunchesUpTo(e.seq) || !writer->Write(toUpdate(e))) {
                return grpc::Status::CANCELLED;
            }
            after = e.seq;
        }
        if (page.size() < kPage) {
            return relaunchesUpTo(std::numeric_limits<quint64>::max()) ? grpc::Status::OK
                                                                       : grpc::Status::CANCELLED;
        }
    }
    return m_server->stopping() ? stopped() : grpc::Status::CANCELLED;
}

bv1::JobUpdate BackendRpc::toUpdate(const StoredEvent& e) {
    bv1::JobUpdate u;
    if (e.isPoint) {
        bv1::MetricUpdate* m = u.mutable_metric();
        m->set_seq(e.seq);
        m->set_step(e.point.step);
        m->set_rank(e.point.rank);
        m->set_time_ms(e.point.timeMs);
        for (auto v = e.point.values.cbegin(); v != e.point.values.cend(); ++v) {
            (*m->mutable_values())[v.key().toStdString()] = v.value();
        }
    } else {
        bv1::LogUpdate* l = u.mutable_log();
        l->set_stream(e.log.stream.toStdString());
        l->set_text(e.log.text.toStdString());
        l->set_rank(e.log.rank);
        l->set_seq(e.seq);
        l->set_time_ms(e.log.timeMs);
    }
    return u;
}

} // namespace tessera
