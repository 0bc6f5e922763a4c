// What tessera-ctl's command line asked for (ctlcli.h reads it), its exit codes, and the workers
// that --workers names.
#pragma once

#include "backend/core/workernode.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <map>
#include <set>
#include <string>

namespace tessera {
class ClusterRegistry;
}

namespace tessera::ctl {

/// Exit codes of tessera-ctl.
enum ExitCode {
    kExitOk = 0,          ///< job succeeded / listing done
    kExitJobFailed = 1,   ///< job failed, was cancelled or timed out
    kExitBadInput = 2,    ///< bad spec, flag or file; refused token; too many local ranks
    kExitUnreachable = 3, ///< a worker does not answer
};

/// Parsed command line.
struct CtlOptions {
    QString command;        ///< the subcommand's name (ctlcli.h: subcommands())
    QString specPath;       ///< run: the spec file; export: the layout file
    QStringList workers;    ///< --workers ADDR,ADDR...: use these workers instead of renting
    QString tokenFile;      ///< --token-file F: bearer token of the --workers
    int timeoutSeconds = 0; ///< --timeout S: cancel the job after S seconds; 0 = none
    bool verbose = false;   ///< --verbose: also print the job's log lines
    int ranks = 4;          ///< calibrate --ranks N: probe ranks (local workers, or the slots
                            ///< of --workers together)
    int rounds = 1;         ///< calibrate --rounds N: probe jobs whose records are pooled
    bool append = false;    ///< calibrate --append: pool with the stored calibration's records
    QString jobId;          ///< logs, attach, cancel: the job; status: the job or "" for all
    bool local = false;     ///< run --local: a local cluster even with the folder's backend running
    bool detach = false;    ///< run --detach: exit once the job runs (--workers or an owner)
    int rank = -2;          ///< logs --rank R: that rank's lines, −1 ("none") those of no rank,
                            ///< −2 (default) all
    bool follow = false;    ///< logs --follow: print new lines until the job ends
    bool tls = false;       ///< --tls: reach --workers over mutual TLS as the cluster CA's backend
    QString tlsCa, tlsCert, tlsKey; ///< --tls-ca/--tls-cert/--tls-key: another TLS identity
    QStringList hosts;   ///< certify --hosts H,H: the names/addresses the certificate is for
    QString outDir;      ///< certify --out D: where worker.key, worker.crt and ca.crt go
    QString name;        ///< certify --name N: the worker's name in its certificate
    QString client;      ///< certify --client NAME: a person's certificate for tessera-server
    QString revoke;      ///< certify --revoke NAME: revoke NAME's client certificates
    int limit = 100;     ///< audit --limit N: the newest N lines
    QString server;      ///< --server HOST:PORT: a tessera-server over mutual TLS ("" = none)
    QString identityDir; ///< --identity D: client.crt, client.key and ca.crt for --server
    QString offerId;     ///< rent OFFER: the instance type (or other offer id) to rent
    QString target;      ///< release ID: a lease id or the id of an instance Tessera lost track of
    bool all = false;    ///< release --all: every live lease and every lost instance
    bool json = false;   ///< --json: the listing commands print JSON
    QString provider = QStringLiteral("lambda"); ///< --provider P: the cloud (offers, rent, key)
    QString exportTo;  ///< export --to: "megatron", "deepspeed" or "torchtitan"
    QString exportDir; ///< export-tb JOB DIR: the folder the event files go under
    QString topic;     ///< help SUB: the subcommand; completion SHELL: "bash"
    /// plan: its options as given (name → value; flags by name), read by readPlanRequest.
    std::map<std::string, std::string> planValues;
    std::set<std::string> planFlags;
};

/// The workers named by `--workers`, as registry nodes "worker-1", "worker-2", ... with the token
/// of `--token-file`, reached over mutual TLS with `--tls` (the cluster CA's backend identity) or
/// `--tls-ca/--tls-cert/--tls-key`, else in plaintext. Errors: those of readBearerTokenFile,
/// naming the token file; Io/InvalidArgument for a TLS file or the cluster CA.
Result<QList<WorkerNode>> manualWorkers(const CtlOptions& options);

/// Adds manualWorkers(options) to `registry` (each is probed). Errors: those of manualWorkers.
Result<void> addManualWorkers(const CtlOptions& options, ClusterRegistry& registry);

} // namespace tessera::ctl
