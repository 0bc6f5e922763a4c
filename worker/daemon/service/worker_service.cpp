// WorkerService methods: auth first, then GetInfo/LaunchJob/CancelJob inline (they do not wait
// on processes) and WatchJob/WatchTelemetry/Exec as self-deleting reactors.
#include "worker/daemon/service/worker_service.h"

#include "worker/daemon/bundles/bundle_upload.h"
#include "worker/daemon/log/repeat_limiter.h"
#include "worker/daemon/output/utf8_text.h"
#include "worker/daemon/service/exec_session.h"
#include "worker/daemon/service/grpc_status.h"
#include "worker/daemon/service/telemetry_session.h"
#include "worker/daemon/service/watch_session.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

WorkerService::WorkerService(const TokenAuth& auth, const AllowList& allow, JobManager& jobs,
                             TelemetryHub& telemetry, HostInfo host, std::string workerId,
                             std::string workDir, BundleStore::Limit bundleCache)
    : m_auth(auth), m_allow(allow), m_jobs(jobs), m_telemetry(telemetry), m_host(std::move(host)),
      m_workerId(std::move(workerId)), m_workDir(std::move(workDir)),
      m_bundles(m_workDir, bundleCache) {
    m_bundles.sweepPartial(); // nothing uploads yet
}

grpc::ServerUnaryReactor* WorkerService::GetInfo(grpc::CallbackServerContext* ctx,
                                                 const v1::GetInfoRequest*, v1::WorkerInfo* reply) {
    auto* reactor = ctx->DefaultReactor();
    grpc::Status st = m_auth.check(*ctx, "GetInfo");
    if (st.ok()) {
        *reply = m_host.toProto(m_workerId, m_allow.names());
    }
    reactor->Finish(st);
    return reactor;
}

grpc::ServerWriteReactor<v1::TelemetrySample>*
WorkerService::WatchTelemetry(grpc::CallbackServerContext* ctx,
                              const v1::WatchTelemetryRequest* req) {
    return new TelemetrySession(m_telemetry, *req, m_auth.check(*ctx, "WatchTelemetry"));
}

grpc::ServerUnaryReactor* WorkerService::LaunchJob(grpc::CallbackServerContext* ctx,
                                                   const v1::LaunchJobRequest* req,
                                                   v1::LaunchJobReply* reply) {
    auto* reactor = ctx->DefaultReactor();
    grpc::Status st = m_auth.check(*ctx, "LaunchJob");
    if (st.ok()) {
        auto r = m_jobs.launch(*req);
        if (r) {
            *reply = *r;
            spdlog::info("[job {}] launched in {}", reply->job_id(), reply->job_dir());
        } else {
            st = toGrpcStatus(r.error());
            RepeatLimiter::shared().log(spdlog::level::warn, "launches refused",
                                        fmt::format("[job {}] launch refused: {}",
                                                    logSafe(req->spec().job_id(), 128),
                                                    logSafe(r.error().message)));
        }
    }
    reactor->Finish(st);
    return reactor;
}

grpc::ServerWriteReactor<v1::JobEvent>* WorkerService::WatchJob(grpc::CallbackServerContext* ctx,
                                                                const v1::WatchJobRequest* req) {
    grpc::Status st = m_auth.check(*ctx, "WatchJob");
    std::shared_ptr<Job> job;
    if (st.ok()) {
        job = m_jobs.find(req->job_id());
        if (!job) {
            st = toGrpcStatus(
                Error{ErrorCode::NotFound, "no job '" + req->job_id() + "' on this worker"});
        }
    }
    return new WatchSession(std::move(job), req->from_seq(), st);
}

grpc::ServerUnaryReactor* WorkerService::CancelJob(grpc::CallbackServerContext* ctx,
                                                   const v1::CancelJobRequest* req,
                                                   v1::CancelJobReply* reply) {
    auto* reactor = ctx->DefaultReactor();
    grpc::Status st = m_auth.check(*ctx, "CancelJob");
    if (st.ok()) {
        auto r = m_jobs.cancel(req->job_id(), req->grace_seconds());
        if (r) {
            reply->set_state(*r);
        } else {
            st = toGrpcStatus(r.error());
        }
    }
    reactor->Finish(st);
    return reactor;
}

grpc::ServerBidiReactor<v1::ExecInput, v1::ExecOutput>*
WorkerService::Exec(grpc::CallbackServerContext* ctx) {
    return new ExecSession(m_allow, m_workDir, m_auth.check(*ctx, "Exec"));
}

grpc::ServerUnaryReactor* WorkerService::HasBundle(grpc::CallbackServerContext* ctx,
                                                   const v1::BundleRef* req,
                                                   v1::BundleStatus* reply) {
    auto* reactor = ctx->DefaultReactor();
    grpc::Status st = m_auth.check(*ctx, "HasBundle");
    if (st.ok()) {
        if (!BundleStore::isValidSha256(req->sha256())) {
            st = {grpc::StatusCode::INVALID_ARGUMENT,
                  "HasBundle.sha256 must be 64 lower-case hex digits"};
        } else {
            reply->set_present(m_bundles.has(req->sha256()));
            m_bundles.touch(req->sha256()); // asked for a launch: used now
        }
    }
    reactor->Finish(st);
    return reactor;
}

grpc::ServerReadReactor<v1::BundleChunk>* WorkerService::PutBundle(grpc::CallbackServerContext* ctx,
                                                                   v1::BundleStatus* reply) {
    return new BundleUpload(m_bundles, reply, m_auth.check(*ctx, "PutBundle"));
}

} // namespace tessera::daemon
