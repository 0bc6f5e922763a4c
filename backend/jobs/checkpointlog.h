// The checkpoints a job announces in its log: tessera-train's rank 0 prints "checkpoint of step N
// written to DIR" once every shard and the manifest of step N are on disk.
#pragma once

#include <QString>

#include <optional>

namespace tessera {

/// A complete checkpoint as tessera-train announces it on rank 0 ("checkpoint of step N
/// written to DIR", after every shard and the manifest are on disk).
struct CheckpointRef {
    qint64 step = 0;
    QString path; ///< the step folder on rank 0's worker, ".../step-N"
};

/// The checkpoint a log line announces; nullopt for any other line.
std::optional<CheckpointRef> checkpointFromLogLine(const QString& text);

} // namespace tessera
