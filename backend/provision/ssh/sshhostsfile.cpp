// Editing ssh-hosts.json without losing what else it holds (see sshhostsfile.h).
#include "backend/provision/ssh/sshhostsfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QMutexLocker>
#include <QSaveFile>

namespace tessera {

namespace {

/// The translation context of these messages.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::SshHostsFile)
};

Failure refused(const QString& path, const QString& why) {
    return fail(ErrorCode::InvalidArgument,
                Text::tr("The SSH hosts file %1 %2; fix it or move it away (nothing was written).")
                    .arg(path, why)
                    .toStdString());
}

/// Line and column (1-based) of byte `offset` in `data`.
QString position(const QByteArray& data, int offset) {
    const QByteArray head = data.left(offset);
    const qsizetype line = head.count('\n') + 1;
    const qsizetype column = offset - (head.lastIndexOf('\n') + 1) + 1;
    return Text::tr("line %1, column %2").arg(line).arg(column);
}

} // namespace

QString duplicateSshHost(const QList<SshHost>& existing, const SshHost& host) {
    for (qsizetype i = 0; i < existing.size(); ++i) {
        const SshHost& e = existing[i];
        if (e.nodeName() == host.nodeName()) {
            return Text::tr("Name: the hosts file already has a host called %1 (entry %2); pick "
                            "another name.")
                .arg(host.nodeName())
                .arg(i + 1);
        }
        if (e.offerId() == host.offerId()) {
            return Text::tr("Address: %1 is already in the hosts file as %2 (entry %3).")
                .arg(host.offerId(), e.nodeName())
                .arg(i + 1);
        }
    }
    return QString();
}

Result<QList<SshHost>> editSshHostsFile(const QString& path, const SshHostsChange& change) {
    static QMutex writers; // the form on the GUI thread, a rent's write-back on a pool thread
    const QMutexLocker lock(&writers);
    QJsonObject root;
    bool empty = true; // missing, or nothing but white space: nothing to keep
    QFile in(path);
    if (in.exists()) {
        if (!in.open(QIODevice::ReadOnly)) {
            return fail(ErrorCode::Io, Text::tr("Cannot read the SSH hosts file %1: %2.")
                                           .arg(path, in.errorString())
                                           .toStdString());
        }
        const QByteArray data = in.readAll();
        in.close();
        empty = data.trimmed().isEmpty();
        if (!empty) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
            if (pe.error != QJsonParseError::NoError) {
                return refused(path, Text::tr("is not valid JSON at %1 (%2)")
                                         .arg(position(data, pe.offset), pe.errorString()));
            }
            if (!doc.isObject()) {
                return refused(path, Text::tr("is not a JSON object ({\"hosts\": [...]})"));
            }
            root = doc.object();
        }
    }
    const QJsonValue listValue = root.value(QStringLiteral("hosts"));
    if (!listValue.isUndefined() && !listValue.isArray()) {
        return refused(path, Text::tr("has a \"hosts\" that is not a list"));
    }
    const Result<QList<SshHost>> existing =
        empty ? Result<QList<SshHost>>(QList<SshHost>{}) : loadSshHosts(path);
    if (!existing) {
        return fail(ErrorCode::InvalidArgument,
                    existing.error().message + Text::tr(" (nothing was written)").toStdString());
    }
    QJsonArray list = listValue.toArray();
    if (Result<void> changed = change(list, *existing); !changed) {
        return relay(changed);
    }
    root.insert(QStringLiteral("hosts"), list);

    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        return fail(
            ErrorCode::Io,
            Text::tr("Cannot create the folder %1 for the SSH hosts file: check its parent's "
                     "permissions.")
                .arg(folder)
                .toStdString());
    }
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(root).toJson()) < 0 ||
        !out.commit()) {
        return fail(ErrorCode::Io, Text::tr("Cannot write the SSH hosts file %1: %2.")
                                       .arg(path, out.errorString())
                                       .toStdString());
    }
    return loadSshHosts(path);
}

Result<QList<SshHost>> addSshHostToFile(const QString& path, const SshHost& host) {
    return editSshHostsFile(path, [&host](QJsonArray& entries, const QList<SshHost>& hosts) {
        if (const QString dup = duplicateSshHost(hosts, host); !dup.isEmpty()) {
            return Result<void>(fail(ErrorCode::AlreadyExists, dup.toStdString()));
        }
        entries.append(sshHostToJson(host));
        return Result<void>();
    });
}

Result<QList<SshHost>> writeFoundMachine(const QString& path, const SshHost& found) {
    return editSshHostsFile(path, [&found](QJsonArray& entries, const QList<SshHost>& hosts) {
        for (qsizetype i = 0; i < hosts.size() && i < entries.size(); ++i) {
            if (hosts[i].offerId() != found.offerId()) {
                continue;
            }
            QJsonObject entry = entries[i].toObject();
            // Unknown stays out of the file, as sshHostToJson writes it.
            const auto put = [&entry](const char* key, const QJsonValue& v, bool known) {
                if (known) {
                    entry.insert(QLatin1String(key), v);
                } else {
                    entry.remove(QLatin1String(key));
                }
            };
            put("gpus", found.gpus, found.gpus != 0);
            put("gpuName", found.gpuName, !found.gpuName.isEmpty());
            put("gpuMemoryGiB", found.gpuMemoryGiB, found.gpuMemoryGiB != 0);
            put("cores", found.cores, found.cores != 0);
            entries[i] = entry;
        }
        return Result<void>();
    });
}

} // namespace tessera
