// The backend objects of the app and `tessera-ctl serve`, created and destroyed in dependency
// order.
#include "backend/service/backendsession.h"

#include "backend/autoscale/autoscalepolicyio.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/jobtypes.h"
#include "backend/core/paths.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/cloudsettings.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/local/localleases.h"
#include "backend/provision/rentbudget.h"
#include "backend/provision/slurm/slurmcluster.h"
#include "backend/provision/slurm/slurmprovider.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/telemetry/telemetrymonitor.h"

#include <QDir>
#include <QThread>

namespace tessera {

BackendSession::BackendSession(const QString& storePath, QObject* parent, Host host)
    : QObject(parent), m_store(std::make_unique<MetricStore>()),
      m_registry(std::make_unique<ClusterRegistry>()),
      m_localWorkers(std::make_unique<LocalWorkers>(m_registry.get())) {
    registerBackendMetaTypes();
    const QString path = storePath.isEmpty() ? MetricStore::defaultPath() : storePath;
    if (Result<void> opened = m_store->open(path); !opened) {
        m_storeError = QString::fromStdString(opened.error().message);
        m_store.reset();
    }
    m_controller = std::make_unique<JobController>(m_registry.get(), m_store.get());
    m_telemetry = std::make_unique<TelemetryMonitor>(m_registry.get(), m_store.get());
    m_telemetry->followJobs(m_controller.get());
    openProvisioning(path, host);
    // A local worker whose process ended takes its jobs with it: fail them at once.
    connect(m_localWorkers.get(), &LocalWorkers::workerDied, m_controller.get(),
            &JobController::failJobsOnWorker);
    // Jobs an earlier start left running ("quit, keep running") are followed again once the
    // restored leases have registered their workers.
    m_controller->reattachUnfinished();
}

QList<Provider*> BackendSession::providers() const {
    return {m_localLeases.get(), m_ssh.get(), m_slurm.get(), m_cloud.get()};
}

QString BackendSession::slurmClustersPath() {
    return QDir(dataDir()).filePath(QStringLiteral("slurm-clusters.json"));
}

QString BackendSession::sshHostsPath() {
    return QDir(dataDir()).filePath(QStringLiteral("ssh-hosts.json"));
}

void BackendSession::openProvisioning(const QString& storePath, Host host) {
    m_leases = std::make_unique<LeaseStore>();
    QStringList errors;
    if (Result<void> opened = m_leases->open(storePath); !opened) {
        errors << QString::fromStdString(opened.error().message);
    }
    // The same cap as tessera-ctl's local cluster: max(4 × cores, 8) ranks on this machine.
    m_localLeases = std::make_unique<LocalLeases>(m_localWorkers.get(), m_registry.get(),
                                                  std::max(4 * QThread::idealThreadCount(), 8));
    m_ssh = std::make_unique<SshProvider>(m_registry.get(),
                                          m_leases->isOpen() ? m_leases.get() : nullptr);
    if (auto hosts = loadSshHosts(sshHostsPath()); hosts) {
        m_ssh->setHosts(*hosts);
        m_ssh->setHostsFile(sshHostsPath()); // what rents find on the machines goes back there
    } else {
        errors << QString::fromStdString(hosts.error().message);
    }
    m_ssh->restore();
    m_slurm = std::make_unique<SlurmProvider>(m_registry.get(),
                                              m_leases->isOpen() ? m_leases.get() : nullptr);
    if (auto clusters = loadSlurmClusters(slurmClustersPath()); clusters) {
        m_slurm->setClusters(*clusters);
    } else {
        errors << QString::fromStdString(clusters.error().message);
    }
    m_slurm->restore();
    QString cloudProblem;
    m_cloud = makeLambdaProvider(m_registry.get(), m_leases->isOpen() ? m_leases.get() : nullptr,
                                 &cloudProblem);
    if (!cloudProblem.isEmpty()) {
        errors << cloudProblem;
    }
    // Its key comes from the keyring or the key file; then its leases are reconciled.
    loadCloudApiKey(m_cloud.get(), [this](const QString& problem) {
        if (!problem.isEmpty()) {
            m_provisionError +=
                (m_provisionError.isEmpty() ? QString() : QStringLiteral("\n")) + problem;
        }
        m_cloud->restore();
        m_cloud->refreshOffers();
    });
    m_provisionError = errors.join(QLatin1Char('\n'));
    QList<Provider*> rentable = providers();
    if (host == Host::Service) {
        rentable.removeOne(m_localLeases.get());
    }
    m_autoscaler = std::make_unique<Autoscaler>(m_registry.get(), m_controller.get(), rentable);
    m_autoscaler->setPolicy(loadAutoscalePolicy());
    // The Auto-provision dialog's budget bounds every rent, by hand too.
    m_budget = std::make_unique<RentBudget>(
        [scaler = m_autoscaler.get()] {
            return BudgetLimits{scaler->policy().maxPerHour, scaler->policy().maxTotal};
        },
        [this] {
            QList<Lease> all;
            for (const Provider* p : providers()) {
                all += p->leases();
            }
            return all;
        });
    for (Provider* p : providers()) {
        p->setBudget(m_budget.get());
    }
}

BackendSession::~BackendSession() {
    // The provider below stops the local workers, and with them every job running there: record
    // those jobs as failed instead of leaving them `running` in the history (not relaunched).
    m_controller->closeDown();
    for (const QString& name : m_localWorkers->names()) {
        m_controller->failJobsOnWorker(name, tr("tessera quit and stopped it"));
    }
    m_autoscaler.reset();
    for (Provider* p : providers()) {
        p->setBudget(nullptr);
    }
    m_budget.reset();
    m_cloud.reset(); // its instances bill on: their leases are reconciled at the next start
    m_slurm.reset();
    m_ssh.reset();
    m_localLeases.reset();
    m_telemetry.reset();
    m_controller.reset();
    m_localWorkers.reset();
    m_registry.reset();
    m_store.reset();
    m_leases.reset();
}

} // namespace tessera
