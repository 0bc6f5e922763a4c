// The planner's stored per-node calibration (tessera-ctl calibrate → calibration.json in the data
// folder), read again only when the file changes.
#pragma once

#include "backend/planner/planner.h"

#include <QDateTime>
#include <QString>

#include <vector>

namespace tessera::designer {

/// Loads `path` (default: calibration.json in the backend's data folder) on demand and keeps it
/// until the file's modification time or size changes (Linux stamps files with a coarse clock:
/// two writes within a few milliseconds can carry the same time). A missing file is no
/// calibration (datasheet numbers); an unreadable one too, with the reason in error().
class CalibrationCache {
public:
    explicit CalibrationCache(QString path = defaultPath());
    /// The fit per node (planner::NodeCalibration::node = worker name), possibly empty.
    const std::vector<planner::NodeCalibration>& current();
    /// Why the file could not be used, or empty.
    QString error() const { return m_error; }
    /// tessera::calibrationPath(), where tessera-ctl calibrate stores it.
    static QString defaultPath();

private:
    QString m_path;
    QDateTime m_loadedStamp;
    qint64 m_loadedSize = -1;
    std::vector<planner::NodeCalibration> m_nodes;
    QString m_error;
};

} // namespace tessera::designer
