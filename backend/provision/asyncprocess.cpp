// Asynchronous program runs with a timeout (see asyncprocess.h).
#include "backend/provision/asyncprocess.h"

#include <QPointer>
#include <QProcess>
#include <QTimer>

#include <memory>

namespace tessera {

QProcess* runAsync(QObject* owner, const QString& program, const QStringList& arguments,
                   const QByteArray& input, int timeoutMs,
                   std::function<void(const ProcessResult&)> done, QProcess* stdoutOf) {
    auto* p = new QProcess(owner);
    auto* timer = new QTimer(p);
    auto result = std::make_shared<ProcessResult>();
    // Cleared when the owner starts dying: its children's QProcess destructors then emit
    // finished, and the callback must not reach a half-destroyed owner.
    const QPointer<QObject> alive(owner);
    auto finish = [p, timer, result, done, stdoutOf, alive]() mutable {
        if (!done || !alive) {
            return; // finished after errorOccurred, or the other way round; or owner dying
        }
        timer->stop();
        result->out += p->readAllStandardOutput();
        result->err += p->readAllStandardError();
        auto callback = std::move(done);
        done = nullptr;
        if (stdoutOf && stdoutOf->state() != QProcess::NotRunning) {
            stdoutOf->kill();
        }
        p->deleteLater();
        if (stdoutOf) {
            stdoutOf->deleteLater();
        }
        callback(*result);
    };
    auto finishShared = std::make_shared<decltype(finish)>(std::move(finish));
    QObject::connect(p, &QProcess::readyReadStandardOutput, p,
                     [p, result] { result->out += p->readAllStandardOutput(); });
    QObject::connect(p, &QProcess::readyReadStandardError, p,
                     [p, result] { result->err += p->readAllStandardError(); });
    QObject::connect(p, &QProcess::finished, p, [p, result, finishShared] {
        if (!result->timedOut) {
            result->exitCode = p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1;
        }
        (*finishShared)();
    });
    QObject::connect(p, &QProcess::errorOccurred, p,
                     [p, result, finishShared](QProcess::ProcessError e) {
                         if (e == QProcess::FailedToStart) {
                             result->startError = p->errorString();
                             (*finishShared)();
                         }
                     });
    QObject::connect(timer, &QTimer::timeout, p, [p, result] {
        result->timedOut = true;
        result->exitCode = -1;
        p->kill(); // finished follows
    });
    if (stdoutOf) {
        stdoutOf->setStandardOutputProcess(p);
        stdoutOf->start();
    }
    p->start(program, arguments);
    if (!input.isEmpty()) {
        p->write(input);
    }
    if (!stdoutOf) {
        p->closeWriteChannel();
    }
    timer->setSingleShot(true);
    timer->start(timeoutMs);
    return p;
}

} // namespace tessera
