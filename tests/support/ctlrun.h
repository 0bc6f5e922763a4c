// Runs a tessera-ctl command to its end for an e2e test: exit code, stdout and stderr apart.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace tessera::test {

/// Runs `ctl ARGS` in `env` until it ends or `timeoutMs` pass (then killed: -1). Returns its exit
/// code (-1 when it crashed), with what it printed in *out and, when given, *err.
inline int runCtl(const QString& ctl, const QStringList& args, const QProcessEnvironment& env,
                  QByteArray* out, QByteArray* err = nullptr, int timeoutMs = 240000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(ctl, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    *out = p.readAllStandardOutput();
    if (err) {
        *err = p.readAllStandardError();
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace tessera::test
