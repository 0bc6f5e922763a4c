// A worker daemon as the backend sees it: address, token, capacity and connection state.
// Plain value type shared by ClusterRegistry, LocalWorkers, JobController and the app.
#pragma once

#include "backend/tls/certificate_authority.h"

#include <QMetaType>
#include <QString>

#include <memory>

namespace tessera {

/// Connection state of a worker in the registry.
/// Connecting: added, first GetInfo not answered yet. Ready: last GetInfo succeeded.
/// Unreachable: last GetInfo failed (see WorkerNode::lastError). Stopped: its provider ended it.
enum class NodeState { Connecting, Ready, Unreachable, Stopped };

/// Human-readable name of a NodeState ("connecting", "ready", "unreachable", "stopped").
QString nodeStateName(NodeState state);
/// The state for display, in the user's language (see jobStateText()).
QString nodeStateText(NodeState state);

/// One tessera-worker daemon.
struct WorkerNode {
    QString name;    ///< unique in the registry; also the host name in mpirun's hostfile
    QString address; ///< "host:port" of its WorkerService, e.g. "127.0.0.1:40123"
    /// Where the backend connects when not to `address`: an SSH tunnel's "unix:<socket>"
    /// (sshtunnels.h) for a worker whose port is closed to the outside. The job's other workers
    /// always use `address`.
    QString dialAddress;
    QString token; ///< bearer token sent as `authorization: Bearer <token>` on every call
    QString host;  ///< host name the worker reported in GetInfo (empty until Ready)
    NodeState state = NodeState::Connecting;
    int slots = 1;              ///< ranks it accepts (GetInfo's value once Ready)
    int cores = 0;              ///< CPU cores it reported
    quint64 memoryBytes = 0;    ///< RAM it reported, bytes
    int cudaDevices = 0;        ///< CUDA GPUs it reported (its ranks train on them, one each)
    QString gpuName;            ///< the first GPU's name as CUDA reports it ("NVIDIA H200"), or ""
    quint64 gpuMemoryBytes = 0; ///< the first GPU's memory, bytes (0 without GPUs)
    QString provider;           ///< "local", "manual", ... who rented it
    QString lastError;          ///< why it is Unreachable; empty otherwise
    bool tokenRefused = false;  ///< Unreachable because it refused the token (bad input, not down)
    /// Mutual TLS identity to reach it with (the cluster CA's backend identity for rented
    /// workers); null for plaintext: a loopback worker, or one started with --insecure.
    std::shared_ptr<const tls::Identity> tls;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::NodeState)
Q_DECLARE_METATYPE(tessera::WorkerNode)
