// Cluster panel: the table of worker daemons plus "Rent local workers" and "Release" actions.
#pragma once

#include <QHash>
#include <QWidget>

#include <functional>

class QAction;
class QLabel;
class QSpinBox;
class QTableView;

namespace tessera {

class ClusterTableModel;
class LocalWorkers;
namespace client {
class ClusterView;
}

/// Shows the server's nodes (`cluster`) and rents / releases local workers through `provider`.
/// Renting is asynchronous: the action only starts it; the outcome arrives through LocalWorkers's
/// signals. How many workers to rent comes from an inline spin box (default 2, one slot each), so
/// the action is one click and never opens a blocking dialog.
class ClusterPanel : public QWidget {
    Q_OBJECT
public:
    /// `cluster` and `provider` must outlive the panel.
    ClusterPanel(client::ClusterView* cluster, LocalWorkers* provider, QWidget* parent = nullptr);

    /// "Rent local workers" (Ctrl+R) and "Release workers" (Ctrl+Shift+R), for menus/toolbars.
    QAction* rentAction() const { return m_rentAction; }
    QAction* releaseAction() const { return m_releaseAction; }

    ClusterTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// Number of workers the next rent asks for (1..64).
    void setWorkerCount(int workers);
    int workerCount() const;
    /// Ranks each rented worker accepts (1..64).
    void setSlotsPerWorker(int slots);
    /// Asked by release() before the workers stop: false keeps them (the person cancelled, or
    /// the guard releases later itself through releaseNow()). Default: none, release at once.
    void setReleaseGuard(std::function<bool()> guard) { m_releaseGuard = std::move(guard); }

public Q_SLOTS:
    /// Starts renting workerCount() local workers (no-op while a rent is in progress).
    void rent();
    /// Stops every local worker, once the release guard (if any) agrees.
    void release();
    /// Stops every local worker without asking.
    void releaseNow();

Q_SIGNALS:
    /// A line for the log pane: rent started / finished / failed, release done, a node that
    /// became unreachable and why (a refused certificate, no answer), once until it answers.
    void message(const QString& text);

private:
    void setBusy(bool busy, const QString& status);
    /// Says in the status line why node `name` is unreachable, and in the log once per spell.
    void onNodeChanged(const QString& name);

    client::ClusterView* m_cluster;
    LocalWorkers* m_provider;
    ClusterTableModel* m_model;
    QTableView* m_view;
    QSpinBox* m_workers;
    QSpinBox* m_slots;
    QLabel* m_status;
    QAction* m_rentAction;
    QAction* m_releaseAction;
    bool m_renting = false;
    std::function<bool()> m_releaseGuard;
    QHash<QString, QString> m_reported; ///< node → the unreachable reason last said
};

} // namespace tessera
