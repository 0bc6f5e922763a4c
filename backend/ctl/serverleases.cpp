// offers / rent / leases / release through a tessera-server (see serverleases.h).
#include "backend/ctl/serverleases.h"

#include "backend/ctl/servercontact.h"
#include "backend/service/backendclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <grpcpp/client_context.h>

#include <chrono>
#include <cstdio>

namespace tessera::ctl {

namespace bv1 = tessera::backend::v1;

namespace {

int failed(const Error& e) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", e.message.c_str());
    return e.code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
}

void printOffers(const bv1::ListOffersReply& reply, bool json) {
    if (json) {
        QJsonArray rows;
        for (const auto& o : reply.offers()) {
            rows.append(
                QJsonObject{{QStringLiteral("provider"), QString::fromStdString(o.provider())},
                            {QStringLiteral("id"), QString::fromStdString(o.id())},
                            {QStringLiteral("device"), QString::fromStdString(o.device_kind())},
                            {QStringLiteral("slots"), o.slots_per_node()},
                            {QStringLiteral("pricePerHour"), o.price_per_hour()},
                            {QStringLiteral("available"), o.available()}});
        }
        std::printf("%s\n", QJsonDocument(rows).toJson(QJsonDocument::Compact).constData());
        return;
    }
    std::printf("%-8s %-28s %-24s %5s %9s %5s\n", "PROVIDER", "OFFER", "DEVICE", "SLOTS", "$/HOUR",
                "FREE");
    for (const auto& o : reply.offers()) {
        std::printf("%-8s %-28s %-24s %5d %9.2f %5d\n", o.provider().c_str(), o.id().c_str(),
                    o.device_kind().c_str(), o.slots_per_node(), o.price_per_hour(), o.available());
    }
    for (const std::string& problem : reply.problems()) {
        std::printf("note: %s\n", problem.c_str());
    }
}

void printLeases(const bv1::ClusterSnapshot& s, bool json) {
    if (json) {
        QJsonArray rows;
        for (const auto& l : s.leases()) {
            rows.append(
                QJsonObject{{QStringLiteral("id"), QString::fromStdString(l.id())},
                            {QStringLiteral("provider"), QString::fromStdString(l.provider())},
                            {QStringLiteral("offer"), QString::fromStdString(l.offer_id())},
                            {QStringLiteral("state"), QString::fromStdString(l.state())},
                            {QStringLiteral("user"), QString::fromStdString(l.user())},
                            {QStringLiteral("cost"), l.cost()}});
        }
        std::printf("%s\n", QJsonDocument(rows).toJson(QJsonDocument::Compact).constData());
        return;
    }
    std::printf("%-34s %-8s %-20s %-11s %-12s %8s\n", "LEASE", "PROVIDER", "OFFER", "STATE", "USER",
                "COST $");
    for (const auto& l : s.leases()) {
        std::printf("%-34s %-8s %-20s %-11s %-12s %8.2f\n", l.id().c_str(), l.provider().c_str(),
                    l.offer_id().c_str(), l.state().c_str(),
                    l.user().empty() ? "-" : l.user().c_str(), l.cost());
    }
    std::printf("burning $%.2f/hour; $%.2f so far\n", s.burn_per_hour(), s.total_cost());
}

/// Follows the server's WatchCluster until lease `id` is in one of `states` (or failed), at most
/// `seconds`: its last state, or the error. Each snapshot comes when the cluster changed.
Result<bv1::LeaseInfo> waitForLease(BackendClient& client, const std::string& id,
                                    const QStringList& states, int seconds) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
    auto stream = client.stub().WatchCluster(&context, bv1::WatchClusterRequest());
    bv1::ClusterSnapshot snapshot;
    bv1::LeaseInfo last;
    while (stream->Read(&snapshot)) {
        for (const auto& l : snapshot.leases()) {
            if (l.id() == id) {
                last = l;
            }
        }
        const QString state = QString::fromStdString(last.state());
        if (states.contains(state) || state == QLatin1String("failed")) {
            context.TryCancel();
            stream->Finish();
            return last;
        }
    }
    const grpc::Status end = stream->Finish();
    if (end.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
        return fail(ErrorCode::Unavailable, "lease " + id + " is still " + last.state() +
                                                " after " + std::to_string(seconds) + " s");
    }
    return std::unexpected(backendCallError(end, client.endpoint()));
}

int rentOne(BackendClient& client, const CtlOptions& o, int waitSeconds) {
    auto ids = client.rent(o.provider, o.offerId);
    if (!ids) {
        return failed(ids.error());
    }
    const std::string id = ids->first().toStdString();
    std::printf("rented %s (%s %s); waiting until its worker is ready\n", id.c_str(),
                qPrintable(o.provider), qPrintable(o.offerId));
    std::fflush(stdout);
    auto lease = waitForLease(client, id, {QStringLiteral("ready")}, waitSeconds);
    if (!lease) {
        return failed(lease.error());
    }
    if (lease->state() != "ready") {
        std::fprintf(stderr, "tessera-ctl: lease %s failed: %s\n", id.c_str(),
                     lease->reason().c_str());
        return kExitJobFailed;
    }
    QStringList nodes;
    for (const std::string& node : lease->nodes()) {
        nodes << QString::fromStdString(node);
    }
    std::printf("lease %s ready: %s\n", id.c_str(), qPrintable(nodes.join(QStringLiteral(", "))));
    return kExitOk;
}

int releaseOne(BackendClient& client, const std::string& id) {
    if (Result<void> released = client.release(QString::fromStdString(id)); !released) {
        return failed(released.error());
    }
    auto lease = waitForLease(client, id, {QStringLiteral("released")}, 300);
    if (!lease) {
        return failed(lease.error());
    }
    std::printf("lease %s %s\n", id.c_str(), lease->state().c_str());
    return lease->state() == "released" ? kExitOk : kExitJobFailed;
}

} // namespace

std::optional<int> leasesThroughServer(const CtlOptions& o, int rentWaitSeconds) {
    auto contact = serverContact(o);
    if (!contact) {
        return failed(contact.error());
    }
    if (!*contact) {
        return std::nullopt;
    }
    BackendClient client((*contact)->owner.endpoint, (*contact)->identity);
    const QString& c = o.command;
    if (c == QLatin1String("offers")) {
        auto offers = client.offers();
        if (!offers) {
            return failed(offers.error());
        }
        printOffers(*offers, o.json);
        return kExitOk;
    }
    if (c == QLatin1String("rent")) {
        return rentOne(client, o, rentWaitSeconds);
    }
    auto snapshot = client.cluster();
    if (!snapshot) {
        return failed(snapshot.error());
    }
    if (c == QLatin1String("leases")) {
        printLeases(*snapshot, o.json);
        return kExitOk;
    }
    if (c == QLatin1String("release")) {
        if (!o.all) {
            return releaseOne(client, o.target.toStdString());
        }
        int worst = kExitOk;
        for (const auto& l : snapshot->leases()) {
            if (l.state() != "released" && l.state() != "failed") {
                worst = std::max(worst, releaseOne(client, l.id()));
            }
        }
        return worst;
    }
    std::fprintf(stderr, "tessera-ctl: error: %s does not go through a tessera-server\n",
                 qPrintable(c));
    return kExitBadInput;
}

} // namespace tessera::ctl
