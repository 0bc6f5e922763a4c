// Names of worker node states (see workernode.h).
#include "backend/cluster/workernode.h"

namespace tessera {

QString nodeStateName(NodeState state) {
    switch (state) {
    case NodeState::Connecting:
        return QStringLiteral("connecting");
    case NodeState::Ready:
        return QStringLiteral("ready");
    case NodeState::Unreachable:
        return QStringLiteral("unreachable");
    case NodeState::Stopped:
        return QStringLiteral("stopped");
    }
    return QStringLiteral("unknown");
}

} // namespace tessera
