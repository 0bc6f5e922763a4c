// How long OpenSSL's own state lives in a process: until the process is gone, for programs whose
// threads may still be ending when main returns.
#pragma once

namespace tessera::tls {

/// Makes OpenSSL skip the clean-up it otherwise runs from an exit handler
/// (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT), OpenSSL 3). Qt's threads are detached, so a
/// pool thread that made a TLS call (a gRPC call to a worker, a CA opened with QtConcurrent) can
/// still be running its thread-exit handlers when main returns; those free the thread's random
/// generators, and after OpenSSL's exit handler they leaked instead (LeakSanitizer: 10 kB in
/// tessera-ctl, under load only). Call it first thing in main, before anything uses OpenSSL: the
/// first initialisation decides, and a later call changes nothing (ClusterRegistry calls it
/// too, for the test programs that have one). Returns false if OpenSSL could not initialise
/// (then the next use of OpenSSL reports why).
bool keepOpenSslUntilExit();

} // namespace tessera::tls
