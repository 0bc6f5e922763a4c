// Log pane: a read-only, bounded text view of job log lines, state changes and app messages,
// which can be narrowed to the lines of one rank.
#pragma once

#include <QPlainTextEdit>
#include <QSet>

#include <deque>

namespace tessera {

/// QPlainTextEdit that keeps at most `maxLines` lines (oldest dropped first) and keeps the view
/// scrolled to the end while the user has not scrolled up. A job line printed by a rank shows it
/// ("[job-1 r3] …"); setRankFilter() shows only one rank's lines (and every state change and app
/// message, which belong to no rank). A line that says it is a warning or an error is marked
/// ("[job-1 r3 !] …" in orange, "[job-1 r3 !!] …" in red); every other line is not, whichever
/// stream it came on (training programs log their `[info]` lines to stderr).
class LogPane : public QPlainTextEdit {
    Q_OBJECT
public:
    /// setRankFilter(): every line.
    static constexpr int kAllRanks = -2;
    /// A job line no rank printed (mpirun's, torchrun's, the worker's or the backend's).
    static constexpr int kNoRank = -1;

    /// How a job line is marked.
    enum class Severity { Normal, Warning, Error };

    explicit LogPane(QWidget* parent = nullptr, int maxLines = 5000);

    /// Shows only job lines of `rank` (kNoRank: those of no rank), or all with kAllRanks.
    void setRankFilter(int rank);
    int rankFilter() const { return m_filter; }
    /// Ranks (and kNoRank) that printed a line kept in the pane, ascending.
    QList<int> ranksSeen() const;

    /// The severity a line states of itself, from its text alone (any stream): a log level
    /// (spdlog's "[warning]", "[error]", "[critical]"; Python logging's "WARNING:", "ERROR:",
    /// "CRITICAL:" or " - ERROR - "; glog's and PyTorch's "W1202 …", "E1202 …", "[W …]", "[E …]";
    /// NCCL's "NCCL WARN"), "prog: error: …", a Python "Traceback (most recent call last):",
    /// "…Error: …"/"…Exception: …" or "…Warning: …" line, Open MPI's "mpirun noticed that …"
    /// / "… exited on signal". Anything else, "[info]" lines included, is Normal. Linear in the
    /// line's length; any text is accepted.
    static Severity severityOf(const QString& text);

    /// `text` as the pane shows it: ANSI escape sequences (colours) removed, a carriage-return
    /// progress line reduced to its last update (as a terminal shows it), other control
    /// characters but tab shown as U+FFFD.
    static QString displayText(const QString& text);

public Q_SLOTS:
    /// One line of a job's output; `stream` is "stdout" or "stderr", or "worker"/"tessera" for
    /// lines of Tessera itself; `rank` the rank that printed it or kNoRank. Marked by
    /// severityOf(), not by the stream.
    void appendJobLine(const QString& jobId, const QString& stream, const QString& text,
                       int rank = kNoRank);
    /// A job state change, e.g. "job-1 → RUNNING" with the reason when there is one.
    void appendJobState(const QString& jobId, const QString& stateName, const QString& reason);
    /// A message of the app itself (rent finished, launch failed, …).
    void appendMessage(const QString& text);

Q_SIGNALS:
    /// A rank (or kNoRank) printed its first line kept in the pane.
    void rankSeen(int rank);

private:
    struct Entry {
        QString line; ///< with its time stamp
        int rank;
        bool jobLine; ///< false: a state change or app message, shown under every filter
        Severity severity;
    };
    void append(const QString& text, int rank, bool jobLine, Severity severity);
    void show(const Entry& e, bool first);
    bool shown(const Entry& e) const {
        return !e.jobLine || m_filter == kAllRanks || e.rank == m_filter;
    }

    int m_maxLines;
    int m_filter = kAllRanks;
    std::deque<Entry> m_entries;
    QSet<int> m_ranks;
};

} // namespace tessera
