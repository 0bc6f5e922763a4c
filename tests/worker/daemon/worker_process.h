// Test helper: a real tessera-worker started with QProcess on 127.0.0.1:0, its address parsed
// from the "listening on" line, and gRPC helpers to talk to it with the bearer token.
#pragma once

#include "tessera/v1/worker.grpc.pb.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <grpcpp/client_context.h>
#include <grpcpp/security/credentials.h>

#include <chrono>
#include <memory>
#include <vector>

/// One tessera-worker process for a test. Stops it (SIGTERM, then kill) on destruction.
class WorkerProcess {
public:
    /// `workDir` (created if missing) and `tokenFile` are passed as flags; `extraArgs` appended.
    WorkerProcess(QString workDir, QString tokenFile, QString name, QStringList extraArgs = {});
    ~WorkerProcess();

    /// The --listen value (default "127.0.0.1:0"); set before start().
    void setListen(const QString& listen) { m_listen = listen; }
    /// Starts the daemon and waits up to 15 s for its "listening on" line. Sets `error` on failure.
    bool start(QString* error);
    /// SIGTERM and wait (up to 10 s).
    void stop();
    /// SIGKILL and wait (a crash, as far as the daemon can tell).
    void kill();
    /// HOST:PORT from the "listening on" line.
    QString address() const { return m_address; }
    QString name() const { return m_name; }
    /// Process id of the running daemon (0 when not running).
    qint64 pid() const { return m_proc ? m_proc->processId() : 0; }
    /// Everything the daemon wrote on stderr so far (its log, kept in <workDir>.log).
    QByteArray log();
    /// A stub on a fresh plaintext channel to this worker.
    std::unique_ptr<tessera::v1::WorkerService::Stub> stub() const;
    /// A stub on a fresh channel with `credentials` (mutual TLS, say) to `address()`.
    std::unique_ptr<tessera::v1::WorkerService::Stub>
    stub(const std::shared_ptr<grpc::ChannelCredentials>& credentials) const;

    /// Path of tessera-worker in the build tree (TESSERA_BUILD_DIR/bin).
    static QString binary();

private:
    QString m_workDir, m_tokenFile, m_name;
    QStringList m_extra;
    QString m_listen = QStringLiteral("127.0.0.1:0");
    QString m_address;
    QString m_logFile;
    std::unique_ptr<QProcess> m_proc;
};

/// Writes `token` (and a newline) to `path` for --token-file; false when the file cannot be
/// written.
bool writeTokenFile(const QString& path, const std::string& token);

/// Adds `authorization: Bearer <token>` and a deadline of `seconds` to `ctx`.
void authorize(grpc::ClientContext& ctx, const std::string& token, int seconds = 10);

/// Result of following a job with WatchJob until the stream ends.
struct WatchResult {
    std::vector<tessera::v1::JobEvent> events;
    grpc::Status status;
};

/// Reads WatchJob(jobId, fromSeq) until it ends or `seconds` pass (deadline exceeded then).
WatchResult watchJob(tessera::v1::WorkerService::Stub& stub, const std::string& token,
                     const std::string& jobId, uint64_t fromSeq, int seconds = 60);

/// LaunchJob(`request`) on `stub`, then watchJob() from seq 0 until the job ends or `seconds`
/// pass; a refused launch gives its status and no events.
WatchResult launchAndWatch(tessera::v1::WorkerService::Stub& stub, const std::string& token,
                           const tessera::v1::LaunchJobRequest& request, int seconds = 240);

/// The status message, each log line and each state's reason of `r`, one a line (for a
/// failing check's message).
QString describeWatch(const WatchResult& r);

/// What one Exec call gave back.
struct ExecResult {
    grpc::Status status;
    QByteArray stdoutData; ///< everything the program wrote on stdout
};

/// Runs `start` through Exec (authorized with `token`, deadline 30 s) with no stdin, and reads
/// until the call ends.
ExecResult execOnce(tessera::v1::WorkerService::Stub& stub, const std::string& token,
                    const tessera::v1::ExecStart& start);

/// A LaunchJobRequest for a model.command job `command`, with `workers` as peers in rank order.
tessera::v1::LaunchJobRequest commandJob(const std::string& jobId,
                                         const std::vector<std::string>& command,
                                         const std::vector<const WorkerProcess*>& workers,
                                         const std::string& token);

/// Pids of the processes whose command line (arguments joined by spaces) starts with `prefix`
/// and contains `part` (scans /proc).
std::vector<int> pidsWithCmdline(const QByteArray& prefix, const QByteArray& part = {});
