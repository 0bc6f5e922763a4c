// Log pane: time-stamped lines kept in a bounded list and shown through the rank filter.
#include "app/monitor/logpane.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTime>

#include <algorithm>

namespace tessera {

LogPane::LogPane(QWidget* parent, int maxLines) : QPlainTextEdit(parent), m_maxLines(maxLines) {
    setReadOnly(true);
    setMaximumBlockCount(maxLines);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Job output and cluster events appear here."));
}

void LogPane::appendJobLine(const QString& jobId, const QString& stream, const QString& text,
                            int rank) {
    const QString marker = stream == QLatin1String("stderr") ? QStringLiteral(" !") : QString();
    const QString who = rank >= 0 ? QStringLiteral(" r%1").arg(rank) : QString();
    append(QStringLiteral("[%1%2%3] %4").arg(jobId, who, marker, text), rank >= 0 ? rank : kNoRank,
           true);
}

void LogPane::appendJobState(const QString& jobId, const QString& stateName,
                             const QString& reason) {
    QString line = tr("[%1] state → %2").arg(jobId, stateName);
    if (!reason.isEmpty())
        line += QStringLiteral(": ") + reason;
    append(line, kNoRank, false);
}

void LogPane::appendMessage(const QString& text) {
    append(text, kNoRank, false);
}

QList<int> LogPane::ranksSeen() const {
    QList<int> out(m_ranks.begin(), m_ranks.end());
    std::sort(out.begin(), out.end());
    return out;
}

void LogPane::setRankFilter(int rank) {
    if (rank == m_filter)
        return;
    m_filter = rank;
    QStringList lines;
    for (const Entry& e : m_entries)
        if (shown(e))
            lines << e.line;
    setPlainText(lines.join(QLatin1Char('\n')));
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void LogPane::append(const QString& text, int rank, bool jobLine) {
    Entry e{QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + text, rank, jobLine};
    m_entries.push_back(e);
    if (int(m_entries.size()) > m_maxLines)
        m_entries.pop_front();
    if (jobLine && !m_ranks.contains(rank)) {
        m_ranks.insert(rank);
        Q_EMIT rankSeen(rank);
    }
    if (!shown(e))
        return;
    QScrollBar* bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    appendPlainText(e.line);
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace tessera
