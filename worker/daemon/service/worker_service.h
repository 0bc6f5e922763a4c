// WorkerService with gRPC's callback API: token check on every call, unary replies at once,
// WatchJob/WatchTelemetry/Exec as reactors that never block a gRPC thread.
#pragma once

#include "tessera/v1/worker.grpc.pb.h"
#include "worker/daemon/bundles/bundle_store.h"
#include "worker/daemon/jobs/job_manager.h"
#include "worker/daemon/security/allow_list.h"
#include "worker/daemon/security/auth.h"
#include "worker/daemon/telemetry/host_info.h"
#include "worker/daemon/telemetry/telemetry_hub.h"

#include <string>

namespace tessera::daemon {

/// The daemon's gRPC service. All referenced objects must outlive the server.
class WorkerService final : public v1::WorkerService::CallbackService {
public:
    WorkerService(const TokenAuth& auth, const AllowList& allow, JobManager& jobs,
                  TelemetryHub& telemetry, HostInfo host, std::string workerId, std::string workDir,
                  BundleStore::Limit bundleCache = {});

    grpc::ServerUnaryReactor* GetInfo(grpc::CallbackServerContext* ctx,
                                      const v1::GetInfoRequest* req,
                                      v1::WorkerInfo* reply) override;
    grpc::ServerWriteReactor<v1::TelemetrySample>*
    WatchTelemetry(grpc::CallbackServerContext* ctx, const v1::WatchTelemetryRequest* req) override;
    grpc::ServerUnaryReactor* LaunchJob(grpc::CallbackServerContext* ctx,
                                        const v1::LaunchJobRequest* req,
                                        v1::LaunchJobReply* reply) override;
    grpc::ServerWriteReactor<v1::JobEvent>* WatchJob(grpc::CallbackServerContext* ctx,
                                                     const v1::WatchJobRequest* req) override;
    grpc::ServerUnaryReactor* CancelJob(grpc::CallbackServerContext* ctx,
                                        const v1::CancelJobRequest* req,
                                        v1::CancelJobReply* reply) override;
    grpc::ServerBidiReactor<v1::ExecInput, v1::ExecOutput>*
    Exec(grpc::CallbackServerContext* ctx) override;
    grpc::ServerUnaryReactor* HasBundle(grpc::CallbackServerContext* ctx, const v1::BundleRef* req,
                                        v1::BundleStatus* reply) override;
    grpc::ServerReadReactor<v1::BundleChunk>* PutBundle(grpc::CallbackServerContext* ctx,
                                                        v1::BundleStatus* reply) override;

private:
    const TokenAuth& m_auth;
    const AllowList& m_allow;
    JobManager& m_jobs;
    TelemetryHub& m_telemetry;
    HostInfo m_host;
    std::string m_workerId;
    std::string m_workDir;
    BundleStore m_bundles;
};

} // namespace tessera::daemon
