// OpenSSL kept until the process is gone (openssllifetime.h).
#include "backend/tls/openssllifetime.h"

#include <openssl/crypto.h>

namespace tessera::tls {

bool keepOpenSslUntilExit() {
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1;
}

} // namespace tessera::tls
