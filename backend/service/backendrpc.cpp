// BackendService's handlers (see backendrpc.h).
#include "backend/service/backendrpc.h"

#include "backend/service/backendserver.h"
#include "backend/service/updatequeue.h"

#include <QString>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

grpc::Status stopped() {
    return {grpc::StatusCode::UNAVAILABLE,
            "the backend is stopping or handing the data folder over; ask again"};
}

} // namespace

grpc::Status BackendRpc::Describe(grpc::ServerContext*, const bv1::DescribeRequest*,
                                  bv1::DescribeReply* reply) {
    auto answer = m_server->call([this] { return m_server->describe(); });
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

grpc::Status BackendRpc::SubmitJob(grpc::ServerContext*, const bv1::SubmitJobRequest* request,
                                   bv1::SubmitJobReply* reply) {
    auto answer = m_server->call([this, json = request->spec_json()] {
        bv1::SubmitJobReply r;
        const grpc::Status s = m_server->submit(json, &r);
        return std::make_pair(s, r);
    });
    if (!answer) {
        return stopped();
    }
    *reply = answer->second;
    return answer->first;
}

grpc::Status BackendRpc::CancelJob(grpc::ServerContext*, const bv1::CancelJobRequest* request,
                                   bv1::CancelJobReply*) {
    const QString jobId = QString::fromStdString(request->job_id());
    auto answer = m_server->call([this, jobId] { return m_server->cancel(jobId); });
    return answer ? *answer : stopped();
}

grpc::Status BackendRpc::WatchJob(grpc::ServerContext* context, const bv1::WatchJobRequest* request,
                                  grpc::ServerWriter<bv1::JobUpdate>* writer) {
    auto queue = std::make_shared<UpdateQueue>();
    const QString jobId = QString::fromStdString(request->job_id());
    auto subscribed =
        m_server->call([this, jobId, queue] { return m_server->subscribe(jobId, queue); });
    if (!subscribed) {
        return stopped();
    }
    if (!subscribed->ok()) {
        return *subscribed;
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

} // namespace tessera
