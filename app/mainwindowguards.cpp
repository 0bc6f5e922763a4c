// MainWindow's side of "no lost work": the title with the layout's file and modified mark, the
// Designer's actions from every tab, the questions before close / release / replacing a layout,
// and the window's layout kept in QSettings (construction and panels are in mainwindow.cpp).
#include "app/cluster/clusterpanel.h"
#include "app/designer/designerpanel.h"
#include "app/designer/plandocument.h"
#include "app/mainwindow.h"

#include "app/monitor/logpane.h"
#include "app/windowguard.h"
#include "backend/client/serverconnection.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>

namespace tessera {

namespace {
constexpr const char* kGeometryKey = "mainWindow/geometry";
constexpr const char* kStateKey = "mainWindow/state";
} // namespace

void MainWindow::setAsker(Asker asker) {
    m_guard->setAsker(std::move(asker));
}

void MainWindow::connectWorkGuards() {
    m_guard = new WindowGuard(m_session, m_designer, m_cluster, this);
    connect(m_guard, &WindowGuard::message, m_log, &LogPane::appendMessage);
    m_cluster->setReleaseGuard([this] { return m_guard->mayRelease(); });
    m_designer->setReplaceGuard(
        [this](const QString& what) { return m_guard->confirmDiscard(what); });

    // The Designer's actions work from every tab of this window (in the designer alone they
    // are limited to its page); those that show or change the drawing bring its tab forward.
    // Assign stays with the page: it acts on the layer list's selection.
    auto* tabs = findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    for (QAction* a : m_designer->designerActions()) {
        if (a == m_designer->assignAction()) {
            continue;
        }
        a->setShortcutContext(Qt::WindowShortcut);
        static const QStringList kShowDesigner = {
            QStringLiteral("designerOpen"),   QStringLiteral("designerUndo"),
            QStringLiteral("designerRedo"),   QStringLiteral("designerImport"),
            QStringLiteral("designerLive"),   QStringLiteral("designerAutoPlan"),
            QStringLiteral("designerExport"), QStringLiteral("designerLaunchProgram")};
        if (tabs && kShowDesigner.contains(a->objectName())) {
            connect(a, &QAction::triggered, this,
                    [this, tabs] { tabs->setCurrentWidget(m_designer); });
        }
    }

    QUndoStack* undo = m_designer->document()->undoStack();
    connect(undo, &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_designer->document(), &designer::PlanDocument::pathChanged, this,
            &MainWindow::updateTitle);
    // Where the window is connected: a server elsewhere, and who it takes this person for.
    connect(m_connection, &client::ServerConnection::described, this, &MainWindow::updateTitle);
    updateTitle();
}

void MainWindow::updateTitle() {
    const QString path = m_designer->document()->path();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    const client::ServerAddress& server = m_connection->address();
    if (server.isLocal()) {
        setWindowTitle(tr("%1[*] — Tessera").arg(name));
    } else if (m_connection->user().isEmpty()) { // not described yet
        setWindowTitle(tr("%1[*] — Tessera — %2").arg(name, server.endpoint));
    } else {
        setWindowTitle(
            tr("%1[*] — Tessera — %2@%3").arg(name, m_connection->user(), server.endpoint));
    }
    setWindowModified(m_designer->isModified());
}

void MainWindow::restoreLayout() {
    // First start: 1280 × 800, or less on a smaller screen (a 1366 × 768 laptop), leaving room
    // for the title bar and a taskbar. The offscreen platform (tests) has no real screen.
    QSize size(1280, 800);
    if (QGuiApplication::platformName() != QLatin1String("offscreen") && screen()) {
        size = size.boundedTo(screen()->availableGeometry().size() - QSize(8, 40));
    }
    resize(size.expandedTo(minimumSizeHint()));
    // The log gets less of a short screen: the charts above it need the height more.
    if (auto* log = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
        resizeDocks({log}, {size.height() < 860 ? 120 : 180}, Qt::Vertical);
    }
    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray(), kDockStateVersion);
}

void MainWindow::saveLayout() const {
    auto* tabs = findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    const bool designing = tabs && tabs->currentWidget() == m_designer;
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    // On the Designer tab the side docks are hidden for its sake only: keep them as they were.
    settings.setValue(QLatin1String(kStateKey), designing && !m_stateBeforeDesigner.isEmpty()
                                                    ? m_stateBeforeDesigner
                                                    : saveState(kDockStateVersion));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_guard->mayClose()) {
        event->ignore();
        return;
    }
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace tessera
