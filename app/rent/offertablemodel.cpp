// Offers of every provider as a table (see offertablemodel.h).
#include "app/rent/offertablemodel.h"

#include "backend/provision/devicefit.h"
#include "backend/provision/provider.h"

namespace tessera {

OfferTableModel::OfferTableModel(const QList<tessera::Provider*>& providers, QObject* parent)
    : QAbstractTableModel(parent) {
    for (tessera::Provider* p : providers) {
        m_providers.append(p);
        connect(p, &tessera::Provider::offersChanged, this, &OfferTableModel::refresh);
    }
    refresh();
}

void OfferTableModel::refresh() {
    beginResetModel();
    m_offers.clear();
    for (const auto& p : std::as_const(m_providers)) {
        if (p) {
            m_offers += p->offers();
        }
    }
    endResetModel();
}

tessera::Provider* OfferTableModel::provider(const QString& id) const {
    for (const auto& p : m_providers) {
        if (p && p->id() == id) {
            return p;
        }
    }
    return nullptr;
}

int OfferTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_offers.size());
}

int OfferTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OfferTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Offer& o = m_offers.at(index.row());
    const bool raw = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !raw) {
        if (role == Qt::ToolTipRole && index.column() == Node) {
            return tr("%1 offer %2").arg(o.provider, o.id);
        }
        return {};
    }
    switch (Column(index.column())) {
    case Provider:
        return o.provider;
    case Node:
        return o.name;
    case Device:
        return o.devicesPerNode > 0
                   ? QStringLiteral("%1 × %2").arg(o.devicesPerNode).arg(o.deviceKind)
                   : o.deviceKind;
    case Memory:
        if (raw) {
            return double(o.deviceMemoryBytes);
        }
        if (o.deviceMemoryBytes == 0) {
            return tr("unknown");
        }
        return o.devicesPerNode > 0 ? tr("%1 per GPU").arg(gibText(double(o.deviceMemoryBytes)))
                                    : tr("%1 RAM").arg(gibText(double(o.deviceMemoryBytes)));
    case Slots:
        return o.slotsPerNode;
    case Price:
        return raw ? QVariant(o.pricePerHour)
                   : QVariant(o.pricePerHour > 0 ? tr("$%1/h").arg(o.pricePerHour, 0, 'f', 2)
                                                 : tr("own"));
    case Where:
        return o.where;
    case Available:
        return raw ? QVariant(o.available) : QVariant(o.available > 0 ? tr("yes") : tr("rented"));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant OfferTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (Column(section)) {
    case Provider:
        return tr("Provider");
    case Node:
        return tr("Node");
    case Memory:
        return tr("Memory");
    case Device:
        return tr("Device");
    case Slots:
        return tr("Slots");
    case Price:
        return tr("Price");
    case Where:
        return tr("Where");
    case Available:
        return tr("Available");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace tessera
