// Log pane: time-stamped lines kept in a bounded list and shown through the rank filter, warnings
// and errors marked by what the line says of itself.
#include "app/monitor/logpane.h"

#include <QColor>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTime>

#include <algorithm>
#include <optional>
#include <vector>

namespace tessera {

namespace {

using Severity = LogPane::Severity;

/// Only the start of a line carries its level; a hostile megabyte-long line is looked at this far.
constexpr qsizetype kHeadChars = 200;

/// A log level word ("warning", "ERR", "Critical"), or Normal for "info", "debug", anything else.
std::optional<Severity> levelWord(QStringView w) {
    w = w.trimmed();
    for (const char* s : {"warning", "warn"}) {
        if (w.compare(QLatin1String(s), Qt::CaseInsensitive) == 0) {
            return Severity::Warning;
        }
    }
    for (const char* s : {"error", "err", "critical", "crit", "fatal"}) {
        if (w.compare(QLatin1String(s), Qt::CaseInsensitive) == 0) {
            return Severity::Error;
        }
    }
    for (const char* s : {"info", "debug", "trace", "notice"}) {
        if (w.compare(QLatin1String(s), Qt::CaseInsensitive) == 0) {
            return Severity::Normal;
        }
    }
    return std::nullopt;
}

/// glog's and PyTorch's one-letter levels: "W1202 12:00:00.1 …", "E …", "F …"; "I …" is Normal.
std::optional<Severity> glogLetter(QStringView s) {
    if (s.size() < 2 || !(s[1].isDigit() || s[1] == QLatin1Char(' '))) {
        return std::nullopt;
    }
    switch (s[0].unicode()) {
    case 'W':
        return Severity::Warning;
    case 'E':
    case 'F':
        return Severity::Error;
    case 'I':
        return Severity::Normal;
    default:
        return std::nullopt;
    }
}

/// The level of the first of the bracket groups a line starts with that names one: spdlog's
/// "[12:00:00.123] [rank 0] [info] …", PyTorch's "[rank0]:[W1202 …] …" or "[W socket.cpp:464] …".
std::optional<Severity> bracketLevel(QStringView head) {
    qsizetype open = 0;
    while (open < head.size() && head[open].isSpace()) {
        ++open;
    }
    if (open >= head.size() || head[open] != QLatin1Char('[')) {
        return std::nullopt;
    }
    for (int groups = 0; open >= 0 && groups < 6; ++groups) {
        const qsizetype close = head.indexOf(QLatin1Char(']'), open + 1);
        if (close < 0) {
            return std::nullopt;
        }
        const QStringView inside = head.mid(open + 1, close - open - 1);
        if (auto s = levelWord(inside)) {
            return s;
        }
        if (auto s = glogLetter(inside); s && inside.size() >= 2 && inside.size() < 120) {
            return s;
        }
        // Only a run of groups at the start counts: "[a] [b] text [error]" is text.
        qsizetype next = close + 1;
        while (next < head.size() &&
               (head[next] == QLatin1Char(' ') || head[next] == QLatin1Char(':'))) {
            ++next;
        }
        if (next >= head.size() || head[next] != QLatin1Char('[')) {
            return std::nullopt;
        }
        open = next;
    }
    return std::nullopt;
}

struct Pattern {
    QRegularExpression re;
    Severity severity;
};

const std::vector<Pattern>& patterns() {
    static const std::vector<Pattern> list = [] {
        const auto ci = QRegularExpression::CaseInsensitiveOption;
        const auto none = QRegularExpression::NoPatternOption;
        return std::vector<Pattern>{
            // Python logging's default "WARNING:root:…", "ERROR: …"; loguru/others "ERROR | …".
            {QRegularExpression(QStringLiteral("^\\s*(CRITICAL|FATAL|ERROR)\\b"), none),
             Severity::Error},
            {QRegularExpression(QStringLiteral("^\\s*(WARNING|WARN)\\b"), none), Severity::Warning},
            // "2024-01-01 12:00:00,123 - root - ERROR - …", "… | WARNING | …", "NCCL WARN …".
            {QRegularExpression(QStringLiteral("[\\s|:-](CRITICAL|FATAL|ERROR)[\\s|:-]"), none),
             Severity::Error},
            {QRegularExpression(QStringLiteral("[\\s|:-](WARNING|WARN)[\\s|:-]"), none),
             Severity::Warning},
            // "tessera-train: error: …", "main.c:3:4: fatal error: …", "mpirun: warning: …".
            {QRegularExpression(QStringLiteral("^\\S+: (fatal )?error: "), ci), Severity::Error},
            {QRegularExpression(QStringLiteral("^\\S+: warning: "), ci), Severity::Warning},
            // Python: a traceback and the exception that ends it; the warnings module.
            {QRegularExpression(QStringLiteral("^Traceback \\(most recent call last\\):"), none),
             Severity::Error},
            {QRegularExpression(
                 QStringLiteral("^([\\w.]+\\.)?\\w*(Error|Exception|Interrupt)(:|$)"), none),
             Severity::Error},
            {QRegularExpression(QStringLiteral("^(\\S+:\\d+: )?\\w*Warning: "), none),
             Severity::Warning},
            // Open MPI when a rank dies.
            {QRegularExpression(QStringLiteral("^mpirun noticed that |exited on signal \\d+"),
                                none),
             Severity::Error},
        };
    }();
    return list;
}

/// Drops ANSI escape sequences: CSI ("ESC [ … final byte") and two-byte ones ("ESC x").
QString withoutEscapes(const QString& text) {
    if (!text.contains(QChar(0x1B))) {
        return text;
    }
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] != QChar(0x1B)) {
            out += text[i];
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == QLatin1Char('[')) {
            qsizetype j = i + 2;
            while (j < text.size() && !(text[j].unicode() >= 0x40 && text[j].unicode() <= 0x7E)) {
                ++j;
            }
            i = j; // the final byte (or the end)
        } else {
            ++i; // ESC and the one after it
        }
    }
    return out;
}

QTextCharFormat formatOf(Severity s) {
    QTextCharFormat f;
    if (s == Severity::Warning) {
        f.setForeground(QColor(0xB0, 0x5A, 0x00)); // dark orange, legible on white
    } else if (s == Severity::Error) {
        f.setForeground(QColor(0xC0, 0x10, 0x10));
    }
    return f;
}

} // namespace

LogPane::LogPane(QWidget* parent, int maxLines) : QPlainTextEdit(parent), m_maxLines(maxLines) {
    setReadOnly(true);
    setMaximumBlockCount(maxLines);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Job output and cluster events appear here."));
}

LogPane::Severity LogPane::severityOf(const QString& text) {
    const QString head = withoutEscapes(text.left(kHeadChars * 2)).left(kHeadChars);
    if (auto s = bracketLevel(head)) {
        return *s;
    }
    if (auto s = glogLetter(head); s && head.size() > 5 && head[1].isDigit() && head[4].isDigit()) {
        return *s;
    }
    for (const Pattern& p : patterns()) {
        if (p.re.match(head).hasMatch()) {
            return p.severity;
        }
    }
    return Severity::Normal;
}

QString LogPane::displayText(const QString& text) {
    QString t = withoutEscapes(text);
    while (t.endsWith(QLatin1Char('\r')) || t.endsWith(QLatin1Char('\n'))) {
        t.chop(1);
    }
    if (const qsizetype cr = t.lastIndexOf(QLatin1Char('\r')); cr >= 0) {
        t = t.mid(cr + 1); // a progress bar's last update
    }
    for (QChar& c : t) {
        if ((c.unicode() < 0x20 && c != QLatin1Char('\t')) || c.unicode() == 0x7F) {
            c = QChar(QChar::ReplacementCharacter);
        }
    }
    return t;
}

void LogPane::appendJobLine(const QString& jobId, const QString& stream, const QString& text,
                            int rank) {
    const QString shownText = displayText(text);
    Severity severity = severityOf(shownText);
    // The worker daemon's own notes on a job (log limit reached, cancel failed) need a look.
    if (severity == Severity::Normal && stream == QLatin1String("worker")) {
        severity = Severity::Warning;
    }
    const QString marker = severity == Severity::Error     ? QStringLiteral(" !!")
                           : severity == Severity::Warning ? QStringLiteral(" !")
                                                           : QString();
    const QString who = rank >= 0 ? QStringLiteral(" r%1").arg(rank) : QString();
    append(QStringLiteral("[%1%2%3] %4").arg(jobId, who, marker, shownText),
           rank >= 0 ? rank : kNoRank, true, severity);
}

void LogPane::appendJobState(const QString& jobId, const QString& stateName,
                             const QString& reason) {
    QString line = tr("[%1] state → %2").arg(jobId, stateName);
    if (!reason.isEmpty()) {
        //: between a job's new state and the reason for it
        line += tr(": %1").arg(displayText(reason));
    }
    append(line, kNoRank, false, Severity::Normal);
}

void LogPane::appendMessage(const QString& text) {
    append(displayText(text), kNoRank, false, Severity::Normal);
}

QList<int> LogPane::ranksSeen() const {
    QList<int> out(m_ranks.begin(), m_ranks.end());
    std::sort(out.begin(), out.end());
    return out;
}

void LogPane::setRankFilter(int rank) {
    if (rank == m_filter) {
        return;
    }
    m_filter = rank;
    clear();
    bool first = true;
    for (const Entry& e : m_entries) {
        if (shown(e)) {
            show(e, first);
            first = false;
        }
    }
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void LogPane::show(const Entry& e, bool first) {
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    if (!first) {
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
    }
    cursor.insertText(e.line, formatOf(e.severity));
    cursor.endEditBlock();
}

void LogPane::append(const QString& text, int rank, bool jobLine, Severity severity) {
    Entry e{QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + text, rank, jobLine,
            severity};
    m_entries.push_back(e);
    if (int(m_entries.size()) > m_maxLines) {
        m_entries.pop_front();
    }
    if (jobLine && !m_ranks.contains(rank)) {
        m_ranks.insert(rank);
        Q_EMIT rankSeen(rank);
    }
    if (!shown(e)) {
        return;
    }
    QScrollBar* bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    show(e, document()->isEmpty());
    if (atEnd) {
        bar->setValue(bar->maximum());
    }
}

} // namespace tessera
