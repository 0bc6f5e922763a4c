// Slows one real rank of a running job on purpose, as a busy or throttled machine would: its
// process is stopped (SIGSTOP) for part of every period and continued (SIGCONT) for the rest.
#pragma once

#include <QDir>
#include <QFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <csignal>
#include <sys/types.h>

namespace tessera::test {

/// Duty-cycles one process. Destroying it (or stop()) leaves the process running.
class RankThrottle : public QObject {
public:
    /// The pid of rank `rank` of job `jobId`: a tessera-train process whose command line names
    /// the job (its spec lies in the job's folder) and whose environment has
    /// OMPI_COMM_WORLD_RANK=`rank`. -1 when there is none (yet).
    static qint64 findRank(const QString& jobId, int rank) {
        const QByteArray wantedRank = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
        const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
        for (const QString& pid : pids) {
            bool numeric = false;
            const qint64 value = pid.toLongLong(&numeric);
            if (!numeric) {
                continue;
            }
            const QByteArray cmdline = readProc(pid, "cmdline");
            if (!cmdline.contains("tessera-train") || !cmdline.contains(jobId.toUtf8())) {
                continue;
            }
            if (readProc(pid, "environ").split('\0').contains(wantedRank)) {
                return value;
            }
        }
        return -1;
    }

    /// Every `periodMs` ms, stops `pid` for `stoppedMs` of them (runs on this thread's event loop).
    RankThrottle(qint64 pid, int stoppedMs, int periodMs) : m_pid(pid), m_stoppedMs(stoppedMs) {
        m_period.setInterval(periodMs);
        m_period.setTimerType(Qt::PreciseTimer);
        connect(&m_period, &QTimer::timeout, this, [this] {
            ::kill(pid_t(m_pid), SIGSTOP);
            QTimer::singleShot(m_stoppedMs, Qt::PreciseTimer, this,
                               [this] { ::kill(pid_t(m_pid), SIGCONT); });
        });
        m_period.start();
    }
    ~RankThrottle() override { stop(); }

    /// Ends the throttling and continues the process.
    void stop() {
        m_period.stop();
        ::kill(pid_t(m_pid), SIGCONT);
    }

private:
    static QByteArray readProc(const QString& pid, const char* file) {
        QFile f(QStringLiteral("/proc/%1/%2").arg(pid, QLatin1String(file)));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    qint64 m_pid;
    int m_stoppedMs;
    QTimer m_period;
};

} // namespace tessera::test
