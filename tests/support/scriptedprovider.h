// A provider for tests that rents nothing real: offers with given prices and slots; rent()
// makes a lease at once (state Requested, billing from an hour ago) and refuses ids containing
// "busy"; release() ends it. makeGpu() turns its offers into GPU nodes. With a LeaseStore its
// leases are stored, and restore() takes the live ones back as they were (a restarted backend).
#pragma once

#include "backend/provision/leasestore.h"
#include "backend/provision/provider.h"

namespace tessera::test {

class ScriptedProvider : public Provider {
public:
    /// One offer per price: ids "busy-0" (when `firstBusy`) or "box-<i>", `nodesPerRent` nodes
    /// of `slots` slots per rent (nodes "<offer>" for one, else "<offer>-n0", "<offer>-n1", ...).
    explicit ScriptedProvider(const QList<double>& prices, bool firstBusy = true, int slots = 1,
                              int nodesPerRent = 1, LeaseStore* store = nullptr)
        : Provider(store) {
        for (qsizetype i = 0; i < prices.size(); ++i) {
            Offer o;
            o.provider = id();
            o.id = QStringLiteral("%1-%2").arg(i == 0 && firstBusy ? "busy" : "box").arg(i);
            o.name = o.id;
            o.deviceKind = QStringLiteral("cpu");
            o.slotsPerNode = slots;
            o.nodesPerRent = nodesPerRent;
            o.pricePerHour = prices[i];
            m_offers << o;
        }
    }
    QString id() const override { return m_id; }
    /// Makes every offer `devices` GPUs of `kind` with `memoryBytes` each (one slot per GPU), under
    /// provider id `providerId` (offer ids "<providerId>-box-<i>", so providers can be told apart).
    void makeGpu(const QString& providerId, const QString& kind, int devices, quint64 memoryBytes) {
        m_id = providerId;
        for (Offer& o : m_offers) {
            o.provider = providerId;
            o.id = o.name = providerId + QLatin1Char('-') + o.id;
            o.deviceKind = kind;
            o.devicesPerNode = devices;
            o.slotsPerNode = devices;
            o.deviceMemoryBytes = memoryBytes;
        }
    }
    QList<Offer> offers() const override { return m_offers; }
    Result<QString> rent(const QString& offerId) override {
        if (offerId.contains(QLatin1String("busy"))) {
            return fail(ErrorCode::Unavailable, offerId.toStdString() + " is taken");
        }
        Lease l;
        l.id = QStringLiteral("lease-") + offerId;
        l.provider = id();
        l.offerId = offerId;
        const int nodes = m_offers.first().nodesPerRent;
        for (int n = 0; n < nodes; ++n) {
            l.nodes << (nodes == 1 ? offerId : QStringLiteral("%1-n%2").arg(offerId).arg(n));
        }
        l.pricePerHour = 1.0;
        l.created = QDateTime::currentDateTimeUtc().addSecs(-3600);
        update(l);
        return l.id;
    }
    Result<void> release(const QString& leaseId) override {
        Lease l = lease(leaseId);
        l.state = LeaseState::Released;
        l.ended = QDateTime::currentDateTimeUtc();
        update(l);
        return {};
    }
    void restore() override {
        if (store() == nullptr) {
            return;
        }
        for (const Lease& l : store()->live()) {
            if (l.provider == id() && lease(l.id).id.isEmpty()) {
                update(l);
            }
        }
    }
    /// Moves a lease to `state` (a rent that fails or becomes ready) and says it.
    void setState(const QString& leaseId, LeaseState state, const QString& reason = QString()) {
        Lease l = lease(leaseId);
        l.state = state;
        l.reason = reason;
        update(l);
    }

private:
    QString m_id = QStringLiteral("scripted");
    QList<Offer> m_offers;
};

} // namespace tessera::test
