// Worker registry with GetInfo probes on a thread pool (see clusterregistry.h).
#include "backend/cluster/clusterregistry.h"

#include "backend/cluster/workerclient.h"
#include "backend/core/jobtypes.h"
#include "backend/core/logging.h"
#include "backend/tls/openssllifetime.h"
#include "worker/common/tsan_handoff.h"

#include <algorithm>

namespace tessera {

ClusterRegistry::ClusterRegistry(QObject* parent) : QObject(parent) {
    registerBackendMetaTypes();
    // The probes' TLS calls run on pool threads that can still be ending after main returns, in
    // every program with a registry (tests included): see openssllifetime.h.
    tls::keepOpenSslUntilExit();
    m_pool.setMaxThreadCount(8);
    connect(&m_timer, &QTimer::timeout, this, &ClusterRegistry::probeAll);
    setProbeInterval(5000);
}

ClusterRegistry::~ClusterRegistry() {
    m_timer.stop();
    m_pool.waitForDone(m_probeTimeoutMs + 1000);
}

int ClusterRegistry::indexOf(const QString& name) const {
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].node.name == name) {
            return i;
        }
    }
    return -1;
}

QList<WorkerNode> ClusterRegistry::nodes() const {
    QList<WorkerNode> out;
    for (const Entry& e : m_entries) {
        out.append(e.node);
    }
    return out;
}

std::optional<WorkerNode> ClusterRegistry::node(const QString& name) const {
    const int i = indexOf(name);
    if (i < 0) {
        return std::nullopt;
    }
    return m_entries[i].node;
}

QList<WorkerNode> ClusterRegistry::readyNodes() const {
    QList<WorkerNode> out;
    for (const Entry& e : m_entries) {
        if (e.node.state == NodeState::Ready) {
            out.append(e.node);
        }
    }
    return out;
}

std::shared_ptr<WorkerClient> ClusterRegistry::client(const QString& name) const {
    const int i = indexOf(name);
    return i < 0 ? nullptr : m_entries[i].client;
}

void ClusterRegistry::addNode(const WorkerNode& node) {
    Entry entry;
    entry.node = node;
    entry.node.state = NodeState::Connecting;
    entry.node.lastError.clear();
    entry.client = std::make_shared<WorkerClient>(
        node.dialAddress.isEmpty() ? node.address : node.dialAddress, node.token, node.tls);
    entry.generation = m_nextGeneration++;
    const int i = indexOf(node.name);
    if (i >= 0) {
        m_entries[i] = entry;
        qCInfo(lcCluster) << "replaced worker" << node.name << "at" << node.address;
        Q_EMIT nodeChanged(node.name);
    } else {
        m_entries.append(entry);
        qCInfo(lcCluster) << "added worker" << node.name << "at" << node.address;
        Q_EMIT nodeAdded(node.name);
    }
    probe(node.name);
}

void ClusterRegistry::removeNode(const QString& name) {
    const int i = indexOf(name);
    if (i < 0) {
        return;
    }
    m_entries.removeAt(i);
    qCInfo(lcCluster) << "removed worker" << name;
    Q_EMIT nodeRemoved(name);
}

void ClusterRegistry::setNodeState(const QString& name, NodeState state, const QString& error) {
    const int i = indexOf(name);
    if (i < 0) {
        return;
    }
    m_entries[i].node.state = state;
    m_entries[i].node.lastError = error;
    Q_EMIT nodeChanged(name);
}

void ClusterRegistry::setProbeInterval(int ms) {
    if (ms > 0) {
        m_timer.start(ms);
    } else {
        m_timer.stop();
    }
}

namespace {
constexpr int kConnectAttempts = 4; // first probes of a node before it is called unreachable
constexpr int kConnectRetryMs = 500;
} // namespace

void ClusterRegistry::probeAll() {
    for (const Entry& e : m_entries) {
        if (e.node.state != NodeState::Stopped) {
            probe(e.node.name);
        }
    }
}

void ClusterRegistry::probe(const QString& name) {
    const int i = indexOf(name);
    if (i < 0 || m_entries[i].probing) {
        return;
    }
    m_entries[i].probing = true;
    const std::shared_ptr<WorkerClient> client = m_entries[i].client;
    const quint64 generation = m_entries[i].generation;
    const int timeoutMs = m_probeTimeoutMs;
    m_pool.start(tsanHandOff([this, client, name, generation, timeoutMs] {
        Result<v1::WorkerInfo> info = client->getInfo(timeoutMs);
        // The destructor waits for this pool, so `this` is alive while the call is posted.
        QMetaObject::invokeMethod(
            this, tsanHandOff([this, name, generation, info = std::move(info)] {
                const int j = indexOf(name);
                if (j < 0 || m_entries[j].generation != generation) {
                    return; // removed or replaced meanwhile
                }
                Entry& e = m_entries[j];
                e.probing = false;
                if (e.node.state == NodeState::Stopped) {
                    return;
                }
                const WorkerNode before = e.node;
                if (info) {
                    e.node.state = NodeState::Ready;
                    e.node.lastError.clear();
                    e.node.tokenRefused = false;
                    e.node.host = QString::fromStdString(info->host());
                    e.node.cores = info->cores();
                    e.node.memoryBytes = info->memory_bytes();
                    e.node.cudaDevices =
                        int(std::count_if(info->devices().begin(), info->devices().end(),
                                          [](const v1::Device& d) { return d.kind() == "cuda"; }));
                    e.node.gpuName.clear();
                    e.node.gpuMemoryBytes = 0;
                    for (const v1::Device& d : info->devices()) {
                        if (d.kind() == "cuda") {
                            e.node.gpuName = QString::fromStdString(d.name());
                            e.node.gpuMemoryBytes = d.memory_bytes();
                            break;
                        }
                    }
                    if (info->slots() > 0) {
                        e.node.slots = info->slots();
                    }
                } else if (e.node.state == NodeState::Connecting &&
                           info.error().code == ErrorCode::Unavailable &&
                           ++e.connectFailures < kConnectAttempts) {
                    // A worker that was just started sometimes refuses its very first connection
                    // (seen about once in ten local-cluster rents: "failed to connect to all
                    // addresses ... No such file or directory" although it had reported its
                    // address); try again shortly before calling it unreachable.
                    QTimer::singleShot(kConnectRetryMs, this, [this, name] { probe(name); });
                    return;
                } else {
                    e.node.state = NodeState::Unreachable;
                    e.node.lastError = QString::fromStdString(info.error().message);
                    e.node.tokenRefused = info.error().code == ErrorCode::PermissionDenied;
                }
                const WorkerNode& now = e.node;
                if (before.state == now.state && before.lastError == now.lastError &&
                    before.host == now.host && before.cores == now.cores &&
                    before.gpuName == now.gpuName && before.memoryBytes == now.memoryBytes &&
                    before.slots == now.slots && before.cudaDevices == now.cudaDevices &&
                    before.gpuMemoryBytes == now.gpuMemoryBytes) {
                    return; // periodic probe, nothing new
                }
                qCInfo(lcCluster) << "worker" << name << "is" << nodeStateName(now.state)
                                  << now.lastError;
                Q_EMIT nodeChanged(name);
            }),
            Qt::QueuedConnection);
    }));
}

} // namespace tessera
