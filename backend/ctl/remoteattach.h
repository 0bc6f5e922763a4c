// `tessera-ctl run SPEC`, `attach JOB` and `cancel JOB` through the backend that owns the data
// folder (the app window or `tessera-ctl serve`), which follows the job: no --workers needed, and
// never a second follower beside it.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/ctl/progressprinter.h"
#include "backend/service/datafolderlock.h"
#include "backend/tls/certificate_authority.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <thread>

namespace grpc {
class ClientContext;
class Status;
} // namespace grpc

namespace tessera::backend::v1 {
class JobUpdate;
}

namespace tessera {
class BackendClient;
}

namespace tessera::ctl {

/// Follows one job over the owner's WatchJob stream and prints it as a local attach does
/// (progress, relaunches, summary). Cancel asks CancelJob once the stream is open and waits for
/// the Cancelled state. Run submits the spec file first (SubmitJob: placed on the owner's
/// workers, or queued while its autoscaler rents them) and follows the job (--detach: exits 0
/// once it is submitted to workers, after the rent of a queued one); interrupted, it cancels the
/// job as a local run does. When the owner goes away (closed, or handed the folder over) the stream
/// is picked up again from the folder's next owner within 30 s. Exit codes as AttachCommand and
/// RunCommand: 0 succeeded (cancel: cancelled) or attach interrupted, 1 ended otherwise, 2 bad spec
/// or unknown/finished job or refused submit, 3 nobody follows it any more. start() returns at
/// once; finished() follows exactly once.
class RemoteAttach : public QObject {
    Q_OBJECT
public:
    enum class Mode { Attach, Cancel, Run };

    /// `identity`: for a tessera-server reached over TCP (owner.endpoint HOST:PORT), the person's
    /// client certificate; null for the data folder's own backend on its Unix socket.
    RemoteAttach(const CtlOptions& options, Mode mode, FolderOwner owner,
                 std::shared_ptr<const tls::Identity> identity = nullptr,
                 QObject* parent = nullptr);
    ~RemoteAttach() override;

    void start();
    /// Ctrl-C: attach/cancel stop following (the job goes on), exit 0; run cancels the job and
    /// waits for its end (a second one exits 1 at once).
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void submit();
    /// --detach: prints how to follow the job and exits 0.
    void detached();
    void watch();
    void stopReading();
    void onUpdate(const tessera::backend::v1::JobUpdate& update);
    void onEnded(int code, const QString& message);
    void lookForOwner();
    void finish(int code, const QString& message = QString());

    CtlOptions m_options;
    Mode m_mode;
    QString m_jobId; ///< the job (a run's queued ticket until the autoscaler submits it)
    FolderOwner m_owner;
    std::shared_ptr<const tls::Identity> m_identity; ///< set: a server elsewhere, over TLS
    quint64 m_lastSeq = 0; ///< the newest point's seq seen (a reconnect backfills after it)
    std::unique_ptr<BackendClient> m_client;
    std::unique_ptr<grpc::ClientContext> m_context;
    std::thread m_reader;
    std::unique_ptr<ProgressPrinter> m_printer;
    QTimer m_search;
    qint64 m_searchUntilMs = 0;
    bool m_cancelSent = false;
    bool m_interrupted = false;
    bool m_announced = false; ///< the "following it through OWNER" line was printed
    bool m_finishing = false;
};

} // namespace tessera::ctl
