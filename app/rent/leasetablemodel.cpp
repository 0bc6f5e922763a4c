// Leases of every provider as a table (see leasetablemodel.h).
#include "app/rent/leasetablemodel.h"

#include "backend/provision/provider.h"
#include <QLocale>

namespace tessera {

LeaseTableModel::LeaseTableModel(const QList<tessera::Provider*>& providers, QObject* parent)
    : QAbstractTableModel(parent) {
    for (tessera::Provider* p : providers) {
        m_leases += p->leases();
        connect(p, &tessera::Provider::leaseChanged, this, &LeaseTableModel::onLeaseChanged);
    }
}

void LeaseTableModel::onLeaseChanged(const Lease& lease) {
    for (qsizetype i = 0; i < m_leases.size(); ++i) {
        if (m_leases[i].id == lease.id) {
            m_leases[i] = lease;
            Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
            return;
        }
    }
    beginInsertRows({}, int(m_leases.size()), int(m_leases.size()));
    m_leases.append(lease);
    endInsertRows();
}

double LeaseTableModel::totalCost() const {
    return tessera::totalCost(m_leases, QDateTime::currentDateTimeUtc());
}

void LeaseTableModel::refreshCosts() {
    if (!m_leases.isEmpty()) {
        Q_EMIT dataChanged(index(0, Cost), index(int(m_leases.size()) - 1, Cost));
    }
}

double LeaseTableModel::burnRate() const {
    return tessera::burnRate(m_leases);
}

int LeaseTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_leases.size());
}

int LeaseTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LeaseTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Lease& l = m_leases.at(index.row());
    if (role == Qt::ToolTipRole && index.column() == Detail) {
        return l.reason;
    }
    const bool raw = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !raw) {
        return {};
    }
    switch (Column(index.column())) {
    case Id:
        return l.id;
    case Provider:
        return providerText(l.provider);
    case Nodes:
        return l.nodes.join(QStringLiteral(", "));
    case State:
        return raw ? QVariant(int(l.state)) : QVariant(leaseStateText(l.state));
    case Detail:
        return l.reason;
    case Cost: {
        const double c = l.cost(QDateTime::currentDateTimeUtc());
        return raw ? QVariant(c) : QVariant(tr("$%1").arg(QLocale().toString(c, 'f', 2)));
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant LeaseTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (Column(section)) {
    case Id:
        return tr("Lease");
    case Provider:
        return tr("Provider");
    case Nodes:
        return tr("Nodes");
    case State:
        return tr("State");
    case Detail:
        return tr("Step / reason");
    case Cost:
        return tr("Cost so far");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace tessera
