// `tessera-ctl nodes` and `jobs` (see listcommands.h).
#include "backend/ctl/listcommands.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/paths.h"
#include "backend/ctl/servercontact.h"
#include "backend/history/metricstore.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"
#include "worker/common/spec_io.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tessera::ctl {

namespace {

/// One JSON document on stdout, indented, with a final newline.
void printJson(const QJsonObject& o) {
    std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
    std::fflush(stdout);
}

/// A number of the history, or null where it has none (NaN).
QJsonValue jsonNumber(double v) {
    return std::isnan(v) ? QJsonValue() : QJsonValue(v);
}

void printNodesJson(const QList<WorkerNode>& nodes) {
    QJsonArray list;
    for (const WorkerNode& n : nodes) {
        list.append(QJsonObject{{QStringLiteral("name"), n.name},
                                {QStringLiteral("address"), n.address},
                                {QStringLiteral("state"), nodeStateName(n.state)},
                                {QStringLiteral("host"), n.host},
                                {QStringLiteral("slots"), n.slots},
                                {QStringLiteral("cores"), n.cores},
                                {QStringLiteral("memoryBytes"), double(n.memoryBytes)},
                                {QStringLiteral("error"), n.lastError}});
    }
    printJson({{QStringLiteral("nodes"), list}});
}

void printNodesTable(const QList<WorkerNode>& nodes) {
    std::printf("%-10s %-22s %-12s %-16s %5s %5s %9s\n", "NAME", "ADDRESS", "STATE", "HOST",
                "SLOTS", "CORES", "MEMORY");
    for (const WorkerNode& n : nodes) {
        std::printf("%-10s %-22s %-12s %-16s %5d %5d %7.1f G\n", qPrintable(n.name),
                    qPrintable(n.address), qPrintable(nodeStateName(n.state)),
                    qPrintable(n.host.isEmpty() ? QStringLiteral("-") : n.host), n.slots, n.cores,
                    static_cast<double>(n.memoryBytes) / (1024.0 * 1024.0 * 1024.0));
        if (!n.lastError.isEmpty()) {
            std::printf("           %s\n", qPrintable(n.lastError));
        }
    }
    std::fflush(stdout);
}

QString number(double v, int decimals) {
    return std::isnan(v) ? QStringLiteral("-") : QString::number(v, 'f', decimals);
}

/// A node of a server's cluster snapshot, as the listing prints it.
WorkerNode nodeOf(const tessera::backend::v1::NodeInfo& n) {
    WorkerNode w;
    w.name = QString::fromStdString(n.name());
    w.address = QString::fromStdString(n.address());
    w.host = QString::fromStdString(n.host());
    const QString state = QString::fromStdString(n.state());
    for (NodeState s :
         {NodeState::Connecting, NodeState::Ready, NodeState::Unreachable, NodeState::Stopped}) {
        if (nodeStateName(s) == state) {
            w.state = s;
        }
    }
    w.slots = n.slots();
    w.cores = n.cores();
    w.memoryBytes = n.memory_bytes();
    w.provider = QString::fromStdString(n.provider());
    w.lastError = QString::fromStdString(n.last_error());
    return w;
}

/// The cluster of a tessera-server (--server) or of the data folder's backend: kExitOk once
/// printed; nullopt when there is neither.
std::optional<int> serverNodes(const CtlOptions& options) {
    auto contact = serverContact(options);
    if (!contact) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", contact.error().message.c_str());
        return kExitBadInput;
    }
    std::unique_ptr<BackendClient> client;
    QString who;
    if (*contact) {
        client = std::make_unique<BackendClient>((*contact)->owner.endpoint, (*contact)->identity);
        who = (*contact)->owner.describe();
    } else if (const auto owner = DataFolderLock(dataDir()).otherOwner();
               owner && !owner->endpoint.isEmpty()) {
        client = std::make_unique<BackendClient>(owner->endpoint);
        who = owner->describe();
    } else {
        return std::nullopt;
    }
    auto snapshot = client->cluster();
    if (!snapshot) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", snapshot.error().message.c_str());
        return snapshot.error().code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
    }
    QList<WorkerNode> nodes;
    for (const auto& n : snapshot->nodes()) {
        nodes.append(nodeOf(n));
    }
    if (options.json) {
        printNodesJson(nodes);
    } else {
        std::printf("workers of %s:\n", qPrintable(who));
        printNodesTable(nodes);
    }
    return kExitOk;
}

} // namespace

NodesCommand::NodesCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options) {}

void NodesCommand::start() {
    if (m_options.workers.isEmpty()) {
        if (const std::optional<int> code = serverNodes(m_options)) {
            QMetaObject::invokeMethod(
                this, [this, c = *code] { Q_EMIT finished(c); }, Qt::QueuedConnection);
            return;
        }
        MetricStore store;
        if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
            std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
            QMetaObject::invokeMethod(
                this, [this] { Q_EMIT finished(kExitBadInput); }, Qt::QueuedConnection);
            return;
        }
        const QList<WorkerNode> nodes = store.nodes();
        if (nodes.isEmpty() && !m_options.json) {
            std::printf("no workers recorded yet: run a job (tessera-ctl run SPEC.json) or pass "
                        "--workers A,B --token-file F\n");
        } else if (m_options.json) {
            printNodesJson(nodes);
        } else {
            std::printf("workers of the last run (%s):\n", qPrintable(store.path()));
            printNodesTable(nodes);
        }
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT finished(kExitOk); }, Qt::QueuedConnection);
        return;
    }
    Result<QList<WorkerNode>> workers = manualWorkers(m_options);
    if (!workers) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", workers.error().message.c_str());
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT finished(kExitBadInput); }, Qt::QueuedConnection);
        return;
    }
    auto* registry = new ClusterRegistry(this);
    registry->setProbeInterval(0);
    connect(registry, &ClusterRegistry::nodeChanged, this, [this, registry] {
        const QList<WorkerNode> nodes = registry->nodes();
        int unreachable = 0;
        int refused = 0;
        for (const WorkerNode& n : nodes) {
            if (n.state == NodeState::Connecting) {
                return;
            }
            refused += n.tokenRefused ? 1 : 0;
            unreachable += n.state == NodeState::Ready || n.tokenRefused ? 0 : 1;
        }
        disconnect(registry, nullptr, this, nullptr);
        (m_options.json ? printNodesJson : printNodesTable)(nodes);
        if (refused > 0) {
            // A refused token is bad input (exit 2), not a worker that is down (exit 3).
            std::fprintf(stderr,
                         "tessera-ctl: error: %d worker(s) refused the token of %s or this "
                         "side's certificate (the list above says which)\n",
                         refused, qPrintable(m_options.tokenFile));
            Q_EMIT finished(kExitBadInput);
            return;
        }
        if (unreachable > 0) {
            std::fprintf(stderr, "tessera-ctl: error: %d worker(s) do not answer\n", unreachable);
        }
        Q_EMIT finished(unreachable > 0 ? kExitUnreachable : kExitOk);
    });
    for (const WorkerNode& n : *workers) {
        registry->addNode(n);
    }
}

namespace {

/// Opens the history for a listing; prints why not (the caller exits 2).
bool openHistory(MetricStore& store) {
    if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
        return false;
    }
    return true;
}

QString utcText(qint64 ms, Qt::DateFormat format) {
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(format);
}

void printJobsJson(const QString& source, const QList<JobRecord>& jobs, bool fromServer) {
    QJsonArray list;
    for (const JobRecord& j : jobs) {
        list.append(QJsonObject{{QStringLiteral("id"), j.id},
                                {QStringLiteral("name"), j.name},
                                {QStringLiteral("state"), jobStateName(j.state)},
                                {QStringLiteral("steps"), double(j.lastStep)},
                                {QStringLiteral("loss"), jsonNumber(j.lastLoss)},
                                {QStringLiteral("testAccuracy"), jsonNumber(j.testAccuracy)},
                                {QStringLiteral("submitted"), utcText(j.submittedMs, Qt::ISODate)},
                                {QStringLiteral("reason"), j.reason}});
    }
    printJson({{fromServer ? QStringLiteral("server") : QStringLiteral("history"), source},
               {QStringLiteral("jobs"), list}});
}

void printJobsTable(const QList<JobRecord>& jobs) {
    std::printf("%-26s %-40s %-10s %8s %9s %10s %s\n", "ID", "NAME", "STATE", "STEPS", "LOSS",
                "TEST ACC", "SUBMITTED (UTC)");
    for (const JobRecord& j : jobs) {
        std::printf("%-26s %-40s %-10s %8lld %9s %10s %s\n", qPrintable(j.id),
                    qPrintable(j.name.left(40)), qPrintable(jobStateName(j.state)),
                    static_cast<long long>(j.lastStep), qPrintable(number(j.lastLoss, 4)),
                    qPrintable(number(j.testAccuracy, 4)),
                    qPrintable(QDateTime::fromMSecsSinceEpoch(j.submittedMs, Qt::UTC)
                                   .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))));
        if (!j.reason.isEmpty() && j.state != JobState::Succeeded) {
            std::printf("    %s\n", qPrintable(j.reason.left(300)));
        }
    }
    std::fflush(stdout);
}

/// A server's job summary as the history's record (what `jobs` prints of it).
JobRecord recordOf(const tessera::backend::v1::JobSummary& s) {
    JobRecord r;
    r.id = QString::fromStdString(s.id());
    r.name = QString::fromStdString(s.name());
    r.state = jobStateFromName(QString::fromStdString(s.state()));
    r.reason = QString::fromStdString(s.reason());
    r.submittedMs = s.submitted_ms();
    r.lastStep = s.last_step();
    if (s.has_last_loss()) {
        r.lastLoss = s.last_loss();
    }
    if (s.has_test_accuracy()) {
        r.testAccuracy = s.test_accuracy();
    }
    r.owner = QString::fromStdString(s.owner());
    return r;
}

/// `jobs` through the server of `contact`: its followed jobs, tickets and newest 1,000.
int printServerJobs(const ServerContact& contact, bool json) {
    BackendClient client(contact.owner.endpoint, contact.identity);
    auto summaries = client.jobs(1000);
    if (!summaries) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", summaries.error().message.c_str());
        return summaries.error().code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
    }
    QList<JobRecord> jobs;
    for (const auto& s : *summaries) {
        jobs << recordOf(s);
    }
    if (json) {
        printJobsJson(contact.owner.endpoint, jobs, true);
    } else if (jobs.isEmpty()) {
        std::printf("no jobs yet (server: %s)\n", qPrintable(contact.owner.endpoint));
    } else {
        printJobsTable(jobs);
    }
    return kExitOk;
}

} // namespace

int printJobs(const CtlOptions& options) {
    auto contact = serverContact(options);
    if (!contact) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", contact.error().message.c_str());
        return kExitBadInput;
    }
    if (*contact) {
        return printServerJobs(**contact, options.json);
    }
    MetricStore store;
    if (!openHistory(store)) {
        return kExitBadInput;
    }
    const QList<JobRecord> jobs = store.jobs();
    if (options.json) {
        printJobsJson(store.path(), jobs, false);
    } else if (jobs.isEmpty()) {
        std::printf("no jobs yet (history: %s)\n", qPrintable(store.path()));
    } else {
        printJobsTable(jobs);
    }
    return kExitOk;
}

namespace {

/// The workers of a stored job's placement, rank 0's first; empty when the spec has none.
QStringList placedWorkers(const JobRecord& job) {
    QStringList names;
    if (auto spec = parseJobSpec(job.specJson.toStdString(), job.id.toStdString())) {
        for (const auto& slot : spec->placement().slots()) {
            names << QString::fromStdString(slot.worker());
        }
    }
    return names;
}

/// The state `status` shows: as recorded, or "not followed" for an unfinished job whose follower
/// died (FollowerLock::sweep): nobody knows whether it still runs.
QString shownState(const JobRecord& job) {
    return job.unfollowedMs > 0 && !isTerminal(job.state) ? QStringLiteral("not followed")
                                                          : jobStateName(job.state);
}

/// One job of `status`: as recorded, its newest attempt's workers when it was relaunched.
struct StatusRow {
    JobRecord job;
    int attempt = 0; ///< the newest stored attempt's number; 0 when it has none (one launch)
    QString launcher;
};

QList<StatusRow> statusRows(const MetricStore& store, const QList<JobRecord>& jobs) {
    QList<StatusRow> rows;
    for (const JobRecord& j : jobs) {
        StatusRow row{j, 0, j.launcher.isEmpty() ? QStringLiteral("app") : j.launcher};
        if (const QList<AttemptRecord> attempts = store.attempts(j.id); !attempts.isEmpty()) {
            row.job.specJson = attempts.last().specJson; // relaunched: the newest attempt's
            row.attempt = attempts.last().attempt;
        }
        rows << row;
    }
    return rows;
}

/// `where`: {"dataDir": …} for the local history, {"server": HOST:PORT} for a server's.
void printStatusJson(const std::optional<FolderOwner>& owner, const QList<StatusRow>& rows,
                     const QJsonObject& where) {
    QJsonArray list;
    for (const StatusRow& r : rows) {
        list.append(QJsonObject{
            {QStringLiteral("id"), r.job.id},
            {QStringLiteral("name"), r.job.name},
            {QStringLiteral("state"), shownState(r.job)},
            {QStringLiteral("steps"), double(r.job.lastStep)},
            {QStringLiteral("loss"), jsonNumber(r.job.lastLoss)},
            {QStringLiteral("launcher"), r.launcher},
            {QStringLiteral("attempt"), std::max(r.attempt, 1)},
            {QStringLiteral("workers"), QJsonArray::fromStringList(placedWorkers(r.job))},
            {QStringLiteral("reason"), r.job.reason}});
    }
    QJsonObject out = where;
    out.insert(QStringLiteral("owner"), owner ? QJsonValue(owner->describe()) : QJsonValue());
    out.insert(QStringLiteral("jobs"), list);
    printJson(out);
}

void printStatusTable(const std::optional<FolderOwner>& owner, const QList<StatusRow>& rows) {
    std::printf("%-26s %-30s %-10s %8s %9s %-12s %s\n", "ID", "NAME", "STATE", "STEPS", "LOSS",
                "LAUNCHER", "WORKERS");
    for (const StatusRow& r : rows) {
        const JobRecord& j = r.job;
        const QString shown =
            r.attempt > 0 ? j.name.left(25) + QStringLiteral(" #%1").arg(r.attempt) : j.name;
        std::printf("%-26s %-30s %-10s %8lld %9s %-12s %s\n", qPrintable(j.id),
                    qPrintable(shown.left(30)), qPrintable(shownState(j)),
                    static_cast<long long>(j.lastStep), qPrintable(number(j.lastLoss, 4)),
                    qPrintable(r.launcher), qPrintable(placedWorkers(j).join(QLatin1Char(','))));
        if (!j.reason.isEmpty()) {
            std::printf("    %s\n", qPrintable(j.reason.left(300)));
        }
    }
    const bool detachedRuns = std::any_of(rows.cbegin(), rows.cend(), [](const StatusRow& r) {
        return r.job.launcher == QLatin1String("tessera-ctl");
    });
    if (owner) {
        std::printf("(states as recorded; `tessera-ctl attach JOB` follows a job through %s%s)\n",
                    qPrintable(owner->describe()),
                    detachedRuns ? ", one launched by tessera-ctl with its --workers A,B "
                                   "--token-file F"
                                 : "");
    } else {
        std::printf("(states as recorded; `tessera-ctl attach JOB --workers A,B --token-file F` "
                    "follows a job left running)\n");
    }
    std::fflush(stdout);
}

} // namespace

namespace {

/// `status` through the server of `contact`: the jobs it follows (or `jobId`), with who
/// submitted each in the LAUNCHER column.
int printServerStatus(const ServerContact& contact, const QString& jobId, bool json) {
    BackendClient client(contact.owner.endpoint, contact.identity);
    auto summaries = client.jobs(1000);
    if (!summaries) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", summaries.error().message.c_str());
        return summaries.error().code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
    }
    QList<StatusRow> rows;
    for (const auto& s : *summaries) {
        JobRecord r = recordOf(s);
        r.specJson = QString::fromStdString(s.spec_json());
        if (jobId.isEmpty() ? !isTerminal(r.state) : r.id == jobId) {
            rows << StatusRow{r, 0, r.owner};
        }
    }
    if (!jobId.isEmpty() && rows.isEmpty()) {
        std::fprintf(stderr,
                     "tessera-ctl: error: the server at %s knows no job %s among its newest "
                     "1,000 (tessera-ctl jobs --server lists them)\n",
                     qPrintable(contact.owner.endpoint), qPrintable(jobId));
        return kExitBadInput;
    }
    if (json) {
        printStatusJson(contact.owner, rows, {{QStringLiteral("server"), contact.owner.endpoint}});
    } else if (rows.isEmpty()) {
        std::printf("%s follows no unfinished job\n", qPrintable(contact.owner.describe()));
    } else {
        printStatusTable(contact.owner, rows);
    }
    return kExitOk;
}

} // namespace

int printStatus(const CtlOptions& options) {
    auto contact = serverContact(options);
    if (!contact) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", contact.error().message.c_str());
        return kExitBadInput;
    }
    if (*contact) {
        return printServerStatus(**contact, options.jobId, options.json);
    }
    const QString& jobId = options.jobId;
    const bool json = options.json;
    MetricStore store;
    if (!openHistory(store)) {
        return kExitBadInput;
    }
    QList<JobRecord> jobs;
    if (!jobId.isEmpty()) {
        const JobRecord one = store.job(jobId);
        if (one.id.isEmpty()) {
            std::fprintf(stderr, "tessera-ctl: error: no job %s in the history %s\n",
                         qPrintable(jobId), qPrintable(store.path()));
            return kExitBadInput;
        }
        jobs << one;
    } else {
        for (const JobRecord& j : store.jobs()) {
            if (!isTerminal(j.state)) {
                jobs << j;
            }
        }
    }
    const std::optional<FolderOwner> owner = DataFolderLock(dataDir()).otherOwner();
    const QList<StatusRow> rows = statusRows(store, jobs);
    if (json) {
        printStatusJson(owner, rows, {{QStringLiteral("dataDir"), dataDir()}});
        return kExitOk;
    }
    if (owner) {
        std::printf("backend of %s: %s\n", qPrintable(dataDir()), qPrintable(owner->describe()));
    } else {
        std::printf("backend of %s: none (jobs left running are followed again once tessera-ctl "
                    "serve or the app starts)\n",
                    qPrintable(dataDir()));
    }
    if (rows.isEmpty()) {
        std::printf("no unfinished jobs (history: %s)\n", qPrintable(store.path()));
        return kExitOk;
    }
    printStatusTable(owner, rows);
    return kExitOk;
}

} // namespace tessera::ctl
