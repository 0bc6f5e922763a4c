// One Exec call: the reactor that starts an allow-listed program and streams its stdio both ways.
// Ending or cancelling the call kills the program's process group.
#pragma once

#include "tessera/v1/worker.grpc.pb.h"
#include "worker/daemon/jobs/process.h"
#include "worker/daemon/security/allow_list.h"

#include <grpcpp/support/server_callback.h>

#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace tessera::daemon {

/// Bidi reactor of WorkerService.Exec. Deletes itself in OnDone.
class ExecSession : public grpc::ServerBidiReactor<v1::ExecInput, v1::ExecOutput> {
public:
    /// `refusal` non-OK finishes the call at once (e.g. UNAUTHENTICATED). `allow` and `workDir`
    /// (the default working directory) must outlive the session.
    ExecSession(const AllowList& allow, const std::string& workDir, grpc::Status refusal);

    void OnReadDone(bool ok) override;
    void OnWriteDone(bool ok) override;
    void OnCancel() override;
    void OnDone() override;

private:
    // State shared with the process's threads, which may outlive this reactor.
    struct Shared {
        std::mutex mutex;
        ExecSession* reactor = nullptr;   // null after OnDone
        std::deque<v1::ExecOutput> queue; // front() is being written while `writing`
        bool writing = false;
        bool finished = false;
        bool exited = false;
    };

    void handleStart(const v1::ExecStart& start);
    void push(v1::ExecOutput out);
    // Starts the next write or finishes; call with shared->mutex held.
    void pumpLocked();
    void finishLocked(const grpc::Status& status);

    const AllowList& m_allow;
    const std::string& m_workDir;
    std::shared_ptr<Shared> m_shared;
    std::shared_ptr<Process> m_process; // set once, on the reactor's read path
    std::mutex m_processMutex;
    v1::ExecInput m_in;
    std::string m_program;
};

} // namespace tessera::daemon
