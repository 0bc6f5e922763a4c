// A provider for tests that rents nothing real: offers with given prices and slots; rent()
// makes a lease at once (state Requested, billing from an hour ago) and refuses ids starting
// with "busy"; release() ends it.
#pragma once

#include "provider.h"

namespace tessera::test {

class ScriptedProvider : public Provider {
public:
    /// One offer per price: ids "busy-0" (when `firstBusy`) or "box-<i>", one node each.
    explicit ScriptedProvider(const QList<double>& prices, bool firstBusy = true, int slots = 1)
        : Provider(nullptr) {
        for (qsizetype i = 0; i < prices.size(); ++i) {
            Offer o;
            o.provider = id();
            o.id = QStringLiteral("%1-%2").arg(i == 0 && firstBusy ? "busy" : "box").arg(i);
            o.name = o.id;
            o.deviceKind = QStringLiteral("cpu");
            o.slotsPerNode = slots;
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
        l.nodes = {offerId};
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
