// `tessera-ctl logs JOB [--rank R] [--follow]`: a job's log lines from the history.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/history/metricstore.h"

#include <QObject>
#include <QTimer>

namespace tessera::ctl {

/// One stored line as `logs` prints it: with `prefixed`, "[r3] text" for rank 3's,
/// "[r3 !] text" for its stderr, "[worker] text" / "[tessera] text" / "[mpirun] text" for lines
/// of no rank; without, the text alone (as the rank printed it; bytes that were not UTF-8 show
/// as \xNN).
QString formatLogLine(const LogRecord& line, bool prefixed);

/// Reads the job's lines from the history database (the one `tessera-ctl run` and the app
/// write), prints them in order, and with --follow polls for new ones every 300 ms until the
/// job has ended. start() returns at once; finished(exitCode) follows: 0, or 2 when the history
/// cannot be opened or has no such job (the message names the job and `tessera-ctl jobs`).
class LogsCommand : public QObject {
    Q_OBJECT
public:
    explicit LogsCommand(const CtlOptions& options, QObject* parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    /// Prints every line stored after the last one printed; returns how many.
    int printNew();
    void poll();

    CtlOptions m_options;
    MetricStore m_store;
    QTimer m_timer;
    quint64 m_lastSeq = 0;
    bool m_endSeen = false;
};

} // namespace tessera::ctl
