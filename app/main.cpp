// Entry point of the `tessera` desktop app: flags, translations, backend session, main window.
#include "app/autopilot.h"
#include "app/mainwindow.h"
#include "app/quitonsignal.h"
#include "app/startupoptions.h"
#include "backend/client/serverconnection.h"
#include "backend/core/paths.h"
#include "backend/service/backendclient.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "backend/tls/openssllifetime.h"

#include <QApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <memory>

namespace {

/// True when Qt would find no screen: no X11/Wayland display and no platform chosen by hand.
bool noDisplay() {
    return qEnvironmentVariableIsEmpty("DISPLAY") &&
           qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
           qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

/// The app's messages for `locale` from :/i18n (tessera_de.qm, tessera_zh_CN.qm, …, picked by
/// the locale's UI languages, as LANGUAGE / LANG give them). Simplified Chinese of any region
/// (zh_SG, zh_Hans_*) gets tessera_zh_CN; Traditional Chinese stays English. False: English.
bool loadTranslation(QTranslator& translator, const QLocale& locale) {
    if (translator.load(locale, QStringLiteral("tessera"), QStringLiteral("_"),
                        QStringLiteral(":/i18n"))) {
        return true;
    }
    return locale.language() == QLocale::Chinese &&
           locale.script() != QLocale::TraditionalChineseScript &&
           translator.load(QStringLiteral(":/i18n/tessera_zh_CN.qm"));
}

} // namespace

int main(int argc, char** argv) {
    tessera::tls::keepOpenSslUntilExit(); // pool threads may end after main (see there)
    if (noDisplay()) {
        std::fprintf(stderr, "tessera: error: no display (DISPLAY and WAYLAND_DISPLAY are unset). "
                             "Run a job headless with `tessera-ctl run SPEC.json`, or set "
                             "QT_QPA_PLATFORM=offscreen.\n");
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tessera"));
    QApplication::setOrganizationName(QStringLiteral("Tessera"));
    QApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));

    auto options = tessera::StartupOptions::parse(QApplication::arguments());
    if (!options) {
        std::fprintf(stderr, "tessera: error: %s (see --help)\n", options.error().message.c_str());
        return 2;
    }
    if (options->help) {
        std::printf("%s", qPrintable(tessera::StartupOptions::helpText()));
        return 0;
    }
    if (!options->dataDir.isEmpty()) {
        QDir().mkpath(options->dataDir);
        qputenv("TESSERA_DATA_DIR", QDir(options->dataDir).absolutePath().toLocal8Bit());
    }

    QTranslator translator;
    if (loadTranslation(translator, QLocale())) {
        QApplication::installTranslator(&translator);
    }
    // Qt's own strings (dialog buttons, standard menus) from Debian's qt6-translations-l10n;
    // without it they stay English.
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(&qtTranslator);
    }

    // One backend per data folder: a `tessera-ctl serve` hands it over (and follows the jobs again
    // once this window closes); another window keeps it.
    tessera::DataFolderLock folder(tessera::dataDir());
    if (auto claimed =
            tessera::claimDataFolder(folder, QLatin1String(tessera::DataFolderLock::kApp));
        !claimed) {
        QString why = QString::fromStdString(claimed.error().message);
        if (!why.isEmpty() && !why.startsWith(QLatin1String("tessera-ctl"))) {
            why[0] = why[0].toUpper(); // the backend's messages start in lower case
        }
        if (claimed.error().code == tessera::ErrorCode::AlreadyExists) { // another window
            why = QCoreApplication::translate("main", "%1. Close it first, or start this one with "
                                                      "another data folder (--data-dir).")
                      .arg(why);
        }
        std::fprintf(stderr, "tessera: error: %s\n", qPrintable(why));
        if (!options->unattended() && options->timeoutSeconds == 0) {
            QMessageBox::critical(nullptr, QCoreApplication::translate("main", "Tessera"), why);
        }
        return 2;
    }
    tessera::BackendSession session;
    // tessera-ctl attach, cancel and run reach this session through it while the window is open.
    tessera::BackendServer control(&session, QLatin1String(tessera::DataFolderLock::kApp),
                                   folder.socketPath());
    // The window's panels read the backend through the same socket as its other clients.
    std::unique_ptr<tessera::client::ServerConnection> connection;
    if (auto listening = control.start(); !listening) {
        std::fprintf(stderr, "tessera: warning: %s\n", listening.error().message.c_str());
        folder.clearEndpoint(); // tessera-ctl says so instead of dialling nothing
    } else {
        connection = std::make_unique<tessera::client::ServerConnection>(
            tessera::client::ServerAddress{QStringLiteral("unix:") + folder.socketPath(), nullptr});
        connection->start();
    }
    tessera::MainWindow window(&session, connection.get());
    window.show();

    tessera::Autopilot autopilot(&session, &window, *options);
    QObject::connect(&autopilot, &tessera::Autopilot::finished, &app, &QApplication::exit);
    QTimer::singleShot(0, &autopilot, &tessera::Autopilot::start);
    // TERM, HUP and Ctrl-C end the event loop; the session's destructor then records the running
    // jobs of the local workers as failed and stops the workers.
    if (!tessera::quitOnTerminationSignals(&app)) {
        std::fprintf(stderr, "tessera: warning: cannot watch for SIGTERM/SIGHUP\n");
    }
    return QApplication::exec();
}
