// Table model of the providers' leases: state, what it is doing or why it failed, and its cost
// so far, kept in step with every provider's leaseChanged.
#pragma once

#include "backend/provision/lease.h"

#include <QAbstractTableModel>
#include <QList>

namespace tessera {

class Provider;

/// One row per lease, oldest first. DisplayRole gives text; Qt::UserRole gives the LeaseState
/// (as int) in the State column and the cost in dollars (double) in the Cost column.
class LeaseTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Provider, Nodes, State, Detail, Cost, ColumnCount };

    /// The providers must outlive the model.
    explicit LeaseTableModel(const QList<tessera::Provider*>& providers, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const Lease& leaseAt(int row) const { return m_leases.at(row); }
    /// Sum of every lease's cost up to now, dollars.
    double totalCost() const;
    /// Sum of the price per hour of the live leases, dollars per hour.
    double burnRate() const;

public Q_SLOTS:
    /// The Cost column changes with time: tells the views to read it again (dataChanged).
    void refreshCosts();

private:
    void onLeaseChanged(const Lease& lease);
    QList<Lease> m_leases;
};

} // namespace tessera
