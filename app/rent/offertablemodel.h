// Table model of what every provider has for rent: one row per offer, refreshed when a
// provider's offers change (a host added, a lease taken or given back).
#pragma once

#include "backend/provision/offer.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>

namespace tessera {

class Provider;

/// Rows are the offers of the providers in the order given, each provider's in its own order.
/// DisplayRole gives text ("$0.50/h", "1 of 1"), Qt::UserRole the raw value (price as double,
/// counts as int) so that a QSortFilterProxyModel sorts numbers as numbers. Memory: the local
/// offer (which does not say) shows this machine's RAM (/proc/meminfo); memory nobody knows is
/// "–" with a tooltip saying why.
class OfferTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Provider, Node, Device, Memory, Slots, Price, Where, Available, ColumnCount };

    /// The providers must outlive the model (a destroyed one is dropped at the next refresh).
    explicit OfferTableModel(const QList<tessera::Provider*>& providers, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The offer in `row` (0 ≤ row < rowCount()).
    const Offer& offerAt(int row) const { return m_offers.at(row); }
    /// The provider whose id is `id`, or null.
    tessera::Provider* provider(const QString& id) const;

public Q_SLOTS:
    /// Re-reads every provider's offers (a model reset).
    void refresh();

private:
    QList<QPointer<tessera::Provider>> m_providers;
    QList<Offer> m_offers;
};

} // namespace tessera
