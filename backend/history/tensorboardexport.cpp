// History points → TFRecord-framed tb::Event records (worker/common/tfrecord.h), one file per
// rank, written whole or not at all.
#include "backend/history/tensorboardexport.h"

#include "tessera/tb/event.pb.h"
#include "worker/common/tfrecord.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QSaveFile>
#include <QSysInfo>

#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

std::string frame(const tb::Event& event) {
    return tfRecordFrame(event.SerializeAsString());
}

/// The file's records: file_version, then one scalar Event per value of each point.
std::string eventFile(const QList<MetricPoint>& points, double createdS, int* events) {
    tb::Event version;
    version.set_wall_time(createdS);
    version.set_file_version("brain.Event:2");
    std::string out = frame(version);
    *events = 0;
    for (const MetricPoint& p : points) {
        QStringList names = p.values.keys();
        names.sort(); // QHash has no order: the same history gives the same bytes
        for (const QString& name : names) {
            const double value = p.values.value(name);
            if (name == QLatin1String("step") || name == QLatin1String("rank") ||
                !std::isfinite(value)) {
                continue;
            }
            tb::Event e;
            e.set_wall_time(double(p.timeMs) / 1000.0);
            e.set_step(p.step);
            tb::Summary::Value* v = e.mutable_summary()->add_value();
            v->set_tag(name.toStdString());
            v->set_simple_value(float(value));
            out += frame(e);
            ++*events;
        }
    }
    return out;
}

Failure ioError(const QString& what) {
    return fail(ErrorCode::Io, what.toStdString());
}

} // namespace

Result<QList<TensorboardRun>> writeTensorboardRuns(const QString& dir, const QString& jobId,
                                                   const QList<MetricPoint>& points) {
    QMap<int, QList<MetricPoint>> byRank;
    for (const MetricPoint& p : points) {
        byRank[p.rank].append(p);
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString host = QSysInfo::machineHostName().isEmpty() ? QStringLiteral("localhost")
                                                               : QSysInfo::machineHostName();
    const QString name =
        QStringLiteral("events.out.tfevents.%1.%2.tessera").arg(now.toSecsSinceEpoch()).arg(host);
    struct Planned {
        int rank;
        QString folder;
        std::string bytes;
        int events;
    };
    QList<Planned> planned;
    for (auto it = byRank.cbegin(); it != byRank.cend(); ++it) {
        Planned p{it.key(),
                  byRank.size() == 1
                      ? QDir(dir).filePath(jobId)
                      : QDir(dir).filePath(jobId + QStringLiteral("/rank-%1").arg(it.key())),
                  {},
                  0};
        p.bytes = eventFile(it.value(), double(now.toMSecsSinceEpoch()) / 1000.0, &p.events);
        if (p.events > 0) {
            planned.append(std::move(p));
        }
    }
    if (planned.isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    "job " + jobId.toStdString() +
                        " has no metric values in the history: there is nothing to export");
    }
    QList<TensorboardRun> written;
    for (const Planned& p : planned) {
        if (!QDir().mkpath(p.folder)) {
            return ioError(QStringLiteral("cannot create the folder %1: choose a folder you can "
                                          "write, or create it first")
                               .arg(p.folder));
        }
        const QString path = QDir(p.folder).filePath(name);
        QSaveFile file(path);
        file.setDirectWriteFallback(false);
        if (!file.open(QIODevice::WriteOnly)) {
            return ioError(QStringLiteral("cannot write in %1 (%2): choose a folder you can write")
                               .arg(p.folder, file.errorString()));
        }
        const qint64 n = file.write(p.bytes.data(), qint64(p.bytes.size()));
        if (n != qint64(p.bytes.size()) || !file.commit()) {
            const QString why = file.errorString();
            file.cancelWriting();
            return ioError(QStringLiteral("cannot write %1 (%2): nothing of it was kept; free "
                                          "space there (a full disk?) or choose another folder")
                               .arg(path, why));
        }
        // The files of an earlier export of this job: the new one holds all they held.
        const QStringList earlier = QDir(p.folder).entryList(
            {QStringLiteral("events.out.tfevents.*.tessera")}, QDir::Files);
        for (const QString& old : earlier) {
            if (old != name) {
                QFile::remove(QDir(p.folder).filePath(old));
            }
        }
        written.append({path, p.rank, p.events});
    }
    return written;
}

} // namespace tessera
