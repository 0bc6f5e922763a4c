// Quits the application cleanly on SIGTERM, SIGHUP and SIGINT, so that the normal shutdown
// releases the local workers (and their jobs) instead of leaving them running as orphans.
#pragma once

class QObject;

namespace tessera {

/// Installs handlers for SIGTERM, SIGHUP and SIGINT that only write to a self-pipe; a
/// QSocketNotifier (child of `context`) reads it on the event loop and calls
/// QCoreApplication::exit(0) (not quit(): no close events, whose questions nobody would answer).
/// Returns false (nothing installed) if the pipe cannot be created.
/// Call once, from the GUI thread, before exec().
bool quitOnTerminationSignals(QObject* context);

} // namespace tessera
