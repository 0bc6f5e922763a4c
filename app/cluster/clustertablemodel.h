// Table model over a server's cluster (ClusterView): one row per worker daemon, kept in step with
// its nodeAdded / nodeChanged / nodeRemoved signals.
#pragma once

#include "backend/core/workernode.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>

namespace tessera {

namespace client {
class ClusterView;
}

/// Rows are the cluster's nodes in the server's order; columns are the Column enum. DisplayRole
/// gives text (memory in GiB), Qt::UserRole the raw value (NodeState as int, bytes as quint64),
/// ToolTipRole the node's last error. The Problem column shows that error where a person sees it
/// at once (a refused certificate, a worker that does not answer); empty for a healthy node. The
/// model keeps its own copy of the rows so that row indices change only inside begin/end
/// notifications.
class ClusterTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Address, Host, State, Slots, Cores, Memory, Problem, ColumnCount };

    /// `cluster` may be null (an empty model).
    explicit ClusterTableModel(client::ClusterView* cluster, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The node shown in `row` (0 ≤ row < rowCount()).
    const WorkerNode& nodeAt(int row) const { return m_nodes.at(row); }
    /// Number of rows whose state is Ready.
    int readyCount() const;
    /// Sum of the slots of the Ready rows.
    int readySlots() const;

private:
    void onNodeAdded(const QString& name);
    void onNodeChanged(const QString& name);
    void onNodeRemoved(const QString& name);
    int rowOf(const QString& name) const;

    QPointer<client::ClusterView> m_cluster;
    QList<WorkerNode> m_nodes;
};

} // namespace tessera
