// Checkpoint announcements in a job's log (see checkpointlog.h).
#include "backend/jobs/checkpointlog.h"

#include <QRegularExpression>

namespace tessera {

std::optional<CheckpointRef> checkpointFromLogLine(const QString& text) {
    static const QRegularExpression re(
        QStringLiteral("checkpoint of step (\\d+) written to (\\S.*?)\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    bool ok = false;
    const qint64 step = m.captured(1).toLongLong(&ok);
    if (!ok) {
        return std::nullopt;
    }
    return CheckpointRef{step, m.captured(2)};
}

} // namespace tessera
