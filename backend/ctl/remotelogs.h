// `tessera-ctl logs JOB --server HOST:PORT`: a job's log lines from a tessera-server's history,
// with --follow the live ones too until the job ends.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/ctl/servercontact.h"

#include <QObject>

namespace tessera::client {
class JobFeed;
}

namespace tessera::ctl {

/// Prints the job's stored lines as `logs` does (formatLogLine, --rank filters), through the
/// server's WatchJob with backfill: without --follow only what is stored (replay only), with it
/// also what comes until the job ends, across lost connections (JobFeed: each line once).
/// finished(exitCode): 0; 2 when the server does not know the job or refuses; 3 when it does not
/// answer (without --follow).
class RemoteLogs : public QObject {
    Q_OBJECT
public:
    RemoteLogs(const CtlOptions& options, ServerContact contact, QObject* parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    CtlOptions m_options;
    ServerContact m_contact;
    client::JobFeed* m_feed = nullptr;
};

} // namespace tessera::ctl
