// A provider for tests that rents nothing real: offers with given prices and slots; rent()
// makes a lease at once (state Requested, billing from an hour ago) and refuses ids starting
// with "busy"; release() ends it.
#pragma once

#include "provider.h"

namespace tessera::test {

class ScriptedProvider : public Provider {
public:
    /// One offer per price: ids "busy-0" (when `firstBusy`) or "box-<i>", `nodesPerRent` nodes
    /// of `slots` slots per rent (nodes "<offer>" for one, else "<offer>-n0", "<offer>-n1", ...).
    explicit ScriptedProvider(const QList<double>& prices, bool firstBusy = true, int slots = 1,
                              int nodesPerRent = 1)
        : Provider(nullptr) {
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
    QString id() const override { return QStringLiteral("scripted"); }
    QList<Offer> offers() const override { return m_offers; }
    Result<QString> rent(const QString& offerId) override {
        if (offerId.startsWith(QLatin1String("busy"))) {
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
    void restore() override {}
    /// Moves a lease to `state` (a rent that fails or becomes ready) and says it.
    void setState(const QString& leaseId, LeaseState state, const QString& reason = QString()) {
        Lease l = lease(leaseId);
        l.state = state;
        l.reason = reason;
        update(l);
    }

private:
    QList<Offer> m_offers;
};

} // namespace tessera::test
