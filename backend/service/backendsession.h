// The backend objects of one data folder: metric store, cluster registry, providers, autoscaler
// and job controller, created and destroyed in the right order. The app window and
// `tessera-ctl serve` each host one (never both at once: see DataFolderLock).
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

namespace tessera {

class Autoscaler;
class ClusterRegistry;
class JobController;
class LeaseStore;
class LocalLeases;
class LocalWorkers;
class MetricStore;
class CloudProvider;
class Provider;
class RentBudget;
class SlurmProvider;
class SshProvider;
class TelemetryMonitor;

/// Owns the backend of the app or of `tessera-ctl serve`. Destruction order: autoscaler, SSH
/// provider (its workers keep running: their leases are restored at the next start), telemetry,
/// controller, local workers (stops the local workers, bounded wait), registry, stores.
class BackendSession : public QObject {
    Q_OBJECT
public:
    /// Opens the SQLite history at `storePath` (empty = MetricStore::defaultPath(), which honours
    /// TESSERA_DATA_DIR). If that fails the app still works without history: store() is null
    /// and storeError() says why.
    /// Who hosts it: the app window, or `tessera-ctl serve`, whose autoscaler rents no local
    /// workers (they would end with serve, and with every hand-over of the folder to the app).
    /// Server: tessera-server, which rents local workers like the window (they live as long as
    /// it does, and nothing hands the folder over).
    enum class Host { Window, Service, Server };

    explicit BackendSession(const QString& storePath = QString(), QObject* parent = nullptr,
                            Host host = Host::Window);
    ~BackendSession() override;

    /// Why the history could not be opened; empty when it is open.
    QString storeError() const { return m_storeError; }

    /// The SSH provider, its hosts read from sshHostsPath() (a bad file: no hosts, and
    /// provisionError() says why); leases of earlier runs restored.
    SshProvider* sshProvider() const { return m_ssh.get(); }
    /// Lambda Cloud (no key yet: it offers nothing and says how to add one); its leases are
    /// reconciled with the account's instances at start.
    CloudProvider* cloudProvider() const { return m_cloud.get(); }
    /// Every provider that works through leases (the Rent dialog's offers, the cost label).
    QList<Provider*> providers() const;
    /// dataDir()/ssh-hosts.json.
    static QString sshHostsPath();
    /// dataDir()/slurm-clusters.json: the Slurm partitions on offer.
    static QString slurmClustersPath();
    /// Why the SSH hosts or the lease history could not be read; empty when both were.
    QString provisionError() const { return m_provisionError; }

    /// Queue in front of the controller that rents what a job is missing (policy from
    /// QSettings, see loadAutoscalePolicy; off by default).
    Autoscaler* autoscaler() const { return m_autoscaler.get(); }

    ClusterRegistry* registry() const { return m_registry.get(); }
    LocalWorkers* localWorkers() const { return m_localWorkers.get(); }
    JobController* controller() const { return m_controller.get(); }
    MetricStore* store() const { return m_store.get(); }
    /// Every node's telemetry; records the nodes of running jobs into the store.
    TelemetryMonitor* telemetry() const { return m_telemetry.get(); }

private:
    void openProvisioning(const QString& storePath, Host host);

    std::unique_ptr<MetricStore> m_store;
    std::unique_ptr<ClusterRegistry> m_registry;
    std::unique_ptr<LocalWorkers> m_localWorkers;
    std::unique_ptr<JobController> m_controller;
    std::unique_ptr<TelemetryMonitor> m_telemetry;
    std::unique_ptr<LeaseStore> m_leases;
    std::unique_ptr<LocalLeases> m_localLeases;
    std::unique_ptr<SshProvider> m_ssh;
    std::unique_ptr<SlurmProvider> m_slurm;
    std::unique_ptr<CloudProvider> m_cloud;
    std::unique_ptr<Autoscaler> m_autoscaler;
    std::unique_ptr<RentBudget> m_budget; ///< the Auto-provision dialog's budget, every rent
    QString m_storeError;
    QString m_provisionError;
};

} // namespace tessera
