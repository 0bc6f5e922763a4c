// LogsCommand: batches of stored lines after the last printed seq, polled while the job runs.
#include "backend/ctl/logscommand.h"

#include "backend/core/jobtypes.h"

#include <cstdio>

namespace tessera::ctl {

namespace {
constexpr int kBatch = 2000;
constexpr int kPollMs = 300;
} // namespace

QString formatLogLine(const LogRecord& line, bool prefixed) {
    if (!prefixed) {
        return line.text;
    }
    const QString mark = line.stream == QLatin1String("stderr") ? QStringLiteral(" !") : QString();
    if (line.rank >= 0) {
        return QStringLiteral("[r%1%2] %3").arg(line.rank).arg(mark, line.text);
    }
    const bool program =
        line.stream == QLatin1String("stdout") || line.stream == QLatin1String("stderr");
    return QStringLiteral("[%1%2] %3")
        .arg(program ? QStringLiteral("mpirun") : line.stream, mark, line.text);
}

LogsCommand::LogsCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options) {
    m_timer.setInterval(kPollMs);
    connect(&m_timer, &QTimer::timeout, this, &LogsCommand::poll);
}

void LogsCommand::start() {
    if (Result<void> opened = m_store.open(MetricStore::defaultPath()); !opened) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
        Q_EMIT finished(kExitBadInput);
        return;
    }
    if (m_store.job(m_options.jobId).id.isEmpty()) {
        std::fprintf(stderr,
                     "tessera-ctl: error: no job '%s' in the history %s; tessera-ctl jobs lists "
                     "the jobs it holds\n",
                     qPrintable(m_options.jobId), qPrintable(m_store.path()));
        Q_EMIT finished(kExitBadInput);
        return;
    }
    poll();
    if (m_options.follow && !m_endSeen) {
        m_timer.start();
    }
}

int LogsCommand::printNew() {
    int printed = 0;
    const bool prefixed = m_options.rank == -2;
    for (;;) {
        const QList<LogRecord> lines =
            m_store.logLinesAfter(m_options.jobId, m_lastSeq, m_options.rank, kBatch);
        for (const LogRecord& l : lines) {
            std::fputs(formatLogLine(l, prefixed).toUtf8().constData(), stdout);
            std::fputc('\n', stdout);
            m_lastSeq = l.seq;
        }
        printed += int(lines.size());
        if (lines.size() < kBatch) {
            break;
        }
    }
    std::fflush(stdout);
    return printed;
}

void LogsCommand::poll() {
    // The state first, then the lines: the app and `tessera-ctl run` store a job's last lines
    // before its end state, so once the end is seen one more read has them all.
    const bool ended = isTerminal(m_store.job(m_options.jobId).state);
    printNew();
    if (!m_options.follow || ended) {
        m_endSeen = ended;
        m_timer.stop();
        Q_EMIT finished(kExitOk);
    }
}

} // namespace tessera::ctl
