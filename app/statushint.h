// The status bar's hint: what to do next where the person is (no workers yet, workers ready, a
// job running, the Designer tab), and every menu and toolbar action's status tip on hover.
#pragma once

#include <QLabel>

namespace tessera {

class MainWindow;

/// A label in `window`'s status bar (a normal widget: an action's status tip replaces it while
/// the pointer is on the action, then it comes back). It follows the central tab, the Ready
/// workers of the cluster panel and the Job panel's current job. Actions that have a tool tip
/// but no status tip get the tool tip as status tip. Create it after the window's panels,
/// menus and toolbar; objectName "statusHint".
class StatusHint : public QLabel {
    Q_OBJECT
public:
    explicit StatusHint(MainWindow* window);

    /// The hint for the window's state now (what the label shows).
    QString hint() const;

private:
    void refresh();

    MainWindow* m_window;
};

} // namespace tessera
