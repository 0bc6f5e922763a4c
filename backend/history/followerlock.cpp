// Follower locks and the sweep that ends unfollowed jobs' entries (see followerlock.h).
#include "backend/history/followerlock.h"

#include "backend/history/metricstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tessera {

namespace {

QString followersDir(const QString& dataDir) {
    return QDir(dataDir).filePath(QStringLiteral("followers"));
}

QString text(const char* s) {
    return QCoreApplication::translate("tessera::FollowerLock", s);
}

/// True when `path` exists and another live process holds its lock: a follower already follows.
bool heldElsewhere(const QString& path) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

} // namespace

FollowerLock::~FollowerLock() {
    release();
}

bool FollowerLock::acquire(const QString& dataDir, const QString& jobId, const QString& what,
                           bool localCluster) {
    release();
    const QString dir = followersDir(dataDir);
    if (!QDir().mkpath(dir)) {
        return false;
    }
    const QString final = QDir(dir).filePath(jobId + QStringLiteral(".json"));
    if (heldElsewhere(final)) {
        return false; // its lock stays theirs: replaced, it would vanish when this one ends
    }
    const QString temporary = final + QStringLiteral(".%1.tmp").arg(::getpid());
    const QByteArray tmp = QFile::encodeName(temporary);
    const int fd = ::open(tmp.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return false;
    }
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("job"), jobId},
                                  {QStringLiteral("what"), what},
                                  {QStringLiteral("pid"), qint64(::getpid())},
                                  {QStringLiteral("localCluster"), localCluster},
                                  {QStringLiteral("sinceMs"), QDateTime::currentMSecsSinceEpoch()}})
            .toJson(QJsonDocument::Compact);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 ||
        ::write(fd, body.constData(), size_t(body.size())) != body.size() ||
        ::rename(tmp.constData(), QFile::encodeName(final).constData()) != 0) {
        ::close(fd);
        ::unlink(tmp.constData());
        return false;
    }
    m_fd = fd;
    m_path = final;
    return true;
}

void FollowerLock::release() {
    if (m_fd >= 0) {
        ::unlink(QFile::encodeName(m_path).constData());
        ::close(m_fd);
        m_fd = -1;
    }
}

QList<FollowerLock::Vanished> FollowerLock::sweep(const QString& dataDir, MetricStore& store,
                                                  const QDateTime& now) {
    QList<Vanished> found;
    const QDir dir(followersDir(dataDir));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        const QByteArray path = QFile::encodeName(dir.filePath(name));
        const int fd = ::open(path.constData(), O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(fd); // held: its follower is alive
            continue;
        }
        QFile file;
        QByteArray body;
        if (file.open(fd, QIODevice::ReadOnly, QFileDevice::DontCloseHandle)) {
            body = file.readAll();
        }
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        Vanished v{o.value(QStringLiteral("job")).toString(),
                   o.value(QStringLiteral("what")).toString(),
                   qint64(o.value(QStringLiteral("pid")).toDouble()),
                   o.value(QStringLiteral("localCluster")).toBool(), QString()};
        const JobRecord job = v.jobId.isEmpty() ? JobRecord{} : store.job(v.jobId);
        if (!job.id.isEmpty() && !isTerminal(job.state)) {
            const QString when = now.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
            if (v.localCluster) {
                v.reason = text(QT_TRANSLATE_NOOP("tessera::FollowerLock",
                                                  "its launcher, %1 (pid %2), ended before the "
                                                  "job did (killed?), and its local cluster with "
                                                  "it; noticed at %3"))
                               .arg(v.what)
                               .arg(v.pid)
                               .arg(when);
                store.updateJobState(v.jobId, JobState::Failed, v.reason, now.toMSecsSinceEpoch());
            } else {
                v.reason = text(QT_TRANSLATE_NOOP("tessera::FollowerLock",
                                                  "not followed since its launcher, %1 (pid %2), "
                                                  "ended before the job did "
                                                  "(noticed at %3); it may still run on its "
                                                  "workers: tessera-ctl attach %4 "
                                                  "--workers A,B --token-file F follows it again"))
                               .arg(v.what)
                               .arg(v.pid)
                               .arg(when, v.jobId);
                store.markUnfollowed(v.jobId, v.reason, now.toMSecsSinceEpoch());
            }
            found << v;
        }
        ::unlink(path.constData());
        ::close(fd);
    }
    return found;
}

} // namespace tessera
