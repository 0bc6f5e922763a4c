// What a provider can rent: one kind of node, its devices, and its price.
#pragma once

#include <QMetaType>
#include <QString>

namespace tessera {

/// One rentable kind of node from one provider. Plain value type.
struct Offer {
    QString provider;       ///< provider id: "local", "ssh", "slurm"
    QString id;             ///< unique within its provider, e.g. "root@198.18.1.11:22"
    QString name;           ///< what the node will be called in the cluster, e.g. "gpu-box-1"
    QString deviceKind;     ///< "cpu" or the GPU's name, e.g. "NVIDIA H100 80GB HBM3"
    int devicesPerNode = 0; ///< GPUs per node; 0 for CPU-only nodes
    /// Memory of one GPU, bytes; on a CPU-only node its RAM (shared by its slots); 0 = unknown.
    quint64 deviceMemoryBytes = 0;
    int slotsPerNode = 1;    ///< ranks one node takes (GPUs, or cores on CPU-only nodes)
    int nodesPerRent = 1;    ///< nodes one rent brings (a Slurm allocation: its node count)
    double pricePerHour = 0; ///< US dollars per node-hour; 0 for machines the user owns
    QString where;           ///< where it runs: host name, Slurm partition, "this machine"
    int available = 1;       ///< rents that can start now (0 while all are leased)
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::Offer)
