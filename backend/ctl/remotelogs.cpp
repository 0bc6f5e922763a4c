// A job's log lines through a tessera-server (see remotelogs.h).
#include "backend/ctl/remotelogs.h"

#include "backend/client/jobfeed.h"
#include "backend/ctl/logscommand.h"
#include "backend/service/backendclient.h"

#include <cstdio>

namespace tessera::ctl {

RemoteLogs::RemoteLogs(const CtlOptions& options, ServerContact contact, QObject* parent)
    : QObject(parent), m_options(options), m_contact(std::move(contact)) {}

void RemoteLogs::start() {
    auto client = std::make_shared<BackendClient>(m_contact.owner.endpoint, m_contact.identity);
    m_feed = new client::JobFeed(client, m_options.jobId, this);
    const bool prefixed = m_options.rank == -2;
    const int rank = m_options.rank;
    connect(
        m_feed, &client::JobFeed::logLine, this,
        [prefixed, rank](const QString& stream, const QString& text, int lineRank, quint64 seq) {
            if (rank != -2 && lineRank != rank) {
                return;
            }
            const LogRecord line{seq, 0, stream, text, lineRank};
            std::fputs(formatLogLine(line, prefixed).toUtf8().constData(), stdout);
            std::fputc('\n', stdout);
            std::fflush(stdout);
        });
    connect(m_feed, &client::JobFeed::finished, this, [this] { Q_EMIT finished(kExitOk); });
    connect(m_feed, &client::JobFeed::gone, this, [this](const QString& why, bool unreachable) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", qPrintable(why));
        Q_EMIT finished(unreachable ? kExitUnreachable : kExitBadInput);
    });
    connect(m_feed, &client::JobFeed::interrupted, this, [](const QString& why) {
        std::fprintf(stderr, "tessera-ctl: %s; following again…\n", qPrintable(why));
    });
    m_feed->start(1, !m_options.follow);
}

} // namespace tessera::ctl
