// Definitions of the backend's Qt logging categories (see logging.h).
#include "logging.h"

namespace tessera {
Q_LOGGING_CATEGORY(lcCluster, "tessera.cluster")
Q_LOGGING_CATEGORY(lcProvider, "tessera.provider")
Q_LOGGING_CATEGORY(lcJobs, "tessera.jobs")
Q_LOGGING_CATEGORY(lcStore, "tessera.store")
Q_LOGGING_CATEGORY(lcRpc, "tessera.rpc")
} // namespace tessera
