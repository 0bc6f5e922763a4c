// Log pane: a read-only, bounded text view of job log lines, state changes and app messages.
#pragma once

#include <QPlainTextEdit>

namespace tessera {

/// QPlainTextEdit that keeps at most `maxLines` lines (oldest dropped first) and keeps the view
/// scrolled to the end while the user has not scrolled up.
class LogPane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogPane(QWidget* parent = nullptr, int maxLines = 5000);

public Q_SLOTS:
    /// One line of a job's output; `stream` is "stdout" or "stderr" (stderr lines are marked).
    void appendJobLine(const QString& jobId, const QString& stream, const QString& text);
    /// A job state change, e.g. "job-1 → RUNNING" with the reason when there is one.
    void appendJobState(const QString& jobId, const QString& stateName, const QString& reason);
    /// A message of the app itself (rent finished, launch failed, …).
    void appendMessage(const QString& text);

private:
    void appendStamped(const QString& text);
};

} // namespace tessera
