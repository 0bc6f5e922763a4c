// Reading a provider's settings file: a JSON object holding one array of entries.
#pragma once

#include "worker/common/error.h"

#include <QJsonArray>
#include <QString>

namespace tessera {

/// The array `key` of the JSON object in `path`; an empty array when the file does not exist.
/// Errors: InvalidArgument "<what> file <path>: <why>; fix or remove it" for an unreadable file
/// or one that is not a JSON object.
Result<QJsonArray> readSettingsArray(const QString& path, const QString& key, const QString& what);

/// The InvalidArgument error for entry problems, in the same words: "<what> file <path>: <why>;
/// fix or remove it".
Failure badSettings(const QString& path, const QString& what, const QString& why);

} // namespace tessera
