// Writes a job's metric points and log lines to the MetricStore in batches: one SQLite
// transaction per flush (every 100 ms by default) instead of one per point.
#pragma once

#include "jobtypes.h"
#include "metricstore.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QTimer>

namespace tessera {

/// Buffers points and log lines on the thread that owns the store (the GUI thread) and writes
/// them with MetricStore::addPoints / addLogs when its timer fires, when flush() is called, and
/// on destruction. Nothing is lost on a clean shutdown; a crash loses at most one interval, which
/// the worker's journal replays on the next watch (points are keyed by job id and seq).
class StoreBatcher : public QObject {
    Q_OBJECT
public:
    /// `store` may be null (nothing is written); it must outlive the batcher.
    explicit StoreBatcher(MetricStore* store, QObject* parent = nullptr);
    ~StoreBatcher() override;

    /// Flush period in ms (default 100): the most a point waits before it is on disk.
    void setInterval(int ms) { m_timer.setInterval(ms); }

    void addPoint(const MetricPoint& point);
    void addLog(const QString& jobId, const LogRecord& line);
    /// Writes everything buffered now. Returns the number of new rows (replays are skipped).
    int flush();
    /// Points and lines waiting for the next flush.
    int pending() const { return int(m_points.size() + m_logs.size()); }

private:
    void schedule();

    MetricStore* m_store;
    QList<MetricPoint> m_points;
    QList<QPair<QString, LogRecord>> m_logs;
    QTimer m_timer;
};

} // namespace tessera
