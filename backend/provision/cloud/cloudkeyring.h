// Where a cloud's API key lives: the desktop keyring (QtKeychain: GNOME Keyring, KWallet, over the
// session's D-Bus) when there is one, else a 0600 file in the data folder (headless machines,
// tessera-ctl over SSH). Reading and writing never block the calling thread.
#pragma once

#include "worker/common/error.h"

#include <QObject>
#include <QString>

#include <functional>

namespace tessera {

/// Where a key was found or stored.
enum class KeyPlace { None, Keyring, File };

/// "the desktop keyring", "<path of the 0600 file>" or "nowhere", for messages.
QString keyPlaceText(KeyPlace place, const QString& providerId);

/// Reads cloud `providerId`'s API key: from the keyring (service "Tessera", entry
/// "<providerId>-api-key") when a D-Bus session is there, else or when the keyring has none,
/// from the file (readApiKeyFile). `done` runs once in `context`'s thread, unless `context` is
/// destroyed first, with the key (or NotFound, or the file's refusal) and where it was.
void readCloudApiKey(QObject* context, const QString& providerId,
                     std::function<void(Result<QString>, KeyPlace)> done);

/// Stores the key: in the keyring when there is one (then any key file is removed, so the key is
/// kept in one place), else in the 0600 file. `done` gets where it went, or why it could not be
/// stored (InvalidArgument for a key that is not one line of printable characters, Io).
void storeCloudApiKey(QObject* context, const QString& providerId, const QString& key,
                      std::function<void(Result<KeyPlace>)> done);

} // namespace tessera
