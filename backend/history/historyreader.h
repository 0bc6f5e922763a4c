// A read-only view of the history database for a thread of its own (issue 48): the control API
// replays a job's stored events to a client that reconnects (WatchJob with backfill) on the
// gRPC thread that writes its stream, page by page, never on the backend's thread.
#pragma once

#include "backend/core/jobtypes.h"
#include "backend/history/metricstore.h"

#include <QList>
#include <QString>

namespace tessera {

/// One stored event of a job: a metric point or a log line, in seq order.
struct StoredEvent {
    quint64 seq = 0;
    bool isPoint = true;
    MetricPoint point; ///< when isPoint
    LogRecord log;     ///< when !isPoint
};

/// A read-only SQLite connection to the history at `path`, used only on the thread that opened
/// it (QtSql connections are per thread). It creates nothing and sweeps nothing.
class HistoryReader {
public:
    HistoryReader();
    ~HistoryReader();
    HistoryReader(const HistoryReader&) = delete;
    HistoryReader& operator=(const HistoryReader&) = delete;

    /// Errors: Io naming the file and SQLite's reason.
    Result<void> open(const QString& path);

    /// The job's points and log lines with afterSeq < seq ≤ upToSeq, in seq order, at most
    /// `limit` of them (the first ones). Empty at the end (or on a database error, logged).
    QList<StoredEvent> events(const QString& jobId, quint64 afterSeq, quint64 upToSeq,
                              int limit) const;

private:
    QString m_connection;
};

} // namespace tessera
