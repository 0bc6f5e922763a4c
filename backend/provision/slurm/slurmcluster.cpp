// Slurm partition settings and asynchronous Slurm client calls (see slurmcluster.h).
#include "backend/provision/slurm/slurmcluster.h"

#include "backend/provision/settingsfile.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <QSet>

namespace tessera {

QString SlurmCluster::offerId() const {
    return name + QLatin1Char('/') + partition;
}

int SlurmCluster::slots() const {
    return gpusPerNode > 0 ? gpusPerNode : qMax(cpusPerNode, 0);
}

QJsonObject slurmClusterToJson(const SlurmCluster& c) {
    return QJsonObject{{QStringLiteral("name"), c.name},
                       {QStringLiteral("partition"), c.partition},
                       {QStringLiteral("nodes"), c.nodes},
                       {QStringLiteral("gpusPerNode"), c.gpusPerNode},
                       {QStringLiteral("gpuName"), c.gpuName},
                       {QStringLiteral("cpusPerNode"), c.cpusPerNode},
                       {QStringLiteral("timeLimitMinutes"), c.timeLimitMinutes},
                       {QStringLiteral("maxLeases"), c.maxLeases},
                       {QStringLiteral("pricePerNodeHour"), c.pricePerNodeHour},
                       {QStringLiteral("slurmConf"), c.slurmConf},
                       {QStringLiteral("remoteDir"), c.remoteDir},
                       {QStringLiteral("workerDir"), c.workerDir}};
}

SlurmCluster slurmClusterFromJson(const QJsonObject& o) {
    SlurmCluster c;
    c.name = o.value(QStringLiteral("name")).toString();
    c.partition = o.value(QStringLiteral("partition")).toString();
    c.nodes = o.value(QStringLiteral("nodes")).toInt(1);
    c.gpusPerNode = o.value(QStringLiteral("gpusPerNode")).toInt();
    c.gpuName = o.value(QStringLiteral("gpuName")).toString();
    c.cpusPerNode = o.value(QStringLiteral("cpusPerNode")).toInt();
    c.timeLimitMinutes = o.value(QStringLiteral("timeLimitMinutes")).toInt(60);
    c.maxLeases = o.value(QStringLiteral("maxLeases")).toInt(1);
    c.pricePerNodeHour = o.value(QStringLiteral("pricePerNodeHour")).toDouble();
    c.slurmConf = o.value(QStringLiteral("slurmConf")).toString();
    c.remoteDir = o.value(QStringLiteral("remoteDir")).toString();
    c.workerDir = o.value(QStringLiteral("workerDir")).toString();
    return c;
}

QProcess* runSlurm(QObject* owner, const SlurmCluster& cluster, const QString& program,
                   const QStringList& arguments, const QByteArray& input, int timeoutMs,
                   std::function<void(const ProcessResult&)> done) {
    if (cluster.slurmConf.isEmpty()) {
        return runAsync(owner, program, arguments, input, timeoutMs, std::move(done));
    }
    // env(1) sets the one variable for this command only; the app's environment stays as it is.
    return runAsync(owner, QStringLiteral("env"),
                    QStringList{QStringLiteral("SLURM_CONF=") + cluster.slurmConf, program} +
                        arguments,
                    input, timeoutMs, std::move(done));
}

QString explainSlurmFailure(const QString& program, const ProcessResult& r) {
    if (r.ok()) {
        return QString();
    }
    // env answers 127 when it cannot find the program.
    if (!r.startError.isEmpty() || r.exitCode == 127) {
        return QStringLiteral("cannot run %1 (%2): install the Debian package slurm-client and "
                              "check that %1 is on the PATH")
            .arg(program,
                 r.startError.isEmpty() ? QString::fromUtf8(r.err).trimmed() : r.startError);
    }
    if (r.timedOut) {
        return QStringLiteral("%1 did not answer in time: check that the Slurm controller "
                              "(slurmctld) runs and is reachable from here")
            .arg(program);
    }
    QStringList lines;
    for (const QString& line : QString::fromUtf8(r.err + r.out).split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty()) {
            lines << line.trimmed();
        }
    }
    const QString said = lines.isEmpty()
                             ? QStringLiteral("exit code %1").arg(r.exitCode)
                             : lines.mid(qMax(0, lines.size() - 3)).join(QLatin1Char(' '));
    if (said.contains(QLatin1String("Unable to contact slurm controller")) ||
        said.contains(QLatin1String("Connection refused"))) {
        return QStringLiteral("%1 cannot reach the Slurm controller (%2): check that slurmctld "
                              "runs and that SLURM_CONF names this cluster's slurm.conf")
            .arg(program, said);
    }
    return QStringLiteral("%1 failed: %2").arg(program, said);
}

bool slurmJobEnded(const QString& state) {
    static const QSet<QString> ended = {
        QStringLiteral("COMPLETED"), QStringLiteral("CANCELLED"),   QStringLiteral("FAILED"),
        QStringLiteral("TIMEOUT"),   QStringLiteral("NODE_FAIL"),   QStringLiteral("PREEMPTED"),
        QStringLiteral("BOOT_FAIL"), QStringLiteral("DEADLINE"),    QStringLiteral("OUT_OF_MEMORY"),
        QStringLiteral("REVOKED"),   QStringLiteral("SPECIAL_EXIT")};
    return ended.contains(state.trimmed().toUpper());
}

namespace {
const QString kSlurmWhat = QStringLiteral("Slurm clusters");

Result<QList<SlurmCluster>> clustersFromArray(const Result<QJsonArray>& list, const QString& path) {
    const QString& what = kSlurmWhat;
    if (!list) {
        return relay(list);
    }
    QList<SlurmCluster> out;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const SlurmCluster c = slurmClusterFromJson(list->at(i).toObject());
        if (c.name.isEmpty() || c.partition.isEmpty() || c.nodes < 1 ||
            !QDir::isAbsolutePath(c.remoteDir)) {
            return badSettings(path, what,
                               QStringLiteral("entry %1 needs a name, a partition, nodes >= 1 and "
                                              "an absolute remoteDir on the shared file system")
                                   .arg(i + 1));
        }
        out.append(c);
    }
    return out;
}

} // namespace

Result<QList<SlurmCluster>> loadSlurmClusters(const QString& path) {
    return clustersFromArray(readSettingsArray(path, QStringLiteral("clusters"), kSlurmWhat), path);
}

Result<QList<SlurmCluster>> parseSlurmClusters(const QByteArray& text, const QString& path) {
    return clustersFromArray(parseSettingsArray(text, path, QStringLiteral("clusters"), kSlurmWhat),
                             path);
}

} // namespace tessera
