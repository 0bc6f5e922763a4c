// Resume from a checkpoint (see checkpointresume.h).
#include "app/jobs/checkpointresume.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace tessera {

namespace {
/// The translation context of these messages (lupdate reads it from the macro).
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::CheckpointResume)
};
} // namespace

std::optional<CheckpointRef> latestCheckpoint(const QList<LogRecord>& lines) {
    std::optional<CheckpointRef> best;
    for (const LogRecord& line : lines) {
        if (auto c = checkpointFromLogLine(line.text); c && (!best || c->step >= best->step)) {
            best = c;
        }
    }
    return best;
}

ResumeSource resumeSource(const v1::JobSpec& launched, const QString& jobId,
                          const CheckpointRef& ckpt, const QString& gatherDir,
                          const std::function<QString(const QString& worker)>& localWorkDir) {
    ResumeSource out;
    const auto& slots = launched.placement().slots();
    const auto workDirOf = [&](int slot) {
        return slot < slots.size() && localWorkDir
                   ? localWorkDir(QString::fromStdString(slots[slot].worker()))
                   : QString();
    };
    const auto jobFolder = [&](int slot) {
        const QString dir = workDirOf(slot);
        return dir.isEmpty() ? dir : QDir(dir).filePath(QStringLiteral("jobs/") + jobId);
    };
    // tessera-train writes to checkpoint.dir, by default "checkpoints" in the ranks' working
    // folder: the job's folder on rank 0's worker, which mpirun's ranks on local workers share.
    QString folder = ckpt.path;
    if (QDir::isRelativePath(folder)) {
        const QString base = jobFolder(0);
        if (base.isEmpty()) {
            out.error =
                Text::tr("its checkpoint folder '%1' is inside the job's folder on worker %2, "
                         "which is not on this machine; resume it there with "
                         "checkpoint.resumeFrom, or run it with an absolute checkpoint.dir")
                    .arg(folder,
                         slots.empty() ? QString() : QString::fromStdString(slots[0].worker()));
            return out;
        }
        folder = QDir::cleanPath(QDir(base).filePath(folder));
    }
    if (workDirOf(0).isEmpty() && !QDir::isRelativePath(ckpt.path)) {
        out.resumeFrom = folder; // on rank 0's (remote) worker: the trainer checks the shards
        return out;
    }
    int world = 0;
    for (const auto& slot : slots) {
        world += slot.ranks();
    }
    const QString stepName = QFileInfo(folder).fileName();
    const auto shard = [](int rank) {
        return QStringLiteral("rank-%1.bin").arg(rank);
    };
    bool complete = QFileInfo::exists(QDir(folder).filePath(QStringLiteral("manifest.json")));
    for (int r = 0; complete && r < std::max(world, 1); ++r) {
        complete = QFileInfo::exists(QDir(folder).filePath(shard(r)));
    }
    if (complete) {
        out.resumeFrom = folder; // every shard in one folder: the usual case
        return out;
    }
    // Ranks on several local workers that each kept their shards in their own job folder:
    // gathered into one folder every local worker can read.
    const QString target = QDir(gatherDir).filePath(jobId + QLatin1Char('/') + stepName);
    out.copies.append({QDir(folder).filePath(QStringLiteral("manifest.json")),
                       QDir(target).filePath(QStringLiteral("manifest.json"))});
    int rank = 0;
    QStringList remote;
    for (int s = 0; s < slots.size(); ++s) {
        const QString from =
            s == 0 ? folder
                   : QDir(jobFolder(s)).filePath(QStringLiteral("checkpoints/") + stepName);
        if (s > 0 && workDirOf(s).isEmpty()) {
            remote << QString::fromStdString(slots[s].worker());
        }
        for (int r = 0; r < slots[s].ranks(); ++r, ++rank) {
            out.copies.append(
                {QDir(from).filePath(shard(rank)), QDir(target).filePath(shard(rank))});
        }
    }
    if (!remote.isEmpty()) {
        out.copies.clear();
        out.error =
            Text::tr("its checkpoint is split over the workers' own folders and %1 is not on "
                     "this machine; run the job with checkpoint.dir set to a folder every "
                     "worker shares to resume it")
                .arg(remote.join(QStringLiteral(", ")));
        return out;
    }
    out.resumeFrom = target;
    return out;
}

QString gatherCheckpoint(const ResumeSource& source) {
    for (const auto& [from, to] : source.copies) {
        const QFileInfo in(from);
        if (!in.isFile()) {
            return Text::tr("the checkpoint file '%1' is missing; was the worker's folder cleaned?")
                .arg(from);
        }
        if (QFileInfo(to).size() == in.size()) {
            continue; // gathered by an earlier Resume
        }
        if (!QDir().mkpath(QFileInfo(to).path())) {
            return Text::tr("cannot create the folder '%1'").arg(QFileInfo(to).path());
        }
        QFile::remove(to + QStringLiteral(".part"));
        QFile file(from);
        if (!file.copy(to + QStringLiteral(".part"))) {
            return Text::tr("cannot copy '%1' to '%2': %3").arg(from, to, file.errorString());
        }
        QFile::remove(to);
        if (!QFile::rename(to + QStringLiteral(".part"), to)) {
            return Text::tr("cannot rename '%1' to '%2'").arg(to + QStringLiteral(".part"), to);
        }
    }
    return QString();
}

v1::JobSpec resumedSpec(const v1::JobSpec& launched, const QString& jobId,
                        const QString& resumeFrom) {
    v1::JobSpec spec = launched;
    spec.clear_job_id();
    if (!launched.placement().as_drawn()) {
        spec.clear_placement(); // placed afresh; a drawn placement is kept as drawn
    }
    spec.mutable_checkpoint()->set_resume_from(resumeFrom.toStdString());
    // "… (resumed from job-20250101-120000-ab12)": a resumed resume names only its last origin.
    static const QRegularExpression earlier(
        QStringLiteral("\\s*\\([^()]*job-\\d{8}-\\d{6}-[0-9A-Za-z]+\\)$"));
    QString name = QString::fromStdString(launched.name());
    name.remove(earlier);
    if (name.isEmpty()) {
        name = jobId;
    }
    spec.set_name(Text::tr("%1 (resumed from %2)").arg(name, jobId).toStdString());
    return spec;
}

} // namespace tessera
