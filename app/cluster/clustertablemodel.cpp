// Table model over a server's cluster (ClusterView): mirrors its node list row by row.
#include "app/cluster/clustertablemodel.h"

#include "backend/client/clusterview.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <algorithm>

namespace tessera {

namespace {

QString formatMemory(quint64 bytes) {
    if (bytes == 0) {
        return QStringLiteral("–");
    }
    const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
    return QStringLiteral("%1 GiB").arg(QLocale().toString(gib, 'f', 1));
}

QColor stateColor(NodeState state) {
    switch (state) {
    case NodeState::Ready:
        return QColor(44, 160, 44);
    case NodeState::Connecting:
        return QColor(200, 140, 0);
    case NodeState::Unreachable:
        return QColor(200, 40, 40);
    case NodeState::Stopped:
        return QColor(120, 120, 120);
    }
    return {};
}

} // namespace

ClusterTableModel::ClusterTableModel(client::ClusterView* cluster, QObject* parent)
    : QAbstractTableModel(parent), m_cluster(cluster) {
    if (!cluster) {
        return;
    }
    m_nodes = cluster->nodes();
    connect(cluster, &client::ClusterView::nodeAdded, this, &ClusterTableModel::onNodeAdded);
    connect(cluster, &client::ClusterView::nodeChanged, this, &ClusterTableModel::onNodeChanged);
    connect(cluster, &client::ClusterView::nodeRemoved, this, &ClusterTableModel::onNodeRemoved);
}

int ClusterTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_nodes.size());
}

int ClusterTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const WorkerNode& n = m_nodes.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return n.name;
        case Address:
            return n.address;
        case Host:
            return n.host;
        case State:
            return nodeStateText(n.state);
        case Slots:
            return n.slots;
        case Cores:
            return n.cores;
        case Memory:
            return formatMemory(n.memoryBytes);
        case Problem:
            return n.state == NodeState::Ready ? QString() : n.lastError;
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case State:
            return static_cast<int>(n.state);
        case Memory:
            return QVariant::fromValue(n.memoryBytes);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ForegroundRole && (index.column() == State || index.column() == Problem)) {
        return QBrush(stateColor(n.state));
    }
    if (role == Qt::ToolTipRole && !n.lastError.isEmpty()) {
        return n.lastError;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Slots && index.column() <= Memory) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant ClusterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case Name:
        return tr("Name");
    case Address:
        return tr("Address");
    case Host:
        return tr("Host");
    case State:
        return tr("State");
    case Slots:
        return tr("Slots");
    case Cores:
        return tr("Cores");
    case Memory:
        return tr("Memory");
    case Problem:
        return tr("Problem");
    default:
        return {};
    }
}

int ClusterTableModel::readyCount() const {
    return static_cast<int>(std::count_if(m_nodes.cbegin(), m_nodes.cend(), [](const auto& n) {
        return n.state == NodeState::Ready;
    }));
}

int ClusterTableModel::readySlots() const {
    int slots = 0;
    for (const WorkerNode& n : m_nodes) {
        if (n.state == NodeState::Ready) {
            slots += n.slots;
        }
    }
    return slots;
}

void ClusterTableModel::onNodeAdded(const QString& name) {
    if (!m_cluster || rowOf(name) >= 0) {
        return onNodeChanged(name);
    }
    const auto node = m_cluster->node(name);
    if (!node) {
        return;
    }
    const int row = static_cast<int>(m_nodes.size());
    beginInsertRows({}, row, row);
    m_nodes.append(*node);
    endInsertRows();
}

void ClusterTableModel::onNodeChanged(const QString& name) {
    if (!m_cluster) {
        return;
    }
    const auto node = m_cluster->node(name);
    const int row = rowOf(name);
    if (!node) {
        onNodeRemoved(name);
        return;
    }
    if (row < 0) {
        onNodeAdded(name);
        return;
    }
    m_nodes[row] = *node;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ClusterTableModel::onNodeRemoved(const QString& name) {
    const int row = rowOf(name);
    if (row < 0) {
        return;
    }
    beginRemoveRows({}, row, row);
    m_nodes.removeAt(row);
    endRemoveRows();
}

int ClusterTableModel::rowOf(const QString& name) const {
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes.at(i).name == name) {
            return i;
        }
    }
    return -1;
}

} // namespace tessera
