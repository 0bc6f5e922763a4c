// The status bar's hint: what to do next where the person is (no workers yet, workers ready, a
// job running, the Designer tab), and every menu and toolbar action's status tip on hover.
#pragma once

#include <QLabel>

class QAction;
class QStatusBar;
class QTabWidget;

namespace tessera {

class ClusterTableModel;
class JobPanel;

/// A label in a status bar (a normal widget: an action's status tip replaces it while the
/// pointer is on the action, then it comes back). It follows the central tab, the Ready workers
/// of the cluster and the Job panel's current job; objectName "statusHint".
class StatusHint : public QLabel {
    Q_OBJECT
public:
    /// What the hint watches and names. Every pointer must outlive the hint.
    struct Sources {
        QTabWidget* tabs = nullptr;         ///< the central tabs (may be null: no Designer hint)
        QWidget* designer = nullptr;        ///< the Designer tab's page
        ClusterTableModel* nodes = nullptr; ///< the cluster's workers (readyCount())
        QAction* rentLocal = nullptr;       ///< rents local workers (its shortcut is named)
        QAction* rentMachines = nullptr;    ///< opens the Rent dialog
        JobPanel* jobs = nullptr;           ///< the current job, Launch and Cancel
    };

    /// Adds itself to `statusBar` (stretching) and follows `sources`.
    StatusHint(QStatusBar* statusBar, const Sources& sources);

    /// Gives every action under `root` that has a tool tip but no status tip (and whose tool tip
    /// says more than its text) the tool tip as status tip, so hovering it says what it does.
    static void fillStatusTips(QObject* root);

    /// The hint for the state now (what the label shows).
    QString hint() const;

private:
    void refresh();

    Sources m_sources;
};

} // namespace tessera
