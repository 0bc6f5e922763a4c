// gRPC client of one tessera-worker: one channel, the bearer token on every call, deadlines on
// unary calls. Calls here BLOCK: run them off the GUI thread (ClusterRegistry/JobController do).
#pragma once

#include "backend/tls/certificate_authority.h"
#include "tessera/v1/worker.grpc.pb.h"
#include "worker/common/error.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>

namespace grpc {
class Channel;
class ClientContext;
class Status;
} // namespace grpc

namespace tessera {

/// Thread-safe client of one worker's WorkerService (gRPC stubs are thread-safe).
class WorkerClient {
public:
    /// `address` is "host:port", or "unix:<socket>" (an SSH tunnel, sshtunnels.h); `token` is
    /// sent as `authorization: Bearer <token>` on every call. With `tls` the channel is mutual
    /// TLS: the worker must present a certificate from tls->caPem whose subjectAltName names the
    /// host of `address` ("localhost" through a tunnel), and this side presents tls->certPem.
    /// Without, plaintext (a worker on loopback, or one started with --insecure).
    WorkerClient(const QString& address, const QString& token,
                 std::shared_ptr<const tls::Identity> tls = nullptr);

    QString address() const { return m_address; }

    /// GetInfo with a deadline of `timeoutMs` milliseconds. Blocking.
    /// Errors: Unavailable (worker does not answer), PermissionDenied (token refused), Internal.
    Result<v1::WorkerInfo> getInfo(int timeoutMs = 3000) const;

    /// LaunchJob on this (the rank-0) worker, deadline `timeoutMs`. Blocking.
    /// Errors: InvalidArgument (spec or peers refused), Unavailable, PermissionDenied, Internal.
    Result<v1::LaunchJobReply> launchJob(const v1::LaunchJobRequest& request,
                                         int timeoutMs = 30000) const;

    /// HasBundle: whether this worker holds code bundle `sha256`. Blocking.
    /// Errors: as getInfo(), InvalidArgument for a malformed hash.
    Result<bool> hasBundle(const QString& sha256, int timeoutMs = 10000) const;

    /// PutBundle: streams the tar file `path` (`bytes` long, SHA-256 `sha256`) in 1 MiB chunks.
    /// Returns the bytes sent. Blocking; the deadline grows with the size (10 s + 1 s per MiB).
    /// Errors: Io when the file cannot be read, InvalidArgument when the worker refuses it
    /// (damaged, too large), Unavailable, PermissionDenied.
    Result<quint64> putBundle(const QString& path, const QString& sha256, quint64 bytes) const;

    /// CancelJob: TERM, then KILL after `graceSeconds`. Returns the job's state after it. Blocking.
    Result<v1::JobState> cancelJob(const QString& jobId, double graceSeconds = 5.0,
                                   int timeoutMs = 30000) const;

    /// Opens a WatchJob stream from `fromSeq` using `context` (the caller owns it and may call
    /// context->TryCancel() from another thread to break the stream). The token is added here.
    std::unique_ptr<grpc::ClientReader<v1::JobEvent>>
    watchJob(grpc::ClientContext* context, const QString& jobId, quint64 fromSeq) const;

    /// Opens a WatchTelemetry stream (samples about `intervalMs` apart, 0 = the worker's default
    /// of 1000 ms; from `fromSeq`, 0 = the newest sample on) using `context`, as watchJob.
    std::unique_ptr<grpc::ClientReader<v1::TelemetrySample>>
    watchTelemetry(grpc::ClientContext* context, quint32 intervalMs, quint64 fromSeq) const;

    /// Adds `authorization: Bearer <token>` to `context`.
    void authorize(grpc::ClientContext* context) const;

    /// The stub, for calls not wrapped here (e.g. Exec in tests).
    v1::WorkerService::Stub* stub() const { return m_stub.get(); }

    /// Maps a gRPC status onto tessera::Error with a message naming this worker and what to do.
    Error toError(const grpc::Status& status, const char* call) const;

private:
    /// When `detail` (a gRPC error message) shows the TLS handshake failed, or a TLS worker
    /// dropped this plaintext client, what went wrong and what to do; else nullopt.
    std::optional<std::string> handshakeFailure(const QString& detail) const;

    QString m_address;
    std::string m_token;
    std::shared_ptr<const tls::Identity> m_tls;
    std::shared_ptr<grpc::Channel> m_channel;
    std::unique_ptr<v1::WorkerService::Stub> m_stub;
};

} // namespace tessera
