// Autopilot: carries out the start-up flags (--rent-local, --spec, --launch, --screenshot,
// --quit-after-points) by driving the window's own actions, event-driven, never waiting.
#pragma once

#include "app/startupoptions.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QTimer;

namespace tessera {

class BackendSession;
class MainWindow;

/// Drives `window` as a user would: rents local workers, selects the spec, presses Launch once
/// the Ready nodes have the slots the spec needs, and after K loss points grabs the window to a
/// PNG, cancels the job, releases the workers and asks the application to quit. Any failure on
/// the way (rent failed, launch refused, job failed, timeout) ends it with finished(1).
class Autopilot : public QObject {
    Q_OBJECT
public:
    /// `session` and `window` must outlive the autopilot.
    Autopilot(BackendSession* session, MainWindow* window, StartupOptions options,
              QObject* parent = nullptr);

    /// Starts the sequence (call once the event loop is about to run).
    void start();

Q_SIGNALS:
    /// The unattended run is over: exit code 0 (done) or 1 (failed). Only emitted when the
    /// options make the run unattended or something failed.
    void finished(int exitCode);

private:
    void tryLaunch();
    void onLossPoints(int count);
    void takeScreenshotAndQuit();
    void finish(int exitCode, const QString& error = QString());

    BackendSession* m_session;
    MainWindow* m_window;
    StartupOptions m_options;
    QTimer* m_timeout;
    QElapsedTimer m_sinceLaunch;
    bool m_launched = false;
    bool m_capturing = false;
    bool m_finished = false;
    bool m_emitted = false;
    bool m_timedOut = false; ///< --timeout expired: exit even when not unattended
    QString m_shortageShown; ///< last "needs N ranks" notice, shown once per situation
};

} // namespace tessera
