// Cloud API keys in the desktop keyring or a 0600 file (see cloudkeyring.h).
#include "backend/provision/cloud/cloudkeyring.h"

#include "backend/core/logging.h"
#include "backend/provision/cloud/cloudkeys.h"

#include <QFile>
#include <QLoggingCategory>
#include <QPointer>

#include <qt6keychain/keychain.h>

namespace tessera {

namespace {

const QString kService = QStringLiteral("Tessera");

/// A keyring is only asked for within a D-Bus session: without one QtKeychain would try to
/// start a bus (X11 autolaunch) on a headless machine.
bool haveKeyring() {
    return !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS") &&
           qEnvironmentVariableIsEmpty("TESSERA_NO_KEYRING");
}

QString entry(const QString& providerId) {
    return providerId + QStringLiteral("-api-key");
}

} // namespace

QString keyPlaceText(KeyPlace place, const QString& providerId) {
    switch (place) {
    case KeyPlace::Keyring:
        return QStringLiteral("the desktop keyring");
    case KeyPlace::File:
        return apiKeyPath(providerId) + QStringLiteral(" (0600)");
    case KeyPlace::None:
        break;
    }
    return QStringLiteral("nowhere");
}

void readCloudApiKey(QObject* context, const QString& providerId,
                     std::function<void(Result<QString>, KeyPlace)> done) {
    const auto fromFile = [providerId, done] {
        Result<QString> key = readApiKeyFile(apiKeyPath(providerId));
        done(key, key ? KeyPlace::File : KeyPlace::None);
    };
    if (!haveKeyring()) {
        fromFile();
        return;
    }
    auto* job = new QKeychain::ReadPasswordJob(kService);
    job->setAutoDelete(true);
    job->setKey(entry(providerId));
    QObject::connect(
        job, &QKeychain::Job::finished, context, [job, fromFile, done](QKeychain::Job*) {
            if (job->error() == QKeychain::NoError && !job->textData().isEmpty()) {
                done(job->textData().trimmed(), KeyPlace::Keyring);
                return;
            }
            if (job->error() != QKeychain::EntryNotFound) {
                qCInfo(lcLease).noquote() << "the desktop keyring cannot be read ("
                                          << job->errorString() << "); looking for the key file";
            }
            fromFile();
        });
    job->start();
}

void storeCloudApiKey(QObject* context, const QString& providerId, const QString& key,
                      std::function<void(Result<KeyPlace>)> done) {
    const QString k = key.trimmed();
    const QString path = apiKeyPath(providerId);
    const auto toFile = [path, k, done] {
        Result<void> w = writeApiKeyFile(path, k);
        done(w ? Result<KeyPlace>(KeyPlace::File) : Result<KeyPlace>(relay(w)));
    };
    if (Result<void> ok = checkApiKey(k); !ok) {
        done(relay(ok));
        return;
    }
    if (!haveKeyring()) {
        toFile();
        return;
    }
    auto* job = new QKeychain::WritePasswordJob(kService);
    job->setAutoDelete(true);
    job->setKey(entry(providerId));
    job->setTextData(k);
    QObject::connect(
        job, &QKeychain::Job::finished, context, [job, path, toFile, done](QKeychain::Job*) {
            if (job->error() != QKeychain::NoError) {
                qCInfo(lcLease).noquote() << "the desktop keyring refused the key ("
                                          << job->errorString() << "); keeping it in" << path;
                toFile();
                return;
            }
            QFile::remove(path); // one place only
            done(KeyPlace::Keyring);
        });
    job->start();
}

} // namespace tessera
