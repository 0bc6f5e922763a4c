// tessera-server: one data folder's backend as a service (issue 48). Cluster, providers and
// leases, autoscaler, job controller with recovery, history and the audit log live here; the app
// and tessera-ctl are its clients over the Unix socket <data folder>/backend.sock and, with
// --listen, over TCP with mutual TLS from the cluster CA.
#include "backend/server/serverprocess.h"
#include "backend/tls/openssllifetime.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace {

std::atomic<int> g_signals{0};
extern "C" void onSignal(int) {
    g_signals.fetch_add(1);
}

void say(const QString& line) {
    std::fprintf(stdout, "tessera-server: %s\n", qPrintable(line));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    tessera::tls::keepOpenSslUntilExit(); // pool threads may end after main
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Tessera")); // the app's data folder
    QCoreApplication::setApplicationName(QStringLiteral("tessera"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));

    CLI::App cli{"tessera-server: the Tessera backend of one data folder as a service; the app "
                 "and tessera-ctl are its clients.",
                 "tessera-server"};
    std::string dataDir, listen, config;
    std::vector<std::string> names;
    bool verbose = false;
    cli.set_version_flag("--version", std::string("tessera-server ") + TESSERA_VERSION);
    cli.add_option("--data-dir", dataDir,
                   "the data folder to serve (default: TESSERA_DATA_DIR, else the app's)");
    cli.add_option("--listen", listen,
                   "also serve over TCP with mutual TLS on HOST:PORT (e.g. 0.0.0.0:7443); clients "
                   "need a certificate from `tessera-ctl certify --client NAME`");
    cli.add_option("--config", config, "server settings (default: <data folder>/server.json)");
    cli.add_option("--name", names,
                   "a host name or address clients use, for the server's certificate "
                   "(repeatable; this machine's names and addresses are always in it)");
    cli.add_flag("--verbose", verbose, "log the backend's messages too");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? 0 : 2;
    }
    if (!dataDir.empty()) {
        qputenv("TESSERA_DATA_DIR", QByteArray::fromStdString(dataDir));
    }
    if (!verbose) {
        QLoggingCategory::setFilterRules(QStringLiteral(
            "tessera.*.debug=false\ntessera.*.info=false\ntessera.server.info=true"));
    }
    tessera::ServerOptions options;
    options.listen = QString::fromStdString(listen);
    options.configPath = QString::fromStdString(config);
    for (const std::string& n : names) {
        options.names << QString::fromStdString(n);
    }
    tessera::ServerProcess server(options);
    QObject::connect(&server, &tessera::ServerProcess::said, &say);
    if (tessera::Result<void> started = server.start(); !started) {
        std::fprintf(stderr, "tessera-server: error: %s\n", started.error().message.c_str());
        return 2;
    }
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGHUP, onSignal);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (g_signals.load() > 0) {
            say(QStringLiteral("stopping: the jobs go on on their workers and are followed again "
                               "at the next start"));
            server.stop();
            QCoreApplication::exit(0);
        }
    });
    poll.start(200);
    return QCoreApplication::exec();
}
