// run / attach / cancel through the data folder's backend (see remoteattach.h).
#include "backend/ctl/remoteattach.h"

#include "backend/jobs/workdirscan.h"

#include "backend/core/paths.h"
#include "backend/history/metricstore.h"
#include "backend/service/backendclient.h"
#include "worker/common/spec_io.h"
#include "worker/common/tsan_handoff.h"

#include <QDateTime>

#include <grpcpp/client_context.h>

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace tessera::ctl {

namespace bv1 = tessera::backend::v1;

namespace {
/// How long a stream cut by its owner going away waits for the folder's next owner.
constexpr qint64 kNextOwnerMs = 30000;
} // namespace

RemoteAttach::RemoteAttach(const CtlOptions& options, Mode mode, FolderOwner owner,
                           std::shared_ptr<const tls::Identity> identity, QObject* parent)
    : QObject(parent), m_options(options), m_mode(mode), m_jobId(options.jobId),
      m_owner(std::move(owner)), m_identity(std::move(identity)) {
    m_search.setInterval(250);
    connect(&m_search, &QTimer::timeout, this, &RemoteAttach::lookForOwner);
}

RemoteAttach::~RemoteAttach() {
    stopReading();
}

void RemoteAttach::start() {
    if (m_mode == Mode::Run) {
        submit();
        return;
    }
    if (m_identity) {
        watch(); // a server elsewhere: its history is not here; it refuses what it does not know
        return;
    }
    // As a local attach: a job the history has not, or has as finished, is refused here.
    MetricStore store;
    if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
        finish(kExitBadInput, QString::fromStdString(opened.error().message));
        return;
    }
    const JobRecord record = store.job(m_options.jobId);
    if (record.id.isEmpty()) {
        finish(kExitBadInput, QStringLiteral("no job %1 in the history %2: `tessera-ctl jobs` "
                                             "lists them")
                                  .arg(m_options.jobId, store.path()));
        return;
    }
    if (record.launcher == QLatin1String("tessera-ctl")) {
        finish(kExitBadInput,
               QStringLiteral("job %1 was started by `tessera-ctl run --detach --workers …`, on "
                              "workers of its own, and %2 does not follow it: %3 it with its "
                              "--workers (in the order of its run) and --token-file")
                   .arg(m_options.jobId, m_owner.describe(), m_options.command));
        return;
    }
    if (isTerminal(record.state)) {
        finish(
            kExitBadInput,
            QStringLiteral("job %1 %2 already%3")
                .arg(m_options.jobId, jobStateName(record.state),
                     record.reason.isEmpty() ? QString() : QStringLiteral(": ") + record.reason));
        return;
    }
    watch();
}

void RemoteAttach::submit() {
    Result<v1::JobSpec> spec = loadJobSpec(m_options.specPath.toStdString());
    if (!spec) {
        finish(kExitBadInput, QString::fromStdString(spec.error().message));
        return;
    }
    // The workdir is read here, on this machine: refuse a bad one before the backend rents.
    for (Result<void> ok : {validateJobSpec(*spec), checkWorkdir(*spec)}) {
        if (!ok) {
            finish(kExitBadInput, m_options.specPath + QStringLiteral(": ") +
                                      QString::fromStdString(ok.error().message));
            return;
        }
    }
    m_client = std::make_unique<BackendClient>(m_owner.endpoint, m_identity);
    Result<bv1::SubmitJobReply> submitted = m_client->submit(jobSpecToJson(*spec));
    if (!submitted) {
        const QString why = QString::fromStdString(submitted.error().message);
        if (submitted.error().code == ErrorCode::Unavailable) {
            finish(kExitUnreachable, why);
        } else if (submitted.error().code == ErrorCode::InvalidArgument) {
            finish(kExitBadInput, why); // the spec
        } else {
            finish(kExitBadInput,
                   QStringLiteral("%1 cannot run it on its cluster: %2. Its cluster is the "
                                  "machines rented for this data folder (the app's Cluster "
                                  "panel; with auto-provision on, it rents what is missing); "
                                  "`--local` runs the job on a local cluster of its own, "
                                  "`--workers A,B --token-file F` on workers you started")
                       .arg(m_owner.describe(), why));
        }
        return;
    }
    m_jobId = QString::fromStdString(submitted->job_id());
    if (submitted->queued()) {
        std::fprintf(stdout, "queued at %s as %s: its autoscaler rents the workers it misses\n",
                     qPrintable(m_owner.describe()), qPrintable(m_jobId));
    } else {
        std::fprintf(stdout, "job %s submitted to %s\n", qPrintable(m_jobId),
                     qPrintable(m_owner.describe()));
    }
    std::fflush(stdout);
    if (m_options.timeoutSeconds > 0) {
        // As a local run: past --timeout the job is cancelled and the run exits 1.
        QTimer::singleShot(std::chrono::seconds(m_options.timeoutSeconds), this, [this] {
            if (m_finishing) {
                return;
            }
            if (m_printer) {
                m_printer->breakLine();
            }
            std::fprintf(stderr,
                         "tessera-ctl: error: the job did not finish within --timeout %d s; "
                         "cancelling it\n",
                         m_options.timeoutSeconds);
            interrupt();
        });
    }
    if (m_options.detach && !submitted->queued()) {
        detached();
        return;
    }
    watch(); // --detach with a queued ticket: until the job it becomes runs
}

void RemoteAttach::detached() {
    std::fprintf(stdout,
                 "job %s goes on without tessera-ctl: `tessera-ctl attach %s` follows it, "
                 "`tessera-ctl status` lists it\n",
                 qPrintable(m_jobId), qPrintable(m_jobId));
    finish(kExitOk);
}

void RemoteAttach::watch() {
    stopReading();
    m_client = std::make_unique<BackendClient>(m_owner.endpoint, m_identity);
    m_context = std::make_unique<grpc::ClientContext>();
    // Again from a server elsewhere: what it stored meanwhile first, from the seq after the last
    // point seen (its history is not on this machine).
    const bool backfill = m_identity && m_lastSeq > 0;
    m_reader = std::thread([this, context = m_context.get(), client = m_client.get(),
                            jobId = m_jobId.toStdString(), backfill, from = m_lastSeq + 1] {
        bv1::WatchJobRequest request;
        request.set_job_id(jobId);
        request.set_backfill(backfill);
        request.set_from_seq(backfill ? from : 0);
        auto stream = client->stub().WatchJob(context, request);
        bv1::JobUpdate update;
        while (stream->Read(&update)) {
            QMetaObject::invokeMethod(this, tsanHandOff([this, update] { onUpdate(update); }),
                                      Qt::QueuedConnection);
        }
        const grpc::Status end = stream->Finish();
        QMetaObject::invokeMethod(
            this,
            tsanHandOff([this, code = int(end.error_code()),
                         message = QString::fromStdString(end.error_message())] {
                onEnded(code, message);
            }),
            Qt::QueuedConnection);
    });
}

void RemoteAttach::stopReading() {
    if (m_context) {
        m_context->TryCancel();
    }
    if (m_reader.joinable()) {
        m_reader.join();
    }
    m_context.reset();
}

void RemoteAttach::onUpdate(const bv1::JobUpdate& update) {
    if (m_finishing) {
        return;
    }
    if (update.has_metric()) {
        m_lastSeq = std::max<quint64>(m_lastSeq, update.metric().seq());
        MetricPoint p;
        p.jobId = m_jobId;
        p.seq = update.metric().seq();
        p.step = update.metric().step();
        p.rank = update.metric().rank();
        p.timeMs = update.metric().time_ms();
        for (const auto& [key, value] : update.metric().values()) {
            p.values.insert(QString::fromStdString(key), value);
        }
        if (m_printer) {
            m_printer->add(p);
        }
    } else if (update.has_log()) {
        if (m_options.verbose) {
            if (m_printer) {
                m_printer->breakLine();
            }
            std::fprintf(stdout, "%s\n", update.log().text().c_str());
        }
    } else if (update.has_recovery()) {
        if (m_printer) {
            QStringList workers;
            for (const std::string& w : update.recovery().workers()) {
                workers << QString::fromStdString(w);
            }
            m_printer->recovery(update.recovery().attempt(),
                                QString::fromStdString(update.recovery().cause()),
                                update.recovery().resume_step(), workers);
        }
    } else if (update.has_state()) {
        const bv1::StateUpdate& s = update.state();
        const QString state = QString::fromStdString(s.state());
        if (const QString id = QString::fromStdString(s.job_id()); !id.isEmpty() && id != m_jobId) {
            std::fprintf(stdout, "%s: its workers are ready; it runs as job %s\n",
                         qPrintable(m_jobId), qPrintable(id));
            m_jobId = id; // the queued ticket became the job
            m_printer.reset();
            m_announced = false;
            if (m_options.detach) {
                detached();
                return;
            }
        }
        if (!m_announced) { // first, and after a change of owner
            m_announced = true;
            if (m_printer) {
                m_printer->breakLine();
            }
            std::fprintf(stdout, "job %s: %s; following it through %s (step %lld stored)\n",
                         qPrintable(m_jobId), qPrintable(state), qPrintable(m_owner.describe()),
                         static_cast<long long>(s.last_step()));
            std::fflush(stdout);
        }
        if (!m_printer) {
            m_printer = std::make_unique<ProgressPrinter>(stdout, int(s.epochs()),
                                                          isatty(fileno(stdout)) != 0);
        }
        const JobState js = jobStateFromName(state);
        if (isTerminal(js)) {
            m_printer->summary(m_jobId, state);
            if (m_mode == Mode::Cancel ? js == JobState::Cancelled : js == JobState::Succeeded) {
                finish(kExitOk);
            } else {
                finish(kExitJobFailed,
                       QStringLiteral("job %1 %2: %3")
                           .arg(m_jobId, state,
                                s.reason().empty() ? QStringLiteral("no reason given")
                                                   : QString::fromStdString(s.reason())));
            }
            return;
        }
        if ((m_mode == Mode::Cancel || m_interrupted) && !m_cancelSent && js != JobState::Queued) {
            m_cancelSent = true;
            if (Result<void> asked = m_client->cancel(m_jobId); !asked) {
                finish(asked.error().code == ErrorCode::Unavailable ? kExitUnreachable
                                                                    : kExitBadInput,
                       QString::fromStdString(asked.error().message));
            }
        }
    }
}

void RemoteAttach::onEnded(int code, const QString& message) {
    if (m_finishing) {
        return;
    }
    if (code == grpc::StatusCode::NOT_FOUND) {
        finish(kExitBadInput,
               QStringLiteral("%1: %2 does not follow it; a job `tessera-ctl run --detach` started "
                              "is followed with its --workers")
                   .arg(message, m_owner.describe()));
        return;
    }
    if (code == grpc::StatusCode::OK) {
        return; // the terminal state came with it
    }
    if (m_printer) {
        m_printer->breakLine();
    }
    std::fprintf(stderr,
                 "tessera-ctl: %s stopped following %s (%s); looking for the data folder's next "
                 "backend\n",
                 qPrintable(m_owner.describe()), qPrintable(m_jobId), qPrintable(message));
    m_searchUntilMs = QDateTime::currentMSecsSinceEpoch() + kNextOwnerMs;
    m_search.start();
}

void RemoteAttach::lookForOwner() {
    if (m_identity) { // a server elsewhere: the same one, once it answers again
        if (BackendClient(m_owner.endpoint, m_identity).describe(1000)) {
            m_search.stop();
            m_announced = false;
            watch();
        } else if (QDateTime::currentMSecsSinceEpoch() >= m_searchUntilMs) {
            m_search.stop();
            finish(kExitUnreachable,
                   QStringLiteral("%1 does not answer; job %2 goes on there: attach again "
                                  "once it does")
                       .arg(m_owner.describe(), m_jobId));
        }
        return;
    }
    const std::optional<FolderOwner> next = DataFolderLock(dataDir()).otherOwner();
    // Another owner, or the same one serving again (it took the folder back, or woke up).
    const bool answers = next && !next->endpoint.isEmpty() &&
                         (next->pid != m_owner.pid || BackendClient(next->endpoint).describe(1000));
    if (answers) {
        m_search.stop();
        m_owner = *next;
        m_announced = false;
        watch();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() >= m_searchUntilMs) {
        m_search.stop();
        finish(kExitUnreachable,
               next ? QStringLiteral("%1 holds the data folder but does not answer (stopped or "
                                     "hung?); job %2 goes on on its workers: restart it "
                                     "(systemctl --user restart tessera-backend), then attach "
                                     "again")
                          .arg(next->describe(), m_jobId)
                    : QStringLiteral("nobody follows job %1 now (it goes on on its workers): "
                                     "start tessera-ctl serve or the app, then attach again")
                          .arg(m_jobId));
    }
}

void RemoteAttach::interrupt() {
    if (m_printer) {
        m_printer->breakLine();
    }
    if (m_mode == Mode::Run && !m_interrupted && !m_jobId.isEmpty() && m_client) {
        m_interrupted = true; // the next state update (or this one) cancels it
        std::fprintf(stderr, "\ntessera-ctl: interrupted; cancelling job %s\n",
                     qPrintable(m_jobId));
        if (Result<void> asked = m_client->cancel(m_jobId); asked) {
            m_cancelSent = true;
        } else if (asked.error().code != ErrorCode::AlreadyExists) {
            // still queued (no job to cancel yet) or gone: nothing to wait for
            finish(kExitJobFailed,
                   m_jobId.startsWith(QLatin1String("wait-"))
                       ? QStringLiteral("%1 is still queued at %2 and runs once its workers are "
                                        "ready: cancel it then (tessera-ctl status lists it)")
                             .arg(m_jobId, m_owner.describe())
                       : QString::fromStdString(asked.error().message));
        }
        return;
    }
    if (m_mode == Mode::Run) {
        finish(kExitJobFailed, QStringLiteral("interrupted again; job %1 goes on").arg(m_jobId));
        return;
    }
    std::fprintf(stderr,
                 "tessera-ctl: stopped following %s; it goes on (attach again or cancel it with "
                 "tessera-ctl)\n",
                 qPrintable(m_jobId));
    finish(kExitOk);
}

void RemoteAttach::finish(int code, const QString& message) {
    if (m_finishing) {
        return;
    }
    m_finishing = true;
    m_search.stop();
    if (!message.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", qPrintable(message));
        std::fflush(stderr);
    }
    QTimer::singleShot(0, this, [this, code] {
        stopReading();
        Q_EMIT finished(code);
    });
}

} // namespace tessera::ctl
