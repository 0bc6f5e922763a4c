// Writes jobs' metric points, log lines and telemetry to the history database in batches, on a
// thread of its own: the GUI thread hands over a batch every 100 ms and never waits for SQLite
// while a job runs.
#pragma once

#include "backend/core/jobtypes.h"
#include "backend/history/metricstore.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace tessera {

/// Buffers points, log lines and telemetry samples and hands them, one batch per interval, to a
/// writer thread with its own SQLite connection to the store's file (MetricStore::addPoints /
/// addLogs / addTelemetry: one transaction per batch). drain() (a job's end, destruction) waits
/// until everything is written, so what the GUI thread reads afterwards is complete. When the
/// writer cannot open the file (or the store has no file), batches are written on the calling
/// thread instead: nothing is dropped. A crash loses at most what was not written yet, which the
/// worker's journal replays on the next watch (points are keyed by job id and seq).
class StoreBatcher : public QObject {
    Q_OBJECT
public:
    /// `store` may be null (nothing is written); it must outlive the batcher.
    explicit StoreBatcher(MetricStore* store, QObject* parent = nullptr);
    ~StoreBatcher() override;

    /// Hand-over period in ms (default 100).
    void setInterval(int ms) { m_timer.setInterval(ms); }

    void addPoint(const MetricPoint& point);
    void addLog(const QString& jobId, const LogRecord& line);
    void addTelemetry(const TelemetryRecord& record);
    /// Hands what is buffered to the writer now; returns at once.
    void flush();
    /// flush(), then waits until the writer has stored everything handed over.
    void drain();
    /// Points and lines buffered or handed over but not written yet.
    int pending() const { return m_batch.size() + m_inFlight->load(); }
    /// True when batches are written on the writer thread (false: on the calling thread).
    bool threaded() const { return m_writer != nullptr; }

private:
    class Writer;
    /// What one hand-over carries.
    struct Batch {
        QList<MetricPoint> points;
        QList<QPair<QString, LogRecord>> logs;
        QList<TelemetryRecord> telemetry;
        int size() const { return int(points.size() + logs.size() + telemetry.size()); }
        /// Writes it through `store` (one transaction per kind).
        void writeTo(MetricStore& store) const;
    };
    void schedule();

    MetricStore* m_store;
    Batch m_batch;
    QTimer m_timer;
    QThread m_thread;
    Writer* m_writer = nullptr; ///< lives in m_thread
    std::shared_ptr<std::atomic<int>> m_inFlight = std::make_shared<std::atomic<int>>(0);
};

} // namespace tessera
