// tessera-worker: the per-node daemon serving WorkerService (jobs through mpirun, Exec for
// tessera-rsh). Prints one line "tessera-worker listening on HOST:PORT" once it serves.
#include "worker/daemon/jobs/job_manager.h"
#include "worker/daemon/jobs/ompi_tmpdir.h"
#include "worker/daemon/jobs/program_paths.h"
#include "worker/daemon/listen_address.h"
#include "worker/daemon/security/allow_list.h"
#include "worker/daemon/security/auth.h"
#include "worker/daemon/security/request_limits.h"
#include "worker/daemon/security/server_security.h"
#include "worker/daemon/security/tls_files.h"
#include "worker/daemon/security/token_gate.h"
#include "worker/daemon/service/worker_service.h"
#include "worker/daemon/telemetry/host_info.h"
#include "worker/daemon/telemetry/host_sampler.h"
#include "worker/daemon/telemetry/telemetry_hub.h"
#include "worker/daemon/work_dir_lock.h"

#include <CLI/CLI.hpp>
#include <grpc/grpc.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <unistd.h>

using namespace tessera::daemon;

namespace {

int die(const std::string& msg, int code = 2) {
    std::fprintf(stderr, "tessera-worker: error: %s\n", msg.c_str());
    return code;
}

/// Accepts decimal digits that fit an int (the --slots value); CLI11 prefixes the option name.
std::string wholeNumber(const std::string& text) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || text.front() == '-' || text.front() == '+' || ec != std::errc() ||
        p != end) {
        return "must be a whole number ≥ 0 (0 = one per core), not '" + text + "'";
    }
    return {};
}

/// Exit code for a CLI11 parse error: 0 for --help, 2 (a usage error) for every other.
/// Names the first unknown argument when there is one, since CLI11 checks required options first.
int flagError(const CLI::App& app, const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
        return app.exit(e); // --help prints the usage
    }
    const std::vector<std::string> extras = app.remaining();
    const std::string what = extras.empty() ? e.what() : CLI::ExtrasError(extras).what();
    std::fprintf(stderr, "tessera-worker: error: %s\nRun with --help for the flags.\n",
                 what.c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Tessera worker daemon: runs training jobs through Open MPI and serves "
                 "WorkerService over gRPC"};
    std::string listen = "127.0.0.1:0";
    std::string tokenFile;
    std::string workDir;
    int slots = 0;
    std::string name;
    std::vector<std::string> allow;
    app.add_option("--listen", listen, "HOST:PORT to serve on (port 0 = pick a free one)");
    app.add_option("--token-file", tokenFile, "file holding the bearer token")->required();
    app.add_option("--work-dir", workDir, "folder for job folders and journals")->required();
    app.add_option("--slots", slots, "ranks this worker accepts (0 = one per core)")
        ->check(CLI::Validator(wholeNumber, "N"));
    app.add_option("--name", name, "worker id reported by GetInfo (default: host name)");
    app.add_option("--allow", allow, "extra program Exec may run (absolute path or PATH name)");
    int rankLogMib = 8, rankLogFiles = 3, journalLogMib = 64, bundleCacheGib = 8;
    app.add_option("--bundle-cache-gib", bundleCacheGib,
                   "GiB of shipped code bundles kept (least recently used evicted first; none "
                   "used within 24 h; 0 = no limit)")
        ->check(CLI::Range(0, 1 << 20));
    app.add_option("--rank-log-mib", rankLogMib,
                   "MiB per rank log file before it is rotated (jobs/<id>/logs/rank-R.log)")
        ->check(CLI::Range(1, 1 << 20));
    app.add_option("--rank-log-files", rankLogFiles,
                   "files kept per rank, the current one included (the oldest is removed)")
        ->check(CLI::Range(1, 100));
    app.add_option("--journal-log-mib", journalLogMib,
                   "MiB of log lines journaled per job (later ones only in the rank logs; "
                   "0 = no limit)")
        ->check(CLI::Range(0, 1 << 20));
    int unjournaledMib = int(EventLog::kDefaultUnjournaledBytes >> 20);
    app.add_option("--unjournaled-mib", unjournaledMib,
                   "MiB of a job's events kept in memory while its journal's disk is full; past "
                   "them the job is stopped rather than lose any (0 = no limit)")
        ->check(CLI::Range(0, 1 << 20));
    std::string tlsCert, tlsKey, tlsCa;
    bool insecure = false, allowRoot = false;
    auto* certOpt = app.add_option("--tls-cert", tlsCert,
                                   "this worker's certificate (PEM), issued by the cluster CA");
    auto* keyOpt = app.add_option("--tls-key", tlsKey, "its private key (PEM, mode 0600)");
    auto* caOpt =
        app.add_option("--tls-ca", tlsCa, "the cluster CA certificate peers must chain to (PEM)");
    certOpt->needs(keyOpt, caOpt);
    keyOpt->needs(certOpt, caOpt);
    caOpt->needs(certOpt, keyOpt);
    app.add_flag("--insecure", insecure,
                 "serve plaintext beyond loopback (the token and jobs cross the network in clear)")
        ->excludes(certOpt);
    app.add_flag("--allow-root", allowRoot,
                 "run although the effective user is root (jobs then run as root too); "
                 "TESSERA_ALLOW_RUN_AS_ROOT=1 in the environment does the same, as Open MPI's "
                 "OMPI_ALLOW_RUN_AS_ROOT does for mpirun");
    app.allow_extras(false);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return flagError(app, e);
    }
    const char* rootEnv = std::getenv("TESSERA_ALLOW_RUN_AS_ROOT");
    allowRoot = allowRoot || (rootEnv && std::string_view(rootEnv) == "1");
    if (::geteuid() == 0 && !allowRoot) {
        return die("refusing to run as root: every job and Exec call would run as root. Start "
                   "tessera-worker as an ordinary user (the systemd unit uses 'tessera'), or pass "
                   "--allow-root if you mean it");
    }
    auto listenAddress = parseListenAddress(listen);
    if (!listenAddress) {
        return die(listenAddress.error().message);
    }
    std::optional<TlsFiles> tls;
    if (!tlsCert.empty()) {
        auto files = TlsFiles::load(tlsCert, tlsKey, tlsCa);
        if (!files) {
            return die(files.error().message);
        }
        tls = std::move(*files);
    }
    // Before gRPC binds (and logs its own errors), and before recovery touches the work dir.
    if (auto r = checkPortFree(*listenAddress); !r) {
        return die(r.error().message);
    }

    // Logs on stderr; stdout carries only the "listening on" line.
    auto logger = spdlog::stderr_color_mt("tessera-worker");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%n] [%l] %v");

    // SIGTERM/SIGINT are taken by sigwait below; every thread inherits this mask.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    auto auth = TokenAuth::fromFile(tokenFile);
    if (!auth) {
        return die(auth.error().message);
    }
    auto security =
        chooseServerSecurity(*listenAddress, tls, insecure, std::make_shared<TokenGate>(*auth));
    if (!security) {
        return die(security.error().message);
    }
    std::error_code ec;
    std::filesystem::create_directories(workDir, ec);
    if (ec) {
        return die("--work-dir '" + workDir + "' cannot be created: " + ec.message());
    }
    workDir = std::filesystem::absolute(workDir).string();
    // Held until the process ends: a second daemon on this folder would replay the same journals.
    auto workDirLock = WorkDirLock::acquire(workDir);
    if (!workDirLock) {
        return die(workDirLock.error().message);
    }

    const std::string bin = binDir();
    putFirstInPath(bin); // ranks are started by name on every node (program_paths.h)
    AllowList allowList = AllowList::defaults(bin);
    for (const auto& a : allow) {
        if (auto r = allowList.add(a); !r) {
            return die(r.error().message);
        }
    }
    std::string mpirun = useBundledOpenMpi(bin); // the worker bundle's own, else the system's
#ifdef TESSERA_MPIRUN
    if (mpirun.empty()) {
        mpirun = findProgram(TESSERA_MPIRUN);
    }
#endif
    if (mpirun.empty()) {
        mpirun = findProgram("mpirun");
    }
    if (mpirun.empty()) {
        spdlog::warn("mpirun not found: LaunchJob will fail (install the Debian package "
                     "'openmpi-bin')");
        mpirun = "mpirun";
    }

    JobManagerConfig jobsConfig{workDir, bin, mpirun};
    jobsConfig.rankLogs = {std::int64_t(rankLogMib) << 20, rankLogFiles - 1};
    jobsConfig.journalLogBytes = std::int64_t(journalLogMib) << 20;
    jobsConfig.unjournaledBytes = std::size_t(unjournaledMib) << 20;
    HostInfo host = HostInfo::collect(slots);
    if (name.empty()) {
        name = host.host;
    }
    jobsConfig.workerName = name;
    if (tls) { // tessera-rsh then reaches the job's other workers over the same mutual TLS
        namespace fs = std::filesystem;
        jobsConfig.rshEnv = {std::string(kTlsCertEnv) + "=" + fs::absolute(tls->certPath).string(),
                             std::string(kTlsKeyEnv) + "=" + fs::absolute(tls->keyPath).string(),
                             std::string(kTlsCaEnv) + "=" + fs::absolute(tls->caPath).string()};
    }
    JobManager jobs(jobsConfig);
    if (auto r = jobs.recover(); !r) {
        return die(r.error().message, 1);
    }
    // The sampler reads /proc and NVML on its own thread; it lives until the process ends.
    HostSampler sampler;
    removeStaleOmpiTmpdirs(); // of daemons killed before they could clean up
    TelemetryHub telemetry([&sampler] { return sampler.sample(); });
    telemetry.start();
    BundleStore::Limit bundleCache;
    bundleCache.maxBytes = uint64_t(bundleCacheGib) << 30;
    WorkerService service(*auth, allowList, jobs, telemetry, host, name, workDir, bundleCache);

    grpc::ServerBuilder builder;
    // gRPC sets SO_REUSEPORT by default: a second daemon would share the port and half the calls.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.SetMaxReceiveMessageSize(kMaxRequestBytes); // request_limits.h
    int port = 0;
    builder.AddListeningPort(listenAddress->toString(), security->credentials, &port);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server || port == 0) {
        if (auto r = checkPortFree(*listenAddress); !r) {
            return die(r.error().message); // taken between the probe and the bind
        }
        return die("cannot listen on '" + listen +
                   "': give a free HOST:PORT (port 0 picks one) with --listen");
    }
    const std::string& hostPart = listenAddress->host;
    std::cout << "tessera-worker listening on " << hostPart << ":" << port << std::endl;
    spdlog::info("worker '{}' serving on {}:{} ({}) with {} slot(s), work dir {}, Exec allows {}",
                 name, hostPart, port, security->description, host.slots, workDir,
                 fmt::join(allowList.names(), " "));
    if (security->transport == Transport::Insecure) {
        spdlog::warn("--insecure: anyone who can watch this network sees the token and can then "
                     "run any program here");
    }

    int sig = 0;
    sigwait(&stopSignals, &sig);
    spdlog::info("signal {}: stopping", sig);
    jobs.stopAll(std::chrono::seconds(4));
    telemetry.stop(); // ends every WatchTelemetry stream OK, so Shutdown need not cancel them
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    removeOmpiTmpdir();
    spdlog::info("stopped");
    spdlog::shutdown();
    std::fflush(nullptr);
    // Process reader threads are detached; skip static destructors they might still touch.
    std::_Exit(0);
}
