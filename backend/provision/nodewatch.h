// Watches the cluster nodes that ready leases hold and reports one that stays Unreachable past
// a grace period: its machine died or its network is gone, and the lease should end.
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>

class QTimer;

namespace tessera {

class ClusterRegistry;

/// Follows ClusterRegistry::nodeChanged for the watched nodes. A node that turns Unreachable
/// starts its clock; one that is anything else again (Ready, Connecting) before the grace
/// period ends stops it; one still Unreachable when it ends is reported once by lost() and no
/// longer watched. Removed nodes are no longer watched. Lives in the registry's thread.
class NodeWatch : public QObject {
    Q_OBJECT
public:
    /// `registry` must outlive the watch.
    explicit NodeWatch(ClusterRegistry* registry, QObject* parent = nullptr);

    /// How long a node may stay Unreachable before lost(), ms (default 60000). Applies to
    /// clocks started afterwards.
    void setGrace(int ms) { m_graceMs = ms; }
    int grace() const { return m_graceMs; }

    /// Watches `node` (the clock starts now if it is already Unreachable). Again: no change.
    void watch(const QString& node);
    /// Stops watching `node`; unknown names are ignored.
    void unwatch(const QString& node);

Q_SIGNALS:
    /// `node` has been Unreachable for `unreachableMs` ms (≥ the grace period); `lastError` is
    /// the registry's last probe error for it.
    void lost(QString node, qint64 unreachableMs, QString lastError);

private:
    void check(const QString& node);
    void expire(const QString& node);

    struct Clock {
        QElapsedTimer since; ///< running while the node is Unreachable
        QTimer* timer = nullptr;
    };
    ClusterRegistry* m_registry;
    QHash<QString, Clock> m_clocks;
    int m_graceMs = 60000;
};

} // namespace tessera
