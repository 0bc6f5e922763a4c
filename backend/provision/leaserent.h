// One rent in progress, whatever the provider: it walks a lease through its steps and ends
// exactly once, ready or failed. The SSH, Slurm and cloud rents derive from it, and the Provider
// base wires any of them into its lease (Provider::startRent).
#pragma once

#include "backend/provision/lease.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace tessera {

/// The common face of SshRent, SlurmRent and CloudRent. Emits step() for every state it enters,
/// detailChanged() whenever the provider's detail must be stored before the rent goes on (a
/// Slurm job id, a cloud instance id), then exactly one of ready() or failed(). Owned by its
/// provider; deleted (later) only after one of those.
class LeaseRent : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// Starts the first step. Returns at once; everything else arrives as signals.
    virtual void start() = 0;
    /// Stops the rent now: kills the running step, rolls back what it started (the remote
    /// worker, the allocation, the instance), then emits failed(why).
    virtual void abort(const QString& why) = 0;

Q_SIGNALS:
    /// The lease entered `state` (one before Ready); `detail` says what happens now.
    void step(tessera::LeaseState state, QString detail);
    /// The provider's detail JSON changed: store it now (a crash must not forget what bills).
    void detailChanged(QString detailJson);
    /// The rent's nodes are Ready in the cluster registry; `detailJson` is what the lease keeps
    /// to release them or to rejoin after a restart.
    void ready(QStringList nodeNames, QString detailJson);
    /// It ended without a node; what it started was rolled back (or `reason` says what was not).
    void failed(QString reason);
};

} // namespace tessera
