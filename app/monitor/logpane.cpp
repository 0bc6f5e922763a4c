// Log pane: appends time-stamped lines, bounded by QPlainTextEdit::maximumBlockCount.
#include "app/monitor/logpane.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTime>

namespace tessera {

LogPane::LogPane(QWidget* parent, int maxLines) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setMaximumBlockCount(maxLines);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Job output and cluster events appear here."));
}

void LogPane::appendJobLine(const QString& jobId, const QString& stream, const QString& text) {
    const QString marker = stream == QLatin1String("stderr") ? QStringLiteral(" !") : QString();
    appendStamped(QStringLiteral("[%1%2] %3").arg(jobId, marker, text));
}

void LogPane::appendJobState(const QString& jobId, const QString& stateName,
                             const QString& reason) {
    QString line = tr("[%1] state → %2").arg(jobId, stateName);
    if (!reason.isEmpty())
        line += QStringLiteral(": ") + reason;
    appendStamped(line);
}

void LogPane::appendMessage(const QString& text) {
    appendStamped(text);
}

void LogPane::appendStamped(const QString& text) {
    QScrollBar* bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + text);
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace tessera
