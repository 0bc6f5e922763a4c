// The data folder's own tessera-server, started on first use: the app's embedded default
// (issue 48). It runs as a process of its own, in a session of its own, so it keeps following
// its jobs when the window closes, and the next window connects to it again.
#pragma once

#include "backend/client/serveraddress.h"
#include "worker/common/error.h"

#include <QString>

namespace tessera::client {

/// Finds or starts the tessera-server of one data folder.
class LocalServer {
public:
    /// How long ensure() waits for a server it started to listen, by default (ms).
    static constexpr int kStartWaitMs = 20000;

    /// The folder's server on its Unix socket: the one running, else a new `tessera-server
    /// --data-dir folder` (binPath: TESSERA_BIN_DIR or beside this program), started with
    /// setsid(2) in a session of its own and its output appended to serverLogPath(folder); waits
    /// up to `waitMs` until it answers Describe. Blocks: call it off the GUI thread. Errors:
    /// AlreadyExists when another kind of backend holds the folder (`tessera-ctl serve`, a
    /// window of an earlier build), naming it; NotFound when tessera-server is missing, naming
    /// where it was looked for; Unavailable when the started server ended or did not answer in
    /// time, with the last lines of its log.
    static Result<ServerAddress> ensure(const QString& folder, int waitMs = kStartWaitMs);

    /// `<folder>/server.log`: what the servers started by ensure() printed.
    static QString serverLogPath(const QString& folder);

private:
    /// The folder's running server, if it answers.
    static std::optional<ServerAddress> running(const QString& folder);
    /// Forks twice, so that the server is nobody's child, and execs it in a new session; its pid.
    static Result<qint64> spawn(const QString& program, const QString& folder);
    /// The last `lines` lines of the folder's server log, indented, for an error message.
    static QString logTail(const QString& folder, int lines = 8);
};

} // namespace tessera::client
