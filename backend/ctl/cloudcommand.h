// tessera-ctl's cloud commands: offers, rent, leases, release, cost, cloud-key. Each builds the
// same cloud provider as the app (cloudsettings.h) on the same lease store, so what one starts
// the other sees, reconciles and can release.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/ctl/ctloptions.h"
#include "backend/provision/leasestore.h"

#include <QObject>

#include <memory>

namespace tessera {
class CloudProvider;
class RentBudget;
struct Lease;
} // namespace tessera

namespace tessera::ctl {

/// One cloud command; emits finished(exit code) once. Human-readable tables by default, JSON
/// with --json (one object: {"offers": […]}, {"lease": {…}}, {"leases": […], "lost": […]},
/// {"released": […]}, {"leases": […], "total": $, "perHour": $}).
class CloudCommand : public QObject {
    Q_OBJECT
public:
    explicit CloudCommand(const CtlOptions& options, QObject* parent = nullptr);
    ~CloudCommand() override;
    void start();
    /// Ctrl-C, SIGTERM, SIGHUP: a rent in progress is released (its instance terminated) before
    /// the command ends with exit code 1; a second interrupt ends it at once. Other commands end.
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);

private:
    bool open();
    /// The command, once the cloud's key is loaded.
    void run();
    void offers();
    void rent();
    void leases();
    void release();
    void cost();
    void storeKey();
    void releaseNext(QStringList ids);
    void done(int code, const QString& error = QString());
    void print(const QString& text);

    CtlOptions m_options;
    ClusterRegistry m_registry;
    LeaseStore m_store;
    std::unique_ptr<RentBudget> m_budget; ///< declared first: destroyed after the provider
    std::unique_ptr<CloudProvider> m_cloud;
    QStringList m_released;
    QString m_lastSaid;       ///< rent: the last state and reason printed
    bool m_rentAsked = false; ///< rent: the first offer listing started the rent
    QString m_renting;        ///< rent: the lease being rented
    int m_interrupts = 0;     ///< Ctrl-C / TERM / HUP so far
    bool m_finished = false;
};

} // namespace tessera::ctl
