// WatchCluster's snapshots (see clusterfeed.h).
#include "backend/service/clusterfeed.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/provider.h"
#include "backend/service/backendsession.h"

#include <QDateTime>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

qint64 msOf(const QDateTime& t) {
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

void fill(bv1::NodeInfo* n, const WorkerNode& w, bool busy) {
    n->set_name(w.name.toStdString());
    n->set_address(w.address.toStdString());
    n->set_host(w.host.toStdString());
    n->set_state(nodeStateName(w.state).toStdString());
    n->set_slots(w.slots);
    n->set_cores(w.cores);
    n->set_memory_bytes(w.memoryBytes);
    n->set_cuda_devices(w.cudaDevices);
    n->set_gpu_name(w.gpuName.toStdString());
    n->set_gpu_memory_bytes(w.gpuMemoryBytes);
    n->set_provider(w.provider.toStdString());
    n->set_last_error(w.lastError.toStdString());
    n->set_busy(busy);
}

void fill(bv1::LeaseInfo* l, const Lease& lease, const QDateTime& now) {
    l->set_id(lease.id.toStdString());
    l->set_provider(lease.provider.toStdString());
    l->set_offer_id(lease.offerId.toStdString());
    l->set_state(leaseStateName(lease.state).toStdString());
    l->set_reason(lease.reason.toStdString());
    for (const QString& node : lease.nodes) {
        l->add_nodes(node.toStdString());
    }
    l->set_price_per_hour(lease.pricePerHour);
    l->set_created_ms(msOf(lease.created));
    l->set_ready_ms(msOf(lease.ready));
    l->set_ended_ms(msOf(lease.ended));
    l->set_owner(lease.owner.toStdString());
    l->set_cost(lease.cost(now));
    l->set_user(lease.user.toStdString());
}

const char* levelName(BudgetVerdict::Level level) {
    switch (level) {
    case BudgetVerdict::Level::Near:
        return "near";
    case BudgetVerdict::Level::Reached:
        return "reached";
    case BudgetVerdict::Level::Fine:
        break;
    }
    return "fine";
}

} // namespace

bv1::ClusterSnapshot clusterSnapshot(const BackendSession& session) {
    bv1::ClusterSnapshot s;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    s.set_time_ms(now.toMSecsSinceEpoch());
    const QStringList busy = session.controller()->busyWorkers();
    for (const WorkerNode& w : session.registry()->nodes()) {
        fill(s.add_nodes(), w, busy.contains(w.name));
    }
    QList<Lease> listed;
    for (const Provider* p : session.providers()) {
        for (const Lease& lease : p->leases()) {
            if (lease.live() || (lease.ended.isValid() && lease.ended.secsTo(now) < 86400)) {
                fill(s.add_leases(), lease, now);
                listed.append(lease);
            }
        }
    }
    s.set_burn_per_hour(burnRate(listed));
    s.set_total_cost(totalCost(listed, now));
    const Autoscaler* scaler = session.autoscaler();
    s.set_budget_level(levelName(scaler->budgetLevel()));
    s.set_budget_alert(scaler->budgetAlertText().toStdString());
    const AutoscalePolicy policy = scaler->policy();
    bv1::AutoscaleInfo* a = s.mutable_autoscale();
    a->set_enabled(policy.enabled);
    a->set_max_per_hour(policy.maxPerHour);
    a->set_max_total(policy.maxTotal);
    a->set_max_nodes(policy.maxNodes);
    a->set_idle_timeout_sec(policy.idleTimeoutSec);
    return s;
}

ClusterFeed::ClusterFeed(BackendSession* session, QObject* parent)
    : QObject(parent), m_session(session) {
    m_timer.setInterval(250);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ClusterFeed::publish);
    const ClusterRegistry* registry = session->registry();
    connect(registry, &ClusterRegistry::nodeAdded, this, &ClusterFeed::changed);
    connect(registry, &ClusterRegistry::nodeChanged, this, &ClusterFeed::changed);
    connect(registry, &ClusterRegistry::nodeRemoved, this, &ClusterFeed::changed);
    for (const Provider* p : session->providers()) {
        connect(p, &Provider::leaseChanged, this, &ClusterFeed::changed);
    }
    connect(session->controller(), &JobController::jobStateChanged, this, &ClusterFeed::changed);
    connect(session->autoscaler(), &Autoscaler::budgetAlert, this, &ClusterFeed::changed);
}

void ClusterFeed::subscribe(std::shared_ptr<ClusterQueue> queue) {
    queue->push(clusterSnapshot(*m_session));
    m_queues.append(std::move(queue));
}

void ClusterFeed::closeAll(const grpc::Status& status) {
    for (const std::shared_ptr<ClusterQueue>& q : std::as_const(m_queues)) {
        q->close(status);
    }
    m_queues.clear();
}

void ClusterFeed::changed() {
    m_dirty = true;
    if (!m_timer.isActive()) {
        m_timer.start();
    }
}

void ClusterFeed::publish() {
    m_queues.removeIf([](const std::shared_ptr<ClusterQueue>& q) { return q->closed(); });
    if (!m_dirty || m_queues.isEmpty()) {
        m_dirty = false;
        return;
    }
    m_dirty = false;
    const bv1::ClusterSnapshot s = clusterSnapshot(*m_session);
    for (const std::shared_ptr<ClusterQueue>& q : std::as_const(m_queues)) {
        q->push(s);
    }
}

} // namespace tessera
