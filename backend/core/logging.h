// Qt logging categories of the backend (enable with QT_LOGGING_RULES="tessera.*.debug=true").
#pragma once

#include <QLoggingCategory>

namespace tessera {
Q_DECLARE_LOGGING_CATEGORY(lcCluster)  ///< "tessera.cluster": registry and probes
Q_DECLARE_LOGGING_CATEGORY(lcProvider) ///< "tessera.provider": local workers
Q_DECLARE_LOGGING_CATEGORY(lcJobs)     ///< "tessera.jobs": job controller and watchers
Q_DECLARE_LOGGING_CATEGORY(lcStore)    ///< "tessera.store": SQLite history
Q_DECLARE_LOGGING_CATEGORY(lcRpc)      ///< "tessera.rpc": gRPC client
Q_DECLARE_LOGGING_CATEGORY(lcLease)    ///< "tessera.provision": leases and providers
Q_DECLARE_LOGGING_CATEGORY(lcServer)   ///< "tessera.server": the control API, its gate and audit
} // namespace tessera
