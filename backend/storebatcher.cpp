// Batched writes of metric points and log lines (see storebatcher.h).
#include "storebatcher.h"

namespace tessera {

StoreBatcher::StoreBatcher(MetricStore* store, QObject* parent) : QObject(parent), m_store(store) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &StoreBatcher::flush);
}

StoreBatcher::~StoreBatcher() {
    flush();
}

void StoreBatcher::schedule() {
    if (!m_timer.isActive()) {
        m_timer.start();
    }
}

void StoreBatcher::addPoint(const MetricPoint& point) {
    if (m_store == nullptr) {
        return;
    }
    m_points.append(point);
    schedule();
}

void StoreBatcher::addLog(const QString& jobId, const LogRecord& line) {
    if (m_store == nullptr) {
        return;
    }
    m_logs.append({jobId, line});
    schedule();
}

int StoreBatcher::flush() {
    m_timer.stop();
    if (m_store == nullptr || (m_points.isEmpty() && m_logs.isEmpty())) {
        return 0;
    }
    const int added = m_store->addPoints(m_points) + m_store->addLogs(m_logs);
    m_points.clear();
    m_logs.clear();
    return added;
}

} // namespace tessera
