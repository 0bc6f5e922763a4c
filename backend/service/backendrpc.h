// The gRPC handlers of tessera.backend.v1.BackendService (see backendserver.h): each hands its
// work to the BackendServer's thread and turns the answer into a reply.
#pragma once

#include "tessera/backend/v1/backend.grpc.pb.h"

namespace tessera {

class BackendServer;

/// BackendService on top of one BackendServer (which owns it and stops it before it goes).
class BackendRpc final : public tessera::backend::v1::BackendService::Service {
public:
    explicit BackendRpc(BackendServer* server) : m_server(server) {}

    grpc::Status Describe(grpc::ServerContext*, const tessera::backend::v1::DescribeRequest*,
                          tessera::backend::v1::DescribeReply* reply) override;
    grpc::Status HandOver(grpc::ServerContext*,
                          const tessera::backend::v1::HandOverRequest* request,
                          tessera::backend::v1::HandOverReply*) override;
    grpc::Status SubmitJob(grpc::ServerContext*,
                           const tessera::backend::v1::SubmitJobRequest* request,
                           tessera::backend::v1::SubmitJobReply* reply) override;
    grpc::Status CancelJob(grpc::ServerContext*,
                           const tessera::backend::v1::CancelJobRequest* request,
                           tessera::backend::v1::CancelJobReply*) override;
    grpc::Status WatchJob(grpc::ServerContext* context,
                          const tessera::backend::v1::WatchJobRequest* request,
                          grpc::ServerWriter<tessera::backend::v1::JobUpdate>* writer) override;

private:
    BackendServer* m_server;
};

} // namespace tessera
