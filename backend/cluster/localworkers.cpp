// Local worker daemons as QProcesses on loopback (see localworkers.h).
#include "backend/cluster/localworkers.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/core/paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace tessera {

namespace {

QString randomToken() {
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(bytes.toHex());
}

/// Last `lines` lines of a worker's log, for error messages.
QString logTail(const QString& path, int lines = 6) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return QString();
    }
    const QStringList all = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    return all.mid(std::max<qsizetype>(0, all.size() - lines)).join(QStringLiteral(" | "));
}

} // namespace

LocalWorkers::LocalWorkers(ClusterRegistry* registry, QObject* parent)
    : QObject(parent), m_registry(registry) {}

LocalWorkers::~LocalWorkers() {
    for (Worker& w : m_workers) {
        w.process->disconnect(this);
        w.process->terminate();
    }
    for (Worker& w : m_workers) {
        if (!w.process->waitForFinished(3000)) {
            w.process->kill();
            w.process->waitForFinished(1000);
        }
    }
}

QString LocalWorkers::workerFolder(const QString& name) {
    return QDir(dataDir()).filePath(QStringLiteral("local-cluster/") + name);
}

QStringList LocalWorkers::names() const {
    QStringList out;
    for (const Worker& w : m_workers) {
        out.append(w.name);
    }
    return out;
}

qint64 LocalWorkers::processId(const QString& name) const {
    for (const Worker& w : m_workers) {
        if (w.name == name) {
            return w.process->processId();
        }
    }
    return 0;
}

namespace {

/// Whether a tessera-worker of another process holds the work folder of local worker folder
/// `folder` (its flock on work/worker.lock, worker/daemon/work_dir_lock.h): the app and a
/// `tessera-ctl run --local` on one data folder each start their own local workers.
bool heldElsewhere(const QString& folder) {
    const QByteArray lock =
        QFile::encodeName(QDir(folder).filePath(QStringLiteral("work/worker.lock")));
    const int fd = ::open(lock.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return false;
    }
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    ::close(fd);
    return held;
}

} // namespace

QString LocalWorkers::nextFreeName() const {
    for (int i = 1;; ++i) {
        const QString name = QStringLiteral("local-%1").arg(i);
        const bool used = m_registry->node(name).has_value() ||
                          std::any_of(m_workers.begin(), m_workers.end(),
                                      [&](const Worker& w) { return w.name == name; }) ||
                          heldElsewhere(workerFolder(name));
        if (!used) {
            return name;
        }
    }
}

void LocalWorkers::start(int workers, int slotsPerWorker) {
    const int rentId = m_nextRentId++;
    if (workers < 1 || slotsPerWorker < 1) {
        QTimer::singleShot(0, this, [this, workers, slotsPerWorker] {
            Q_EMIT startFailed(tr("cannot rent %1 local workers with %2 slots each: ask for at "
                                  "least one worker with one slot")
                                   .arg(workers)
                                   .arg(slotsPerWorker));
        });
        return;
    }
    const QString program = binPath(QStringLiteral("tessera-worker"));
    if (!QFileInfo(program).isExecutable()) {
        QTimer::singleShot(0, this, [this, program] {
            Q_EMIT startFailed(
                tr("%1 is missing: build the tessera-worker target, or set TESSERA_BIN_DIR to "
                   "the folder holding it")
                    .arg(program));
        });
        return;
    }
    Rent rent;
    rent.id = rentId;
    rent.timer = new QTimer(this);
    rent.timer->setSingleShot(true);
    connect(rent.timer, &QTimer::timeout, this, [this, rentId] {
        failRent(rentId, tr("local workers did not report their address within %1 s; see "
                            "worker.log in %2")
                             .arg(m_startTimeoutMs / 1000)
                             .arg(QDir(dataDir()).filePath(QStringLiteral("local-cluster"))));
    });
    for (int i = 0; i < workers; ++i) {
        Worker w;
        w.name = nextFreeName();
        w.token = randomToken();
        w.rentId = rentId;
        w.slots = slotsPerWorker;
        const QString folder = workerFolder(w.name);
        QDir().mkpath(folder + QStringLiteral("/work"));
        const QString tokenFile = folder + QStringLiteral("/token");
        QFile f(tokenFile);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
            f.write(w.token.toLatin1()) < 0) {
            const QString error =
                tr("cannot write the token file %1 (%2): check that the data folder is "
                   "writable or set TESSERA_DATA_DIR")
                    .arg(tokenFile, f.errorString());
            m_rents.append(rent);
            QTimer::singleShot(0, this, [this, rentId, error] { failRent(rentId, error); });
            return;
        }
        f.close();
        w.process = new QProcess(this);
        w.process->setProgram(program);
        QStringList args = {QStringLiteral("--listen"),     QStringLiteral("127.0.0.1:0"),
                            QStringLiteral("--token-file"), tokenFile,
                            QStringLiteral("--work-dir"),   folder + QStringLiteral("/work"),
                            QStringLiteral("--slots"),      QString::number(slotsPerWorker),
                            QStringLiteral("--name"),       w.name};
        if (::geteuid() == 0) {
            // This process runs as root already: its own workers would refuse without the flag.
            args << QStringLiteral("--allow-root");
        }
        w.process->setArguments(args);
#ifdef Q_OS_LINUX
        // Last line against orphans: if this process dies without releasing (SIGKILL, crash),
        // the kernel sends SIGTERM to the daemon, which stops its jobs and records them failed.
        const pid_t parentPid = getpid();
        w.process->setChildProcessModifier([parentPid] {
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() != parentPid) {
                ::raise(SIGTERM); // the parent died before prctl took effect
            }
        });
#endif
        w.process->setStandardErrorFile(folder + QStringLiteral("/worker.log"), QIODevice::Append);
        QProcess* p = w.process;
        connect(p, &QProcess::readyReadStandardOutput, this, [this, p] { onStdout(p); });
        connect(p, &QProcess::finished, this, [this, p] { onFinished(p); });
        connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) {
                onFinished(p);
            }
        });
        rent.names.append(w.name);
        m_workers.append(w);
        qCInfo(lcProvider) << "starting local worker" << w.name << "with" << slotsPerWorker
                           << "slots";
        p->start();
    }
    rent.timer->start(m_startTimeoutMs);
    m_rents.append(rent);
}

LocalWorkers::Worker* LocalWorkers::find(QProcess* process) {
    for (Worker& w : m_workers) {
        if (w.process == process) {
            return &w;
        }
    }
    return nullptr;
}

void LocalWorkers::onStdout(QProcess* process) {
    static const QRegularExpression re(QStringLiteral("listening on (\\S+)"));
    while (process->canReadLine()) {
        const QString line = QString::fromUtf8(process->readLine()).trimmed();
        Worker* w = find(process);
        if (!w || !w->address.isEmpty()) {
            continue;
        }
        const QRegularExpressionMatch m = re.match(line);
        if (!m.hasMatch()) {
            continue;
        }
        w->address = m.captured(1);
        qCInfo(lcProvider) << "local worker" << w->name << "listens on" << w->address;
        checkRentDone(w->rentId);
    }
}

void LocalWorkers::checkRentDone(int rentId) {
    for (Rent& r : m_rents) {
        if (r.id != rentId || r.failed) {
            continue;
        }
        for (const Worker& w : m_workers) {
            if (w.rentId == rentId && w.address.isEmpty()) {
                return; // still waiting for one
            }
        }
        r.timer->stop();
        r.timer->deleteLater();
        const QStringList names = r.names;
        m_rents.removeIf([rentId](const Rent& x) { return x.id == rentId; });
        for (const Worker& w : m_workers) {
            if (w.rentId == rentId) {
                WorkerNode node;
                node.name = w.name;
                node.address = w.address;
                node.token = w.token;
                node.provider = QStringLiteral("local");
                node.slots = w.slots;
                m_registry->addNode(node);
            }
        }
        Q_EMIT started(names);
        return;
    }
}

void LocalWorkers::failRent(int rentId, const QString& error) {
    for (Rent& r : m_rents) {
        if (r.id != rentId || r.failed) {
            continue;
        }
        r.failed = true;
        r.timer->stop();
        r.timer->deleteLater();
        qCWarning(lcProvider) << "rent failed:" << error;
        for (const Worker& w : m_workers) {
            if (w.rentId == rentId && w.process->state() != QProcess::NotRunning) {
                w.process->kill();
            }
        }
        m_rents.removeIf([rentId](const Rent& x) { return x.id == rentId; });
        Q_EMIT startFailed(error);
        return;
    }
}

void LocalWorkers::onFinished(QProcess* process) {
    Worker* w = find(process);
    if (!w) {
        return;
    }
    const QString name = w->name;
    const int rentId = w->rentId;
    const bool wasServing = !w->address.isEmpty();
    const QString log = workerFolder(name) + QStringLiteral("/worker.log");
    QString why;
    if (process->error() == QProcess::FailedToStart) {
        why = process->errorString();
    } else if (process->exitStatus() == QProcess::CrashExit) {
        // On a crash QProcess::exitCode() is the signal number, not an exit code.
        why = tr("killed by signal %1").arg(process->exitCode());
    } else {
        why = tr("exit code %1").arg(process->exitCode());
    }
    m_workers.removeIf([process](const Worker& x) { return x.process == process; });
    process->deleteLater();
    if (m_releasing) {
        m_registry->removeNode(name);
        checkReleased();
        return;
    }
    if (m_stopping.removeAll(name) > 0) {
        m_registry->removeNode(name);
        Q_EMIT workerStopped(name);
        return;
    }
    if (wasServing) {
        qCWarning(lcProvider).noquote() << "local worker" << name << "ended (" + why + ")";
        m_registry->setNodeState(name, NodeState::Stopped,
                                 tr("the local worker process ended (%1); see %2").arg(why, log));
        Q_EMIT workerDied(name, why);
    }
    failRent(rentId, tr("local worker %1 ended before it served (%2): %3 (log: %4)")
                         .arg(name, why, logTail(log), log));
}

bool LocalWorkers::stopWorker(const QString& name) {
    for (Worker& w : m_workers) {
        if (w.name != name || m_stopping.contains(name)) {
            continue;
        }
        qCInfo(lcProvider) << "stopping local worker" << name;
        m_stopping.append(name);
        m_registry->setNodeState(name, NodeState::Stopped);
        stopProcess(w.process);
        return true;
    }
    return false;
}

void LocalWorkers::stopProcess(QProcess* process) {
    process->terminate();
    QPointer<QProcess> p(process);
    QTimer::singleShot(3000, this, [p] {
        if (p && p->state() != QProcess::NotRunning) {
            p->kill();
        }
    });
}

void LocalWorkers::stopAll() {
    m_releasing = true;
    for (Rent& r : m_rents) {
        r.failed = true;
        r.timer->stop();
        r.timer->deleteLater();
    }
    m_rents.clear();
    for (Worker& w : m_workers) {
        qCInfo(lcProvider) << "stopping local worker" << w.name;
        m_registry->setNodeState(w.name, NodeState::Stopped);
        stopProcess(w.process);
    }
    m_stopping.clear();
    checkReleased();
}

void LocalWorkers::checkReleased() {
    if (m_releasing && m_workers.isEmpty()) {
        m_releasing = false;
        QTimer::singleShot(0, this, [this] { Q_EMIT stopped(); });
    }
}

} // namespace tessera
