// Definitions of the backend's Qt logging categories (see logging.h).
#include "backend/core/logging.h"

namespace tessera {
Q_LOGGING_CATEGORY(lcCluster, "tessera.cluster", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProvider, "tessera.provider", QtInfoMsg)
Q_LOGGING_CATEGORY(lcJobs, "tessera.jobs", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStore, "tessera.store", QtInfoMsg)
Q_LOGGING_CATEGORY(lcRpc, "tessera.rpc", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLease, "tessera.provision")
Q_LOGGING_CATEGORY(lcServer, "tessera.server", QtInfoMsg)
} // namespace tessera
