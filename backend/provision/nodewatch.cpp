// Unreachable-node clocks for ready leases (see nodewatch.h).
#include "backend/provision/nodewatch.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"

#include <QLoggingCategory>
#include <QTimer>

namespace tessera {

NodeWatch::NodeWatch(ClusterRegistry* registry, QObject* parent)
    : QObject(parent), m_registry(registry) {
    connect(registry, &ClusterRegistry::nodeChanged, this, &NodeWatch::check);
    connect(registry, &ClusterRegistry::nodeRemoved, this, &NodeWatch::unwatch);
}

void NodeWatch::watch(const QString& node) {
    if (m_clocks.contains(node)) {
        return;
    }
    Clock c;
    c.timer = new QTimer(this);
    c.timer->setSingleShot(true);
    c.timer->setTimerType(Qt::PreciseTimer); // a coarse one may end the grace 5 % early
    connect(c.timer, &QTimer::timeout, this, [this, node] { expire(node); });
    m_clocks.insert(node, c);
    check(node);
}

void NodeWatch::unwatch(const QString& node) {
    if (auto it = m_clocks.find(node); it != m_clocks.end()) {
        it->timer->deleteLater();
        m_clocks.erase(it);
    }
}

void NodeWatch::check(const QString& node) {
    const auto it = m_clocks.find(node);
    const auto n = m_registry->node(node);
    if (it == m_clocks.end() || !n) {
        return;
    }
    if (n->state == NodeState::Unreachable) {
        if (!it->since.isValid()) {
            it->since.start();
            it->timer->start(m_graceMs);
            qCInfo(lcLease).noquote() << node << "is unreachable; its lease ends in"
                                      << m_graceMs / 1000.0 << "s unless it answers again";
        }
    } else if (it->since.isValid()) {
        qCInfo(lcLease).noquote() << node << "answers again after" << it->since.elapsed()
                                  << "ms unreachable";
        it->since.invalidate();
        it->timer->stop();
    }
}

void NodeWatch::expire(const QString& node) {
    const auto it = m_clocks.find(node);
    const auto n = m_registry->node(node);
    if (it == m_clocks.end() || !n || n->state != NodeState::Unreachable) {
        return;
    }
    const qint64 ms = it->since.elapsed();
    if (ms < m_graceMs) {
        it->timer->start(int(m_graceMs - ms)); // never report less than the grace period
        return;
    }
    const QString lastError = n->lastError;
    unwatch(node);
    Q_EMIT lost(node, ms, lastError);
}

} // namespace tessera
