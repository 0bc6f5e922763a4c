// The gRPC handlers of tessera.backend.v1.BackendService (see backendserver.h): each hands its
// work to the BackendServer's thread and turns the answer into a reply.
#pragma once

#include "backend/service/clientgate.h"
#include "backend/service/updatequeue.h"
#include "tessera/backend/v1/backend.grpc.pb.h"

#include <QString>

namespace tessera {

class BackendServer;
struct Backfill;
struct StoredEvent;

/// BackendService on top of one BackendServer (which owns it and stops it before it goes).
class BackendRpc final : public tessera::backend::v1::BackendService::Service {
public:
    explicit BackendRpc(BackendServer* server) : m_server(server) {}

    /// The gate of the listeners this service is registered on; set before the server starts.
    void setGate(std::shared_ptr<const ClientGate> gate) { m_gate = std::move(gate); }

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
    grpc::Status
    WatchCluster(grpc::ServerContext* context, const tessera::backend::v1::WatchClusterRequest*,
                 grpc::ServerWriter<tessera::backend::v1::ClusterSnapshot>* writer) override;
    grpc::Status WatchJobs(grpc::ServerContext* context,
                           const tessera::backend::v1::WatchJobsRequest* request,
                           grpc::ServerWriter<tessera::backend::v1::JobsUpdate>* writer) override;
    grpc::Status ListOffers(grpc::ServerContext*, const tessera::backend::v1::ListOffersRequest*,
                            tessera::backend::v1::ListOffersReply* reply) override;
    grpc::Status Rent(grpc::ServerContext* context,
                      const tessera::backend::v1::RentRequest* request,
                      tessera::backend::v1::RentReply* reply) override;
    grpc::Status Release(grpc::ServerContext* context,
                         const tessera::backend::v1::ReleaseRequest* request,
                         tessera::backend::v1::ReleaseReply*) override;
    grpc::Status SetAutoscale(grpc::ServerContext* context,
                              const tessera::backend::v1::SetAutoscaleRequest* request,
                              tessera::backend::v1::SetAutoscaleReply*) override;
    grpc::Status
    WatchTelemetry(grpc::ServerContext* context, const tessera::backend::v1::WatchTelemetryRequest*,
                   grpc::ServerWriter<tessera::backend::v1::TelemetryUpdate>* writer) override;
    grpc::Status ListAudit(grpc::ServerContext*, const tessera::backend::v1::ListAuditRequest*,
                           tessera::backend::v1::ListAuditReply* reply) override;

private:
    /// Writes what `queue` brings until it ends, the client goes away or the server stops.
    template <typename T>
    grpc::Status drain(grpc::ServerContext* context, grpc::ServerWriter<T>* writer,
                       const std::shared_ptr<StreamQueue<T>>& queue);
    /// Writes the stored events of `jobId` from `fromSeq` to backfill.upToSeq, with its
    /// relaunches, in pages (HistoryReader on this thread). CANCELLED when the client went away.
    grpc::Status replay(grpc::ServerContext* context,
                        grpc::ServerWriter<tessera::backend::v1::JobUpdate>* writer,
                        const QString& jobId, quint64 fromSeq, const Backfill& backfill);
    static tessera::backend::v1::JobUpdate toUpdate(const StoredEvent& e);
    /// Who made the call (the gate's verdict on its peer); nobody without a gate.
    Caller callerOf(const grpc::ServerContext& context) const {
        return m_gate ? m_gate->callerOf(context) : Caller{};
    }

    BackendServer* m_server;
    std::shared_ptr<const ClientGate> m_gate;
};

} // namespace tessera
