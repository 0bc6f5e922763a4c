// The SSH check's script and findings, and SSH offers (see sshmachine.h).
#include "backend/provision/ssh/sshmachine.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace tessera {

QString sshCheckScript() {
    return QStringLiteral(
        "echo os=$(uname -s); echo arch=$(uname -m); echo cores=$(nproc); "
        "echo mem_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo); "
        "command -v orted >/dev/null 2>&1 && echo mpi=$(mpirun --version 2>/dev/null | head -n 1); "
        "command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total "
        "--format=csv,noheader,nounits 2>/dev/null | sed 's/^/gpu=/'; "
        "command -v nvidia-smi >/dev/null 2>&1 && echo driver=$(nvidia-smi "
        "--query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1) && "
        "echo driver_cuda=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: "
        "*\\([0-9.]*\\).*/\\1/p' "
        "| head -n 1); "
        "command -v nvcc >/dev/null 2>&1 && echo cuda=$(nvcc --version | tail -n 1); true");
}

QString keyValue(const QString& out, const QString& key) {
    const QRegularExpression re(QStringLiteral("^%1=(.*)$").arg(QRegularExpression::escape(key)),
                                QRegularExpression::MultilineOption);
    const auto m = re.match(out);
    return m.hasMatch() ? m.captured(1).trimmed() : QString();
}

void parseNvidiaSmi(const QString& csv, SshMachine* m) {
    for (const QString& line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        // The name may hold commas of its own: the memory is after the last one.
        const qsizetype comma = line.lastIndexOf(QLatin1Char(','));
        bool ok = false;
        const double mib = comma > 0 ? line.mid(comma + 1).trimmed().toDouble(&ok) : 0;
        const QString name = line.left(comma).trimmed();
        if (!ok || mib <= 0 || name.isEmpty()) {
            continue;
        }
        const auto bytes = quint64(mib * 1024 * 1024);
        if (m->gpus == 0) {
            m->gpuName = name;
            m->gpuMemoryBytes = bytes;
        }
        m->gpuMemoryBytes = std::min(m->gpuMemoryBytes, bytes);
        ++m->gpus;
    }
}

SshMachine parseSshCheck(const QString& out) {
    SshMachine m;
    m.os = keyValue(out, QStringLiteral("os"));
    m.arch = keyValue(out, QStringLiteral("arch"));
    m.mpi = keyValue(out, QStringLiteral("mpi"));
    m.cores = keyValue(out, QStringLiteral("cores")).toInt();
    m.memoryBytes = keyValue(out, QStringLiteral("mem_kb")).toULongLong() * 1024;
    QStringList gpuLines;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("gpu="))) {
            gpuLines << line.mid(4);
        }
    }
    parseNvidiaSmi(gpuLines.join(QLatin1Char('\n')), &m);
    m.driver = keyValue(out, QStringLiteral("driver")).left(32);
    m.driverCuda = keyValue(out, QStringLiteral("driver_cuda")).left(16);
    return m;
}

QString cudaDriverTooOld(const SshMachine& m, const QString& bundleCuda, const QString& where) {
    const auto version = [](const QString& v) {
        const QStringList parts = v.split(QLatin1Char('.'));
        bool okMajor = false, okMinor = true;
        const int major = parts.value(0).toInt(&okMajor);
        const int minor = parts.size() > 1 ? parts.value(1).toInt(&okMinor) : 0;
        return okMajor && okMinor ? major * 1000 + minor : -1;
    };
    const int have = version(m.driverCuda), need = version(bundleCuda);
    if (m.gpus == 0 || have < 0 || need < 0 || have >= need) {
        return QString();
    }
    return QStringLiteral("%1: its NVIDIA driver %2 runs CUDA up to %3, and this build's GPU "
                          "worker needs CUDA %4: update the driver there, or choose an image "
                          "with a newer one")
        .arg(where, m.driver.isEmpty() ? QStringLiteral("(version unknown)") : m.driver,
             m.driverCuda, bundleCuda);
}

bool learnMachine(SshHost* h, const SshMachine& m) {
    const double gib = std::round(double(m.gpuMemoryBytes) / double(1ULL << 30) * 100) / 100;
    const bool changed = h->gpus != m.gpus || h->gpuName != m.gpuName || h->gpuMemoryGiB != gib ||
                         (m.cores > 0 && h->cores != m.cores);
    h->gpus = m.gpus;
    h->gpuName = m.gpuName;
    h->gpuMemoryGiB = gib;
    if (m.cores > 0) {
        h->cores = m.cores;
    }
    return changed;
}

Offer sshOffer(const SshHost& h) {
    Offer o;
    o.provider = QStringLiteral("ssh");
    o.id = h.offerId();
    o.name = h.nodeName();
    o.deviceKind = h.gpus <= 0           ? QStringLiteral("cpu")
                   : h.gpuName.isEmpty() ? QStringLiteral("gpu")
                                         : h.gpuName;
    o.devicesPerNode = std::max(h.gpus, 0);
    o.deviceMemoryBytes = h.gpus > 0 ? quint64(h.gpuMemoryGiB * double(1ULL << 30)) : 0;
    o.slotsPerNode = h.slots > 0 ? h.slots : h.gpus > 0 ? h.gpus : std::max(h.cores, 1);
    o.pricePerHour = h.pricePerHour;
    o.where = h.host;
    return o;
}

} // namespace tessera
