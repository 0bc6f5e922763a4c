// tessera-ctl command line parsing (see ctloptions.h).
#include "backend/ctl/ctloptions.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/tls/clusterca.h"
#include "worker/common/bearer_token.h"

#include <QCommandLineParser>
#include <QFile>

namespace tessera::ctl {

namespace {

const char* const kUsage =
    "usage: tessera-ctl <command> [options]\n"
    "commands:\n"
    "  run SPEC.json   run a job; without --workers it rents a local cluster of one-slot\n"
    "                  workers (as many as the spec's world size) and releases it afterwards\n"
    "                  (--detach with --workers: exit once it runs, leaving it running);\n"
    "                  with serve or the app running (and no --workers), it is submitted to\n"
    "                  their cluster and followed through them (--detach: exit once it\n"
    "                  runs); --local rents a local cluster for it even then\n"
    "  attach JOB      follow a job left running (run --detach, or the app quit with \"keep\n"
    "                  running\") to its end: the points printed meanwhile are stored; with\n"
    "                  serve or the app running, through them; else it needs the job's\n"
    "                  --workers in the order of its run; Ctrl-C stops following\n"
    "  cancel JOB      stop such a job (as attach finds it) and wait until it is cancelled\n"
    "  serve           the backend of the data folder without a window, as a service: follows\n"
    "                  its jobs (recovery, relaunch), re-adopts its leases (idle release,\n"
    "                  budget), records the history; hands the folder to the app when it\n"
    "                  starts and takes it back when it closes; TERM stops it (jobs go on)\n"
    "  status [JOB]    the jobs the history records as not finished (or JOB): state, steps,\n"
    "                  loss, workers, who launched them; who owns the data folder now\n"
    "  nodes           workers of --workers probed with GetInfo, or the local ones used last\n"
    "  jobs            job history: id, name, state, last loss, test accuracy\n"
    "  logs JOB        a job's log lines from the history (\"[r3] ...\" for rank 3's,\n"
    "                  \"[worker] ...\" for Tessera's own); with --rank only that rank's,\n"
    "                  as printed\n"
    "  calibrate       run tessera-train --probe on every rank of the cluster (a local one of\n"
    "                  --ranks one-slot workers, or --workers), fit the planner's per-node\n"
    "                  calibration, store it in the data folder (calibration.json), print it\n"
    "  certify         issue a certificate from this data folder's cluster CA for a worker\n"
    "                  started by hand (--hosts, --out); prints its tessera-worker flags\n"
    "  offers          what the cloud (--provider, default lambda) rents now: type, GPUs,\n"
    "                  memory, price per hour, regions with capacity, cheapest first\n"
    "  rent OFFER      rent one instance of OFFER (an instance type from offers) and wait\n"
    "                  until its worker is ready; it stays rented after tessera-ctl exits\n"
    "  leases          live leases of every provider, after reconciling the cloud's with\n"
    "                  its instances, and the instances Tessera lost track of\n"
    "  release ID      release lease ID (or terminate lost instance ID) and wait until the\n"
    "                  cloud reports it terminated; --all releases everything\n"
    "  cost            what every lease has cost so far and what the live ones bill per hour\n"
    "  cloud-key       store the cloud's API key read from stdin (one line) in a 0600 file\n"
    "options:\n"
    "  --workers A,B   host:port of running tessera-workers to use (needs --token-file)\n"
    "  --token-file F  file holding the workers' bearer token\n"
    "  --tls           reach --workers over mutual TLS with the cluster CA (their certificates\n"
    "                  from tessera-ctl certify); without it, plaintext\n"
    "  --tls-ca F --tls-cert F --tls-key F\n"
    "                  reach --workers over mutual TLS with this CA, certificate and key\n"
    "  --hosts H,H     certify: host names and IP addresses the others reach the worker at\n"
    "  --out D         certify: folder for worker.key (0600), worker.crt and ca.crt\n"
    "  --name N        certify: the worker's name in its certificate (default: the first host)\n"
    "  --timeout S     run: cancel the job after S seconds (exit code 1)\n"
    "  --local         run: a local cluster of its own, even with serve or the app running\n"
    "  --detach        run: exit 0 once the job runs on --workers (or was submitted to\n"
    "                  serve or the app), leaving it running\n"
    "  --verbose       run: also print the job's log lines\n"
    "  --ranks N       calibrate: probe ranks (default 4; with --workers, their slots)\n"
    "  --rounds N      calibrate: run the probes N times (default 1) and fit their pooled\n"
    "                  records: steadier on a host whose pace wanders (shared cores)\n"
    "  --append        calibrate: pool the new records with those of the stored calibration\n"
    "                  (same workers) and refit: calibrations spread over time\n"
    "  --rank R        logs: only rank R's lines (\"none\": those no rank printed)\n"
    "  --follow        logs: keep printing new lines until the job ends\n"
    "  --json          offers, rent, leases, release, cost: print JSON\n"
    "  --provider P    offers, rent, cloud-key: the cloud (default lambda)\n"
    "  --all           release: every live lease and every lost instance\n"
    "exit codes: 0 ok, 1 job failed or cancelled, 2 bad input, 3 a worker does not answer\n";

Result<std::string> readPemFile(const QString& path, const char* flag) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, std::string(flag) + " '" + path.toStdString() +
                                       "' cannot be read: " + f.errorString().toStdString());
    }
    return f.read(1 << 20).toStdString();
}

/// The TLS identity --tls or --tls-ca/--tls-cert/--tls-key ask for; null for plaintext.
Result<std::shared_ptr<const tls::Identity>> tlsIdentity(const CtlOptions& o) {
    if (o.tls) {
        auto ca = ClusterCa::shared();
        if (!ca) {
            return relay(ca, "--tls: ");
        }
        return (*ca)->backendIdentity();
    }
    if (o.tlsCa.isEmpty()) {
        return std::shared_ptr<const tls::Identity>();
    }
    auto ca = readPemFile(o.tlsCa, "--tls-ca");
    auto cert = readPemFile(o.tlsCert, "--tls-cert");
    auto key = readPemFile(o.tlsKey, "--tls-key");
    if (!ca || !cert || !key) {
        return relay(!ca ? ca : !cert ? cert : key);
    }
    if (!tls::keyMatches(*key, *cert)) {
        return fail(ErrorCode::InvalidArgument, "--tls-key '" + o.tlsKey.toStdString() +
                                                    "' is not the key of --tls-cert '" +
                                                    o.tlsCert.toStdString() + "'");
    }
    return std::make_shared<const tls::Identity>(tls::Identity{*ca, *cert, *key});
}

} // namespace

Result<CtlOptions> parseCtlOptions(const QStringList& arguments) {
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption workers(QStringLiteral("workers"), QString(), QStringLiteral("A,B"));
    const QCommandLineOption tokenFile(QStringLiteral("token-file"), QString(),
                                       QStringLiteral("F"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QString(), QStringLiteral("S"));
    const QCommandLineOption verbose(QStringLiteral("verbose"));
    const QCommandLineOption ranks(QStringLiteral("ranks"), QString(), QStringLiteral("N"));
    const QCommandLineOption rounds(QStringLiteral("rounds"), QString(), QStringLiteral("N"));
    const QCommandLineOption append(QStringLiteral("append"));
    const QCommandLineOption rank(QStringLiteral("rank"), QString(), QStringLiteral("R"));
    const QCommandLineOption follow(QStringList{QStringLiteral("f"), QStringLiteral("follow")});
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")});
    const QCommandLineOption tls(QStringLiteral("tls"));
    const QCommandLineOption tlsCa(QStringLiteral("tls-ca"), QString(), QStringLiteral("F"));
    const QCommandLineOption tlsCert(QStringLiteral("tls-cert"), QString(), QStringLiteral("F"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"), QString(), QStringLiteral("F"));
    const QCommandLineOption hosts(QStringLiteral("hosts"), QString(), QStringLiteral("H,H"));
    const QCommandLineOption out(QStringLiteral("out"), QString(), QStringLiteral("D"));
    const QCommandLineOption name(QStringLiteral("name"), QString(), QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"));
    const QCommandLineOption provider(QStringLiteral("provider"), QString(), QStringLiteral("P"));
    const QCommandLineOption all(QStringLiteral("all"));
    const QCommandLineOption detach(QStringLiteral("detach"));
    const QCommandLineOption local(QStringLiteral("local"));
    p.addOptions({workers, tokenFile, timeout,  verbose, ranks,   rounds, append, rank,
                  follow,  help,      tls,      tlsCa,   tlsCert, tlsKey, hosts,  out,
                  name,    json,      provider, all,     detach,  local});
    auto bad = [](const QString& what) {
        return fail(ErrorCode::InvalidArgument,
                    "tessera-ctl: error: " + what.toStdString() + "\n" + std::string(kUsage));
    };
    if (!p.parse(arguments)) {
        return bad(p.errorText());
    }
    if (p.isSet(help)) {
        return fail(ErrorCode::NotFound, kUsage);
    }
    const QStringList pos = p.positionalArguments();
    if (pos.isEmpty()) {
        return bad(QStringLiteral("no command given"));
    }
    CtlOptions o;
    o.command = pos.first();
    o.verbose = p.isSet(verbose);
    if (o.command == QLatin1String("run")) {
        if (pos.size() != 2) {
            return bad(QStringLiteral("run takes exactly one spec file, e.g. "
                                      "tessera-ctl run resources/examples/fashion-mnist-mlp.json"));
        }
        o.specPath = pos[1];
    } else if (o.command == QLatin1String("logs")) {
        if (pos.size() != 2) {
            return bad(QStringLiteral("logs takes exactly one job id (tessera-ctl jobs lists "
                                      "them), e.g. tessera-ctl logs job-20261202-150405-1"));
        }
        o.jobId = pos[1];
    } else if (o.command == QLatin1String("attach") || o.command == QLatin1String("cancel")) {
        if (pos.size() != 2) {
            return bad(QStringLiteral("%1 takes exactly one job id (tessera-ctl status lists the "
                                      "unfinished ones), e.g. tessera-ctl %1 "
                                      "job-20261202-150405-1 --workers A,B --token-file F")
                           .arg(o.command));
        }
        o.jobId = pos[1];
    } else if (o.command == QLatin1String("status")) {
        if (pos.size() > 2) {
            return bad(QStringLiteral("status takes at most one job id"));
        }
        o.jobId = pos.value(1);
    } else if (o.command == QLatin1String("rent")) {
        if (pos.size() != 2) {
            return bad(QStringLiteral("rent takes exactly one offer (tessera-ctl offers lists "
                                      "them), e.g. tessera-ctl rent gpu_1x_a10"));
        }
        o.offerId = pos[1];
    } else if (o.command == QLatin1String("release")) {
        o.all = p.isSet(all);
        if (pos.size() != (o.all ? 1 : 2)) {
            return bad(QStringLiteral("release takes one lease id (tessera-ctl leases lists "
                                      "them), or --all"));
        }
        o.target = pos.value(1);
    } else if (o.command == QLatin1String("offers") || o.command == QLatin1String("leases") ||
               o.command == QLatin1String("cost") || o.command == QLatin1String("cloud-key")) {
        if (pos.size() != 1) {
            return bad(o.command + QStringLiteral(" takes no arguments"));
        }
    } else if (o.command == QLatin1String("nodes") || o.command == QLatin1String("jobs") ||
               o.command == QLatin1String("serve") || o.command == QLatin1String("calibrate") ||
               o.command == QLatin1String("certify")) {
        if (pos.size() != 1) {
            return bad(o.command + QStringLiteral(" takes no arguments"));
        }
    } else {
        return bad(
            QStringLiteral("unknown command '%1' (use run, attach, cancel, status, serve, nodes, "
                           "jobs, logs, calibrate, certify, offers, rent, leases, release, "
                           "cost or cloud-key)")
                .arg(o.command));
    }
    if (p.isSet(workers)) {
        for (const QString& a : p.value(workers).split(',', Qt::SkipEmptyParts)) {
            const QString addr = a.trimmed();
            bool portOk = false;
            const int port = addr.section(':', -1).toInt(&portOk);
            if (!addr.contains(':') || !portOk || port <= 0 || port > 65535) {
                return bad(QStringLiteral("--workers: '%1' is not host:port").arg(addr));
            }
            o.workers.append(addr);
        }
        if (o.workers.isEmpty()) {
            return bad(QStringLiteral("--workers needs at least one host:port"));
        }
        if (!p.isSet(tokenFile)) {
            return bad(QStringLiteral("--workers needs --token-file with the workers' token"));
        }
    }
    o.tokenFile = p.value(tokenFile);
    if (p.isSet(ranks)) {
        bool ok = false;
        o.ranks = p.value(ranks).toInt(&ok);
        if (!ok || o.ranks < 1) {
            return bad(QStringLiteral("--ranks needs a positive number of ranks"));
        }
    }
    o.append = p.isSet(append);
    o.follow = p.isSet(follow);
    if (p.isSet(rank)) {
        bool ok = false;
        const QString r = p.value(rank);
        o.rank = r == QLatin1String("none") ? -1 : r.toInt(&ok);
        if (r != QLatin1String("none") && (!ok || o.rank < 0)) {
            return bad(
                QStringLiteral("--rank needs a rank (0, 1, ...) or \"none\", not '%1'").arg(r));
        }
    }
    if ((p.isSet(rank) || o.follow) && o.command != QLatin1String("logs")) {
        return bad(QStringLiteral("--rank and --follow are options of logs"));
    }
    if (p.isSet(rounds)) {
        bool ok = false;
        o.rounds = p.value(rounds).toInt(&ok);
        if (!ok || o.rounds < 1 || o.rounds > 20) {
            return bad(QStringLiteral("--rounds needs a number of probe rounds from 1 to 20"));
        }
    }
    o.tls = p.isSet(tls);
    o.tlsCa = p.value(tlsCa);
    o.tlsCert = p.value(tlsCert);
    o.tlsKey = p.value(tlsKey);
    const int tlsFiles = int(p.isSet(tlsCa)) + int(p.isSet(tlsCert)) + int(p.isSet(tlsKey));
    if (tlsFiles != 0 && tlsFiles != 3) {
        return bad(
            QStringLiteral("--tls-ca, --tls-cert and --tls-key go together: give all three"));
    }
    if (tlsFiles == 3 && o.tls) {
        return bad(QStringLiteral("--tls uses the cluster CA's identity; --tls-ca/--tls-cert/"
                                  "--tls-key give another one: choose one"));
    }
    if ((o.tls || tlsFiles) && o.workers.isEmpty()) {
        return bad(QStringLiteral("--tls and --tls-ca/--tls-cert/--tls-key are for --workers"));
    }
    for (const QString& h : p.value(hosts).split(',', Qt::SkipEmptyParts)) {
        o.hosts.append(h.trimmed());
    }
    o.outDir = p.value(out);
    o.name = p.value(name);
    if (o.command == QLatin1String("certify") && (o.hosts.isEmpty() || o.outDir.isEmpty())) {
        return bad(QStringLiteral("certify needs --hosts (the names and addresses the worker is "
                                  "reached at) and --out (a folder for its key and "
                                  "certificates)"));
    }
    if (o.command != QLatin1String("certify") &&
        (p.isSet(hosts) || p.isSet(out) || p.isSet(name))) {
        return bad(QStringLiteral("--hosts, --out and --name are options of certify"));
    }
    o.json = p.isSet(json);
    if (p.isSet(provider)) {
        o.provider = p.value(provider);
        if (o.provider != QLatin1String("lambda")) {
            return bad(QStringLiteral("--provider: '%1' is not a cloud Tessera knows (lambda)")
                           .arg(o.provider));
        }
    }
    if (p.isSet(all) && o.command != QLatin1String("release")) {
        return bad(QStringLiteral("--all is an option of release"));
    }
    o.local = p.isSet(local);
    if (o.local && (o.command != QLatin1String("run") || !o.workers.isEmpty())) {
        return bad(QStringLiteral("--local is an option of run without --workers"));
    }
    o.detach = p.isSet(detach);
    if (o.detach && o.command != QLatin1String("run")) {
        return bad(QStringLiteral("--detach is an option of run"));
    }
    if (o.detach && p.isSet(timeout)) {
        return bad(QStringLiteral("--detach and --timeout do not go together: a detached job is "
                                  "not watched (cancel it with tessera-ctl cancel)"));
    }
    if (p.isSet(timeout)) {
        bool ok = false;
        o.timeoutSeconds = p.value(timeout).toInt(&ok);
        if (!ok || o.timeoutSeconds <= 0) {
            return bad(QStringLiteral("--timeout needs a positive number of seconds"));
        }
    }
    return o;
}

Result<QList<WorkerNode>> manualWorkers(const CtlOptions& options) {
    auto token = readBearerTokenFile(options.tokenFile.toStdString());
    if (!token) {
        return relay(token);
    }
    auto identity = tlsIdentity(options);
    if (!identity) {
        return relay(identity);
    }
    QList<WorkerNode> nodes;
    for (int i = 0; i < options.workers.size(); ++i) {
        WorkerNode n;
        n.name = QStringLiteral("worker-%1").arg(i + 1);
        n.address = options.workers[i];
        n.token = QString::fromStdString(*token);
        n.provider = QStringLiteral("manual");
        n.tls = *identity;
        nodes.append(n);
    }
    return nodes;
}

Result<void> addManualWorkers(const CtlOptions& options, ClusterRegistry& registry) {
    Result<QList<WorkerNode>> workers = manualWorkers(options);
    if (!workers) {
        return relay(workers);
    }
    for (const WorkerNode& n : *workers) {
        registry.addNode(n);
    }
    return {};
}

} // namespace tessera::ctl
