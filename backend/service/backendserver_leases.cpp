// The control API's machines: offers, rent and release as a person, and the auto-provision
// policy (see backendserver.h).
#include "backend/service/backendserver.h"

#include "backend/autoscale/autoscalepolicyio.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/provider.h"
#include "backend/service/backendsession.h"
#include "backend/service/clusterfeed.h"
#include "backend/service/errorstatus.h"

namespace tessera {

namespace bv1 = tessera::backend::v1;

bv1::ListOffersReply BackendServer::offers() const {
    bv1::ListOffersReply reply;
    for (const Provider* p : m_session->providers()) {
        for (const Offer& o : p->offers()) {
            bv1::OfferInfo* info = reply.add_offers();
            info->set_provider(o.provider.toStdString());
            info->set_id(o.id.toStdString());
            info->set_name(o.name.toStdString());
            info->set_device_kind(o.deviceKind.toStdString());
            info->set_devices_per_node(o.devicesPerNode);
            info->set_device_memory_bytes(o.deviceMemoryBytes);
            info->set_slots_per_node(o.slotsPerNode);
            info->set_nodes_per_rent(o.nodesPerRent);
            info->set_price_per_hour(o.pricePerHour);
            info->set_where(o.where.toStdString());
            info->set_available(o.available);
        }
    }
    for (const QString& problem :
         m_session->provisionError().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        reply.add_problems(problem.toStdString());
    }
    if (const CloudProvider* cloud = m_session->cloudProvider();
        cloud && !cloud->offersError().isEmpty()) {
        reply.add_problems(cloud->offersError().toStdString());
    }
    return reply;
}

grpc::Status BackendServer::rent(const QString& providerId, const QString& offerId, int count,
                                 const Caller& caller, bv1::RentReply* reply) {
    Provider* provider = nullptr;
    for (Provider* p : m_session->providers()) {
        if (p->id() == providerId) {
            provider = p;
        }
    }
    const QString target = providerId + QLatin1Char('/') + offerId;
    if (!provider) {
        record(caller, QStringLiteral("rent"), target, tr("no such provider"),
               QStringLiteral("refused"));
        return {grpc::StatusCode::NOT_FOUND,
                tr("no provider '%1' (ListOffers names them)").arg(providerId).toStdString()};
    }
    count = count <= 0 ? 1 : count;
    if (count > 64) {
        return {grpc::StatusCode::INVALID_ARGUMENT,
                tr("rent at most 64 nodes at once, not %1").arg(count).toStdString()};
    }
    for (int i = 0; i < count; ++i) {
        Result<QString> id = provider->rentAs(offerId, QString(), caller.user);
        if (!id) {
            const QString why = QString::fromStdString(id.error().message);
            record(caller, QStringLiteral("rent"), target,
                   reply->lease_ids_size() > 0
                       ? tr("%1 (after %2 of %3)").arg(why).arg(reply->lease_ids_size()).arg(count)
                       : why,
                   QStringLiteral("failed"));
            return statusOf(id.error());
        }
        reply->add_lease_ids(id->toStdString());
        record(caller, QStringLiteral("rent"), *id, target, QStringLiteral("ok"));
    }
    return grpc::Status::OK;
}

grpc::Status BackendServer::release(const QString& leaseId, const Caller& caller) {
    for (Provider* p : m_session->providers()) {
        const Lease lease = p->lease(leaseId);
        if (lease.id.isEmpty()) {
            continue;
        }
        const QString renter = lease.user.isEmpty() ? m_access.localUser : lease.user;
        if (renter != caller.user && !caller.admin) {
            const QString why = tr("lease %1 was rented by %2: only %2 or an admin (server.json "
                                   "\"admins\") may release it")
                                    .arg(leaseId, renter);
            record(caller, QStringLiteral("release"), leaseId, why, QStringLiteral("refused"));
            return {grpc::StatusCode::PERMISSION_DENIED, why.toStdString()};
        }
        if (Result<void> released = p->release(leaseId); !released) {
            record(caller, QStringLiteral("release"), leaseId,
                   QString::fromStdString(released.error().message), QStringLiteral("failed"));
            return statusOf(released.error());
        }
        record(caller, QStringLiteral("release"), leaseId,
               renter == caller.user ? QString() : tr("as an admin; rented by %1").arg(renter),
               QStringLiteral("ok"));
        return grpc::Status::OK;
    }
    return {grpc::StatusCode::NOT_FOUND,
            tr("no lease %1 (WatchCluster lists them)").arg(leaseId).toStdString()};
}

namespace {

/// Why `p` cannot be a policy (the Auto-provision dialog's ranges); "" when it can.
QString policyProblem(const bv1::AutoscaleInfo& p) {
    if (!(p.max_per_hour() >= 0 && p.max_per_hour() <= 1e6) ||
        !(p.max_total() >= 0 && p.max_total() <= 1e6)) {
        return QObject::tr("budgets are US dollars from 0 (no cap) to 1,000,000");
    }
    if (p.max_nodes() < 1 || p.max_nodes() > 1024) {
        return QObject::tr("the node cap is 1 to 1,024, not %1").arg(p.max_nodes());
    }
    if (p.idle_timeout_sec() < 60 || p.idle_timeout_sec() > 24 * 3600) {
        return QObject::tr("the idle timeout is 60 s to 24 h, not %1 s").arg(p.idle_timeout_sec());
    }
    return {};
}

} // namespace

grpc::Status BackendServer::setAutoscale(const bv1::AutoscaleInfo& info, const Caller& caller) {
    const QString detail = tr("%1, $%2/h, $%3 in total, %4 nodes, idle %5 s")
                               .arg(info.enabled() ? QStringLiteral("on") : QStringLiteral("off"))
                               .arg(info.max_per_hour())
                               .arg(info.max_total())
                               .arg(info.max_nodes())
                               .arg(info.idle_timeout_sec());
    if (!caller.admin) {
        const QString why = tr("the auto-provision policy is the cluster's: only an admin "
                               "(server.json \"admins\") may change it");
        record(caller, QStringLiteral("settings"), QStringLiteral("autoscale"), why,
               QStringLiteral("refused"));
        return {grpc::StatusCode::PERMISSION_DENIED, why.toStdString()};
    }
    if (const QString problem = policyProblem(info); !problem.isEmpty()) {
        record(caller, QStringLiteral("settings"), QStringLiteral("autoscale"), problem,
               QStringLiteral("refused"));
        return {grpc::StatusCode::INVALID_ARGUMENT, problem.toStdString()};
    }
    const AutoscalePolicy policy{info.enabled(), info.max_per_hour(), info.max_total(),
                                 info.max_nodes(), info.idle_timeout_sec()};
    saveAutoscalePolicy(policy); // the next start applies it too
    m_session->autoscaler()->setPolicy(policy);
    m_cluster->changed(); // clients see it in the next snapshot
    record(caller, QStringLiteral("settings"), QStringLiteral("autoscale"), detail,
           QStringLiteral("ok"));
    return grpc::Status::OK;
}

} // namespace tessera
