// Checking the Add SSH host form's fields (see sshhostform.h).
#include "app/rent/sshhostform.h"

#include "app/rent/hostkeys.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

namespace tessera {

namespace {

/// The translation context of these messages.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::SshHostForm)
};

bool matches(const QString& s, const char* pattern) {
    return QRegularExpression(QString::fromLatin1(pattern)).match(s).hasMatch();
}

SshHostFormCheck refuse(const char* field, const QString& error) {
    SshHostFormCheck c;
    c.field = QString::fromLatin1(field);
    c.error = error;
    return c;
}

} // namespace

SshHostFormCheck checkSshHostForm(const SshHostFormInput& in) {
    const QString name = in.name.trimmed();
    QString address = in.address.trimmed();
    QString user = in.user.trimmed();
    if (address.isEmpty()) {
        return refuse("address", Text::tr("Address: enter the machine's host name or IP address, "
                                          "e.g. gpu-box.lan or me@10.0.0.5."));
    }
    if (const qsizetype at = address.lastIndexOf(QLatin1Char('@')); at >= 0) {
        const QString fromAddress = address.left(at);
        address = address.mid(at + 1);
        if (fromAddress.isEmpty() || address.isEmpty()) {
            return refuse(
                "address",
                Text::tr("Address: \"%1\" must be host or user@host.").arg(in.address.trimmed()));
        }
        if (!user.isEmpty() && user != fromAddress) {
            return refuse("user", Text::tr("SSH user: \"%1\" differs from the user in Address "
                                           "(\"%2\"); keep one of them.")
                                      .arg(user, fromAddress));
        }
        user = fromAddress;
    }
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']'))) {
        address = address.mid(1, address.size() - 2); // [IPv6]
    }
    if (!matches(address, "^[A-Za-z0-9_:%][A-Za-z0-9._:%-]*$")) {
        return refuse("address",
                      Text::tr("Address: \"%1\" is not a host name or IP address (letters, "
                               "digits, '.', '-' and ':' only; the port goes in Port).")
                          .arg(address));
    }
    if (!user.isEmpty() && !matches(user, "^[A-Za-z0-9_][A-Za-z0-9._-]*\\$?$")) {
        return refuse("user",
                      Text::tr("SSH user: \"%1\" is not a login name (letters, digits, '.', "
                               "'_' and '-', not starting with '-').")
                          .arg(user));
    }
    if (!name.isEmpty() && !matches(name, "^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")) {
        return refuse("name", Text::tr("Name: \"%1\" cannot name a node: use up to 63 letters, "
                                       "digits, '.', '_' and '-', e.g. lab-a.")
                                  .arg(name));
    }
    if (in.port < 1 || in.port > 65535) {
        return refuse("port", Text::tr("Port: %1 is not a TCP port (1-65535).").arg(in.port));
    }
    const QString identity = in.identityFile.trimmed();
    if (!identity.isEmpty()) {
        const QFileInfo key(expandHome(identity));
        if (!key.exists()) {
            return refuse("identityFile",
                          Text::tr("Identity file: %1 does not exist; choose the private key ssh "
                                   "logs in with, or leave it empty for ssh-agent.")
                              .arg(identity));
        }
        if (!key.isFile() || !key.isReadable()) {
            return refuse("identityFile",
                          Text::tr("Identity file: %1 is not a readable file.").arg(identity));
        }
        if (identity.endsWith(QLatin1String(".pub"))) {
            return refuse("identityFile",
                          Text::tr("Identity file: %1 is the public key; choose the "
                                   "private key (the same name without .pub).")
                              .arg(identity));
        }
    }
    const QString knownHosts = in.knownHostsFile.trimmed();
    if (!knownHosts.isEmpty() && QFileInfo(expandHome(knownHosts)).isDir()) {
        return refuse("knownHostsFile",
                      Text::tr("Known hosts file: %1 is a folder; name a file in it, e.g. "
                               "%1/known_hosts.")
                          .arg(knownHosts));
    }
    const QString gpuName = in.gpuName.trimmed();
    if (in.gpus < 0 || in.gpuMemoryGiB < 0 || in.cores < 0) {
        return refuse("gpus",
                      Text::tr("GPUs: the numbers of GPUs, their memory and the cores cannot "
                               "be negative."));
    }
    if (in.gpus == 0 && (!gpuName.isEmpty() || in.gpuMemoryGiB > 0)) {
        return refuse("gpus",
                      Text::tr("GPUs: 0 (CPU only), but a GPU model or memory is set: enter "
                               "the number of GPUs, or clear the model and memory."));
    }
    if (in.pricePerHour < 0) {
        return refuse("price",
                      Text::tr("Price per hour: cannot be negative (0 for your own machine)."));
    }
    SshHostFormCheck c;
    c.host.name = name;
    c.host.host = address;
    c.host.port = in.port;
    c.host.user = user;
    c.host.identityFile = identity;
    c.host.knownHostsFile = knownHosts;
    c.host.gpus = in.gpus;
    c.host.gpuName = gpuName;
    c.host.gpuMemoryGiB = in.gpuMemoryGiB;
    c.host.cores = in.cores;
    c.host.pricePerHour = in.pricePerHour;
    return c;
}

} // namespace tessera
