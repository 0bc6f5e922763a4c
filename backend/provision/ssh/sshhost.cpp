// SSH host settings, ssh command lines and the hosts file (see sshhost.h).
#include "backend/provision/ssh/sshhost.h"

#include "backend/provision/settingsfile.h"
#include "backend/provision/ssh/sshconnection.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <type_traits>

namespace tessera {

QString SshHost::nodeName() const {
    return name.isEmpty() ? QStringLiteral("ssh-") + host : name;
}

QString SshHost::baseDir() const {
    return remoteDir.isEmpty() ? QStringLiteral(".cache/tessera") : remoteDir;
}

QString SshHost::offerId() const {
    return (user.isEmpty() ? QString() : user + QLatin1Char('@')) + host + QLatin1Char(':') +
           QString::number(port);
}

namespace {

/// The options every ssh call and tunnel shares; ServerAliveInterval `aliveS` s.
QStringList commonOptions(const SshHost& h, int aliveS) {
    QStringList a = {QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                     QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"),
                     QStringLiteral("-o"), QStringLiteral("ConnectTimeout=10"),
                     QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=%1").arg(aliveS),
                     QStringLiteral("-o"), QStringLiteral("ServerAliveCountMax=3"),
                     QStringLiteral("-p"), QString::number(h.port)};
    if (!h.knownHostsFile.isEmpty()) {
        a << QStringLiteral("-o") << QStringLiteral("UserKnownHostsFile=") + h.knownHostsFile;
    }
    if (!h.identityFile.isEmpty()) {
        a << QStringLiteral("-i") << h.identityFile << QStringLiteral("-o")
          << QStringLiteral("IdentitiesOnly=yes");
    }
    if (!h.user.isEmpty()) {
        a << QStringLiteral("-l") << h.user;
    }
    return a;
}

} // namespace

QStringList sshArguments(const SshHost& h, const QString& remoteCommand) {
    QStringList a = commonOptions(h, 2);
    a << sshControlOptions(h);
    a << QStringLiteral("--") << h.host << remoteCommand;
    return a;
}

QStringList sshTunnelArguments(const SshHost& h, const QString& localSocket, int remotePort) {
    QStringList a = commonOptions(h, 5);
    a << QStringLiteral("-o") << QStringLiteral("ControlMaster=no") << QStringLiteral("-o")
      << QStringLiteral("ControlPath=none") << QStringLiteral("-o")
      << QStringLiteral("ExitOnForwardFailure=yes") << QStringLiteral("-o")
      << QStringLiteral("StreamLocalBindUnlink=yes") << QStringLiteral("-o")
      << QStringLiteral("StreamLocalBindMask=0177") << QStringLiteral("-N") << QStringLiteral("-L")
      << localSocket + QStringLiteral(":127.0.0.1:") + QString::number(remotePort)
      << QStringLiteral("--") << h.host;
    return a;
}

QString shellQuote(const QString& s) {
    QString out = s;
    out.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

QString explainSshFailure(const SshHost& h, const QString& step, int exitCode, bool timedOut,
                          const QString& stderrText) {
    const QString where = h.offerId();
    const QString said = stderrText.trimmed().split(QLatin1Char('\n')).last().trimmed();
    if (timedOut) {
        return QStringLiteral("%1 did not finish %2 in time; check that the machine is up and "
                              "not overloaded")
            .arg(where, step);
    }
    if (stderrText.contains(QLatin1String("Host key verification failed")) ||
        stderrText.contains(QLatin1String("REMOTE HOST IDENTIFICATION HAS CHANGED"))) {
        // The form's Test connection shows the fingerprint and writes the file the host uses;
        // a plain `ssh` login would write ~/.ssh/known_hosts, not a file of its own.
        return QStringLiteral("%1: its host key is not in %2 or has changed, so Tessera does not "
                              "trust it (%3); verify the key with the machine's owner and add it, "
                              "e.g. with Test connection in Rent machines → Add SSH host… or by "
                              "logging in once with ssh%4")
            .arg(where,
                 h.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts")
                                            : h.knownHostsFile,
                 said,
                 h.knownHostsFile.isEmpty()
                     ? QString()
                     : QStringLiteral(" -o UserKnownHostsFile=") + h.knownHostsFile);
    }
    if (stderrText.contains(QLatin1String("Permission denied"))) {
        return QStringLiteral("%1 refused the login (%2); check the user name and that the key "
                              "%3 is in the machine's authorized_keys")
            .arg(where, said,
                 h.identityFile.isEmpty() ? QStringLiteral("(ssh-agent)") : h.identityFile);
    }
    if (exitCode == 255) {
        return QStringLiteral("%1 could not be reached while %2 (%3); check the address, the port "
                              "and that sshd runs there")
            .arg(where, step, said.isEmpty() ? QStringLiteral("ssh exit 255") : said);
    }
    return QStringLiteral("%1: %2 failed with exit code %3%4")
        .arg(where, step)
        .arg(exitCode)
        .arg(said.isEmpty() ? QString() : QStringLiteral(" (") + said + QLatin1Char(')'));
}

QJsonObject sshHostToJson(const SshHost& h) {
    QJsonObject o{{QStringLiteral("host"), h.host}, {QStringLiteral("port"), h.port}};
    // Unset fields (empty, 0) stay out of the file: it stays as short as the user wrote it.
    auto put = [&o](const char* key, const auto& v) {
        if (v != std::remove_cvref_t<decltype(v)>{}) {
            o.insert(QLatin1String(key), v);
        }
    };
    put("name", h.name);
    put("user", h.user);
    put("identityFile", h.identityFile);
    put("knownHostsFile", h.knownHostsFile);
    put("remoteDir", h.remoteDir);
    put("pricePerHour", h.pricePerHour);
    put("slots", h.slots);
    put("gpus", h.gpus);
    put("gpuName", h.gpuName);
    put("gpuMemoryGiB", h.gpuMemoryGiB);
    put("cores", h.cores);
    put("tunnel", h.tunnel);
    return o;
}

SshHost sshHostFromJson(const QJsonObject& o) {
    SshHost h;
    h.host = o.value(QStringLiteral("host")).toString();
    h.name = o.value(QStringLiteral("name")).toString();
    h.port = o.value(QStringLiteral("port")).toInt(22);
    h.user = o.value(QStringLiteral("user")).toString();
    h.identityFile = o.value(QStringLiteral("identityFile")).toString();
    h.knownHostsFile = o.value(QStringLiteral("knownHostsFile")).toString();
    h.pricePerHour = o.value(QStringLiteral("pricePerHour")).toDouble(0);
    h.slots = o.value(QStringLiteral("slots")).toInt(0);
    h.remoteDir = o.value(QStringLiteral("remoteDir")).toString();
    h.gpus = o.value(QStringLiteral("gpus")).toInt(0);
    h.gpuName = o.value(QStringLiteral("gpuName")).toString();
    h.gpuMemoryGiB = o.value(QStringLiteral("gpuMemoryGiB")).toDouble(0);
    h.cores = o.value(QStringLiteral("cores")).toInt(0);
    h.tunnel = o.value(QStringLiteral("tunnel")).toBool(false);
    return h;
}

namespace {
const QString kSshHostsWhat = QStringLiteral("SSH hosts");

Result<QList<SshHost>> sshHostsFromArray(const Result<QJsonArray>& list, const QString& path) {
    const QString& what = kSshHostsWhat;
    if (!list) {
        return relay(list);
    }
    auto bad = [&](const QString& why) {
        return badSettings(path, what, why);
    };
    QList<SshHost> hosts;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const SshHost h = sshHostFromJson(list->at(i).toObject());
        if (h.host.isEmpty() || h.host.startsWith(QLatin1Char('-'))) {
            return bad(QStringLiteral("entry %1 has no usable \"host\"").arg(i + 1));
        }
        if (h.port < 1 || h.port > 65535 || h.pricePerHour < 0 || h.slots < 0 || h.gpus < 0 ||
            h.gpuMemoryGiB < 0 || h.cores < 0) {
            return bad(QStringLiteral("entry %1 (%2): port must be 1-65535; pricePerHour, slots, "
                                      "gpus, gpuMemoryGiB and cores not negative")
                           .arg(i + 1)
                           .arg(h.host));
        }
        hosts.append(h);
    }
    return hosts;
}
} // namespace

Result<QList<SshHost>> loadSshHosts(const QString& path) {
    return sshHostsFromArray(readSettingsArray(path, QStringLiteral("hosts"), kSshHostsWhat), path);
}

Result<QList<SshHost>> parseSshHosts(const QByteArray& text, const QString& path) {
    return sshHostsFromArray(parseSettingsArray(text, path, QStringLiteral("hosts"), kSshHostsWhat),
                             path);
}

Result<void> saveSshHosts(const QString& path, const QList<SshHost>& hosts) {
    QJsonArray list;
    for (const SshHost& h : hosts) {
        list.append(sshHostToJson(h));
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("hosts"), list}}).toJson()) < 0 ||
        !f.commit()) {
        return fail(ErrorCode::Io, QStringLiteral("cannot write the SSH hosts file %1: %2")
                                       .arg(path, f.errorString())
                                       .toStdString());
    }
    return {};
}

} // namespace tessera
