// Reading a provider's settings file: a JSON object holding one array of entries.
#pragma once

#include "worker/common/error.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>

namespace tessera {

/// Largest settings file read (bytes): a hosts or clusters file is a few KiB; anything near this
/// is not one, and reading it whole would only waste memory.
inline constexpr qint64 kMaxSettingsFileBytes = 4 * 1024 * 1024;

/// The array `key` of the JSON object in `path`; an empty array when the file does not exist.
/// Errors: InvalidArgument "<what> file <path>: <why>; fix or remove it" for an unreadable file,
/// one larger than kMaxSettingsFileBytes, or one that is not a JSON object.
Result<QJsonArray> readSettingsArray(const QString& path, const QString& key, const QString& what);

/// The array `key` of the JSON object in `text` (a settings file's bytes; `path` names it in
/// messages). A missing or non-array `key` is an empty array. Errors: as readSettingsArray.
Result<QJsonArray> parseSettingsArray(const QByteArray& text, const QString& path,
                                      const QString& key, const QString& what);

/// The InvalidArgument error for entry problems, in the same words: "<what> file <path>: <why>;
/// fix or remove it".
Failure badSettings(const QString& path, const QString& what, const QString& why);

} // namespace tessera
