// tessera-ctl's subcommands: one declaration each (see ctlcli.h).
#include "backend/ctl/ctlcli.h"
#include "backend/ctl/runners.h"

namespace tessera::ctl {

namespace {

Result<void> refuse(const QString& what) {
    return fail(ErrorCode::InvalidArgument, what.toStdString());
}

/// Exactly one argument into `into`; `what` says what to give when there is not.
Result<void> one(const std::vector<std::string>& args, QString& into, const QString& what) {
    if (args.size() != 1) {
        return refuse(what);
    }
    into = QString::fromStdString(args.front());
    return {};
}

Result<void> none(const std::vector<std::string>& args, const char* command) {
    return args.empty() ? Result<void>{}
                        : refuse(QStringLiteral("%1 takes no arguments").arg(command));
}

Result<void> jobOf(const std::vector<std::string>& args, CtlOptions& o) {
    return one(args, o.jobId,
               QStringLiteral("%1 takes exactly one job id (tessera-ctl status lists the "
                              "unfinished ones), e.g. tessera-ctl %1 job-20261202-150405-1 "
                              "--workers A,B --token-file F")
                   .arg(o.command));
}

Result<void> cloudArgs(const std::vector<std::string>& args, CtlOptions& o) {
    if (o.command == QLatin1String("rent")) {
        return one(args, o.offerId,
                   QStringLiteral("rent takes exactly one offer (tessera-ctl offers lists them), "
                                  "e.g. tessera-ctl rent gpu_1x_a10"));
    }
    return none(args, qPrintable(o.command));
}

Result<void> releaseArgs(const std::vector<std::string>& args, CtlOptions& o) {
    // With --all none, else one: checked once the options are read (ctlcli.cpp).
    if (args.size() > 1) {
        return refuse(QStringLiteral("release takes one lease id (tessera-ctl leases lists "
                                     "them), or --all"));
    }
    o.target = args.empty() ? QString() : QString::fromStdString(args.front());
    return {};
}

/// The options that reach a cluster of running workers instead of a local one, and `more`.
std::vector<const char*> onWorkers(std::initializer_list<const char*> more = {}) {
    std::vector<const char*> all = {"workers", "token-file", "tls",
                                    "tls-ca",  "tls-cert",   "tls-key"};
    all.insert(all.end(), more);
    return all;
}

const char* const kCloudOptions = "provider";

/// The table, in the order `tessera-ctl --help` lists it.
const std::vector<Subcommand> kSubcommands = {
    {"run", "SPEC.json", "run a job and follow it to its end",
     "Without --workers it rents a local cluster of one-slot workers (as many as the spec's "
     "world size) and releases it afterwards. With serve or the app running (and no "
     "--workers) the job is submitted to their cluster and followed through them; --local "
     "rents a local cluster for it even then. Prints progress, then the result; Ctrl-C "
     "cancels the job.",
     onWorkers({"timeout", "local", "detach", "server", "identity"}),
     [](const std::vector<std::string>& a, CtlOptions& o) {
         return one(a, o.specPath,
                    QStringLiteral("run takes exactly one spec file, e.g. tessera-ctl run "
                                   "resources/examples/fashion-mnist-mlp.json"));
     },
     runJob},
    {"attach", "JOB", "follow a job left running to its end",
     "A job left by run --detach, or by the app quit with \"keep running\": the points "
     "printed meanwhile are stored too. With serve or the app running it goes through them; "
     "else it needs the job's --workers in the order of its run. Ctrl-C stops following; "
     "the job goes on.",
     onWorkers({"server", "identity"}), jobOf, runAttach},
    {"cancel", "JOB", "stop a job left running and wait until it is cancelled",
     "Finds the job as attach does. Through tessera-server only its owner or an admin may.",
     onWorkers({"server", "identity"}), jobOf, runCancel},
    {"serve",
     "",
     "the data folder's backend without a window, as a service",
     "Follows the folder's jobs (recovery, relaunch), re-adopts its leases (idle release, "
     "budget) and records the history; hands the folder to the app when it starts and "
     "takes it back when it closes. TERM stops it; the jobs go on.",
     {},
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "serve"); },
     runServe},
    {"status",
     "[JOB]",
     "the unfinished jobs of the history, and who owns the data folder",
     "State, steps, loss, workers and launcher of every job the history records as not "
     "finished (or of JOB), as recorded: attach asks the workers. With --server: the jobs that "
     "server follows, and who submitted each.",
     {"json", "server", "identity"},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         if (a.size() > 1) {
             return refuse(QStringLiteral("status takes at most one job id"));
         }
         o.jobId = a.empty() ? QString() : QString::fromStdString(a.front());
         return Result<void>{};
     },
     runStatus},
    {"nodes", "",
     "workers of --workers probed with GetInfo, of a tessera-server, or the local ones used last",
     "With --server (or the data folder's backend running): that backend's cluster now. Exit "
     "code 3 when one does not answer, 2 when one refuses the token.",
     onWorkers({"json", "server", "identity"}),
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "nodes"); }, runNodes},
    {"jobs",
     "",
     "the job history: id, name, state, last loss, test accuracy",
     "With --server: that server's jobs (those it follows, queued ones, its newest 1,000).",
     {"json", "server", "identity"},
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "jobs"); },
     runJobs},
    {"logs",
     "JOB",
     "a job's log lines from the history",
     "\"[r3] ...\" for rank 3's lines, \"[worker] ...\" for Tessera's own; with --rank only "
     "that rank's, as printed. With --server: that server's history.",
     {"rank", "follow", "server", "identity"},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         return one(a, o.jobId,
                    QStringLiteral("logs takes exactly one job id (tessera-ctl jobs lists "
                                   "them), e.g. tessera-ctl logs job-20261202-150405-1"));
     },
     runLogs},
    {"export-tb",
     "JOB DIR",
     "a job's metric points from the history as TensorBoard event files in DIR",
     "Writes DIR/JOB/events.out.tfevents.<time>.<host>.tessera (DIR/JOB/rank-R/... when several "
     "ranks have points): one scalar per value and step, stamped with the time the worker read "
     "it; a relaunched job's attempts as one curve, as the charts show it. tensorboard --logdir "
     "DIR then shows the run. Each file is written whole or not at all; an earlier export of the "
     "job there is replaced. Prints the files; exit 2 when the job is unknown, has no points or "
     "DIR cannot be written.",
     {},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         if (a.size() != 2) {
             return refuse(QStringLiteral("export-tb takes a job id (tessera-ctl jobs lists "
                                          "them) and a folder, e.g. tessera-ctl export-tb "
                                          "job-20261202-150405-1 runs/"));
         }
         o.jobId = QString::fromStdString(a[0]);
         o.exportDir = QString::fromStdString(a[1]);
         return Result<void>{};
     },
     runExportTb},
    {"calibrate", "", "fit the planner to the cluster",
     "Runs tessera-train --probe on every rank of the cluster (a local one of --ranks "
     "one-slot workers, or --workers), fits the planner's per-node calibration, stores it "
     "in the data folder (calibration.json) and prints it.",
     onWorkers({"ranks", "rounds", "append"}),
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "calibrate"); },
     runCalibrate},
    {"certify",
     "",
     "issue a certificate for a worker started by hand, or for a person (tessera-server)",
     "From this data folder's cluster CA. --hosts: a worker's (prints its tessera-worker "
     "flags). --client NAME: a person's, which tessera-server --listen admits as user NAME "
     "(give the folder to them; keep client.key private). --revoke NAME: refuse NAME's "
     "certificates from now on.",
     {"hosts", "out", "name", "client", "revoke"},
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "certify"); },
     runCertify},
    {"audit",
     "",
     "who changed what, and when: the server's audit log",
     "Submissions, cancels (and refused ones), rents and releases through tessera-server or "
     "the data folder's backend, newest last. Read from the history when no backend runs.",
     {"json", "limit", "server", "identity"},
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "audit"); },
     runAudit},
    {"token",
     "FILE",
     "write a new bearer token for a worker into FILE (mode 0600)",
     "32 random bytes as 64 hex digits; FILE must not exist yet (- prints the token). Start "
     "the worker with --token-file FILE and give tessera-ctl the same --token-file.",
     {},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         return one(a, o.target,
                    QStringLiteral("token takes exactly one file to create, e.g. tessera-ctl "
                                   "token /etc/tessera/worker.token"));
     },
     runToken},
    {"offers",
     "",
     "what the cloud rents now, cheapest first",
     "Type, GPUs, memory, price per hour and the regions with capacity.",
     {kCloudOptions, "json", "server", "identity"},
     cloudArgs,
     runCloud},
    {"rent",
     "OFFER",
     "rent one instance of OFFER and wait until its worker is ready",
     "OFFER is an instance type from offers; it stays rented after tessera-ctl exits. "
     "Ctrl-C terminates what it launched. With --server: an offer of that server's "
     "providers (--provider local, ssh, slurm or lambda), rented for you.",
     {kCloudOptions, "json", "server", "identity"},
     cloudArgs,
     runCloud},
    {"leases",
     "",
     "the live leases of every provider, and the instances Tessera lost",
     "After reconciling the cloud's leases with its instances.",
     {kCloudOptions, "json", "server", "identity"},
     cloudArgs,
     runCloud},
    {"release",
     "[ID]",
     "release a lease (or terminate a lost instance), or --all",
     "Waits until the cloud reports it terminated.",
     {kCloudOptions, "json", "all", "server", "identity"},
     releaseArgs,
     runCloud},
    {"cost",
     "",
     "what every lease has cost so far and what the live ones bill per hour",
     "",
     {kCloudOptions, "json"},
     cloudArgs,
     runCloud},
    {"cloud-key",
     "",
     "store the cloud's API key read from stdin (one line)",
     "In the desktop keyring when there is one, else in a 0600 file of the data folder.",
     {kCloudOptions},
     cloudArgs,
     runCloud},
    {"export",
     "LAYOUT",
     "a layout file as Megatron-LM, DeepSpeed or torchtitan settings",
     "LAYOUT is a *.tessera-plan.json the designer saved. Prints what the designer's Export "
     "shows, byte for byte: Megatron-LM's arguments for pretrain_gpt.py, DeepSpeed's "
     "ds_config.json (the notes on what it cannot hold on stderr) or a torchtitan TOML job "
     "config.",
     {"to"},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         return one(a, o.specPath,
                    QStringLiteral("export takes exactly one layout file, e.g. tessera-ctl "
                                   "export --to megatron my.tessera-plan.json"));
     },
     runExport},
    {"plan",
     "",
     "the planner without a window: a layout's memory, step time and MFU, or --auto",
     "--model is a config.json or a model Tessera ships; --cluster the machines. Without "
     "--auto the layout is --dp/--tp/--pp (blocks split evenly, the embedding with the first "
     "stage, the head with the last) or a designer --layout file; with --auto the best layouts "
     "that fit, each with its reason (recompute and SP chosen too unless given). Prints a table, "
     "or one JSON object (--json) with params, "
     "activeParams, modelFlopsPerStep, stepTimeS, split, peakMemoryBytes, fits, tokensPerS, "
     "mfu and layout; --auto: a layouts array of them. A layout that does not fit is printed "
     "with its problems (exit 0); bad input exits 2.",
     {"model",
      "cluster",
      "layout",
      "dp",
      "tp",
      "pp",
      "vpp",
      "cp",
      "ep",
      "micro-batch",
      "global-batch",
      "seq-len",
      "zero",
      "recompute",
      "sp",
      "tp-overlap",
      "precision",
      "schedule",
      "flash-attention",
      "auto",
      "top",
      "json"},
     [](const std::vector<std::string>& a, CtlOptions&) { return none(a, "plan"); },
     runPlan},
    {"completion",
     "[SHELL]",
     "the bash completion script of tessera-ctl",
     "Source it (source <(tessera-ctl completion bash)) or install it as "
     "/usr/share/bash-completion/completions/tessera-ctl.",
     {},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         if (a.size() > 1 || (a.size() == 1 && a.front() != "bash")) {
             return refuse(QStringLiteral("completion is generated for bash only, e.g. "
                                          "tessera-ctl completion bash"));
         }
         o.topic = QStringLiteral("bash");
         return Result<void>{};
     },
     runCompletion},
    {"help",
     "[SUB]",
     "this list, or what SUB does and its options",
     "",
     {},
     [](const std::vector<std::string>& a, CtlOptions& o) {
         if (a.size() > 1 || (a.size() == 1 && !findSubcommand(a.front()))) {
             return refuse(QStringLiteral("help takes one subcommand, e.g. tessera-ctl "
                                          "help run"));
         }
         o.topic = a.empty() ? QString() : QString::fromStdString(a.front());
         return Result<void>{};
     },
     runHelp},
};

} // namespace

const std::vector<Subcommand>& subcommands() {
    return kSubcommands;
}

} // namespace tessera::ctl
