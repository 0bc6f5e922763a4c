// Runs one program without blocking the calling thread and hands its whole output to a callback.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QProcess;

namespace tessera {

/// How a program run by runAsync ended.
struct ProcessResult {
    int exitCode = -1;     ///< exit code; -1 when it did not start, crashed or timed out
    bool timedOut = false; ///< killed after the timeout
    QString startError;    ///< why it did not start (missing program), else empty
    QByteArray out, err;   ///< everything it wrote
    bool ok() const { return exitCode == 0; }
};

/// Starts `program` with `arguments` (never through a shell), writes `input` to its stdin and
/// closes it, and calls `done` once in `owner`'s thread when it ends, fails to start or runs
/// past `timeoutMs` (then it is killed). Returns the process (owned by `owner`; deleted after
/// `done`). When `owner` is destroyed first, the process is killed and `done` is never called.
/// `stdoutOf`, when given, is started first and piped into it (e.g. tar | ssh).
QProcess* runAsync(QObject* owner, const QString& program, const QStringList& arguments,
                   const QByteArray& input, int timeoutMs,
                   std::function<void(const ProcessResult&)> done, QProcess* stdoutOf = nullptr);

} // namespace tessera
