// Local worker daemons: starts tessera-worker processes on 127.0.0.1, each with a fresh random
// token and work folder under dataDir()/local-cluster, and stops them. (LocalLeases offers them
// through the Provider interface.)
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

class QProcess;
class QTimer;

namespace tessera {

class ClusterRegistry;

/// Starts and stops local worker daemons and adds them to a ClusterRegistry (provider "local").
/// Never blocks the calling thread except in its destructor (bounded wait for the processes).
/// On Linux the daemons get SIGTERM when the thread that started them dies, even on SIGKILL.
class LocalWorkers : public QObject {
    Q_OBJECT
public:
    explicit LocalWorkers(ClusterRegistry* registry, QObject* parent = nullptr);
    /// Stops every worker it started (TERM, KILL after 3 s).
    ~LocalWorkers() override;

    /// Starts `workers` daemons with `slotsPerWorker` slots each, named "local-1", "local-2", ...
    /// (the next free names). Async: emits started(names) once each printed its
    /// `listening on` line and was added to the registry, or startFailed(error) (then the
    /// daemons of this start are stopped). Arguments < 1 fail with startFailed.
    void start(int workers, int slotsPerWorker);

    /// Stops every worker started here and removes them from the registry.
    /// Async: emits stopped() once all processes ended (at once if there are none).
    void stopAll();

    /// Stops the one worker `name` (TERM, KILL after 3 s) and removes it from the registry; emits
    /// workerStopped(name) once its process ended. Unknown names: false, nothing happens.
    bool stopWorker(const QString& name);

    /// Names of the running workers started here.
    QStringList names() const;

    /// Process id of the running worker `name`; 0 if there is none. For diagnostics and tests.
    qint64 processId(const QString& name) const;

    /// How long start() waits for a daemon's `listening on` line (default 20000 ms).
    void setStartTimeout(int ms) { m_startTimeoutMs = ms; }

    /// The folder of a local worker: token file, work dir and its log (worker.log).
    static QString workerFolder(const QString& name);

Q_SIGNALS:
    void started(QStringList names);
    void startFailed(QString error);
    void stopped();
    /// The worker stopped by stopWorker() ended and left the registry.
    void workerStopped(QString name);
    /// A worker that was serving ended on its own (not through stopAll()); `why` says how,
    /// e.g. "killed by signal 9" or "exit code 1". Jobs placed on it cannot go on.
    void workerDied(QString name, QString why);

private:
    struct Worker {
        QString name;
        QString token;
        QString address; ///< empty until its `listening on` line
        QProcess* process = nullptr;
        int rentId = 0;
        int slots = 1;
    };
    struct Rent {
        int id = 0;
        QStringList names;
        QTimer* timer = nullptr;
        bool failed = false;
    };
    void onStdout(QProcess* process);
    void onFinished(QProcess* process);
    void failRent(int rentId, const QString& error);
    void checkRentDone(int rentId);
    void checkReleased();
    void stopProcess(QProcess* process);
    Worker* find(QProcess* process);
    QString nextFreeName() const;

    ClusterRegistry* m_registry;
    QList<Worker> m_workers;
    QList<Rent> m_rents;
    int m_nextRentId = 1;
    int m_startTimeoutMs = 20000;
    bool m_releasing = false;
    QStringList m_stopping; ///< workers stopped one by one through stopWorker()
};

} // namespace tessera
