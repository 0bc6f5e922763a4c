// Offers of every provider as a table (see offertablemodel.h).
#include "app/rent/offertablemodel.h"

#include "backend/provision/devicefit.h"
#include "backend/provision/provider.h"

#include <QFile>
#include <QLocale>
#include <QRegularExpression>

namespace tessera {

namespace {

/// This machine's RAM (MemTotal of /proc/meminfo), bytes; 0 where that cannot be read. Read once.
quint64 thisMachineRam() {
    static const quint64 bytes = [] {
        QFile f(QStringLiteral("/proc/meminfo"));
        if (!f.open(QIODevice::ReadOnly)) {
            return quint64(0);
        }
        const QString text = QString::fromLatin1(f.read(4096));
        const auto m = QRegularExpression(QStringLiteral("^MemTotal:\\s*(\\d+)\\s*kB"),
                                          QRegularExpression::MultilineOption)
                           .match(text);
        return m.hasMatch() ? m.captured(1).toULongLong() * 1024 : quint64(0);
    }();
    return bytes;
}

/// The memory an offer's Memory column shows: its own, or for the local offer this machine's.
quint64 memoryOf(const Offer& o) {
    if (o.deviceMemoryBytes == 0 && o.provider == QLatin1String("local") && o.devicesPerNode == 0) {
        return thisMachineRam();
    }
    return o.deviceMemoryBytes;
}

} // namespace

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
        if (role == Qt::ToolTipRole && index.column() == Memory) {
            if (memoryOf(o) > 0) {
                return o.provider == QLatin1String("local")
                           ? tr("This machine's memory, shared by all its local workers")
                           : QVariant();
            }
            return o.provider == QLatin1String("ssh")
                       ? tr("Not known yet: the first rent checks the machine (nvidia-smi) and "
                            "records its GPUs' memory; a CPU-only host's memory is not recorded")
                       : tr("The provider does not say how much memory this offer has");
        }
        return {};
    }
    switch (Column(index.column())) {
    case Provider:
        return providerText(o.provider);
    case Node:
        return o.name;
    case Device:
        return o.devicesPerNode > 0 ? QStringLiteral("%1 × %2")
                                          .arg(o.devicesPerNode)
                                          .arg(deviceKindText(o.deviceKind))
                                    : deviceKindText(o.deviceKind);
    case Memory: {
        const quint64 bytes = memoryOf(o);
        if (raw) {
            return double(bytes);
        }
        if (bytes == 0) {
            return QStringLiteral("–"); // as the cluster table; the tooltip says why
        }
        return o.devicesPerNode > 0 ? tr("%1 per GPU").arg(gibText(double(bytes)))
                                    : tr("%1 RAM").arg(gibText(double(bytes)));
    }
    case Slots:
        return o.slotsPerNode;
    case Price:
        return raw ? QVariant(o.pricePerHour)
                   : QVariant(o.pricePerHour > 0
                                  ? tr("$%1/h").arg(QLocale().toString(o.pricePerHour, 'f', 2))
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
