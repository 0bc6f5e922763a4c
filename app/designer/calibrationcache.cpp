// CalibrationCache: calibration.json, reloaded when it changes (see calibrationcache.h).
#include "app/designer/calibrationcache.h"

#include "backend/core/paths.h"
#include "backend/planner/calibration.h"

#include <QFileInfo>

namespace tessera::designer {

CalibrationCache::CalibrationCache(QString path) : m_path(std::move(path)) {}

QString CalibrationCache::defaultPath() {
    return calibrationPath();
}

const std::vector<planner::NodeCalibration>& CalibrationCache::current() {
    const QFileInfo info(m_path);
    const QDateTime stamp = info.exists() ? info.lastModified() : QDateTime();
    const qint64 size = info.exists() ? info.size() : -1;
    if (stamp == m_loadedStamp && size == m_loadedSize) {
        return m_nodes;
    }
    m_loadedStamp = stamp, m_loadedSize = size;
    m_nodes.clear();
    m_error.clear();
    if (!info.exists()) {
        return m_nodes;
    }
    auto loaded = planner::loadCalibration(m_path.toStdString());
    if (loaded) {
        m_nodes = std::move(*loaded);
    } else {
        m_error = QString::fromStdString(loaded.error().message);
    }
    return m_nodes;
}

} // namespace tessera::designer
