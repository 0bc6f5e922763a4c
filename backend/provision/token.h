// Bearer tokens for the workers a provider starts: one fresh secret per worker or lease.
#pragma once

#include <QString>

namespace tessera {

/// 32 bytes from the system's secure random source as 64 lowercase hex characters.
QString randomToken();

} // namespace tessera
