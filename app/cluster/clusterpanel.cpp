// Cluster panel: worker table, rent/release actions and their status line.
#include "app/cluster/clusterpanel.h"

#include "app/cluster/clustertablemodel.h"
#include "backend/client/clusterview.h"
#include "backend/cluster/localworkers.h"

#include <QAction>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera {

ClusterPanel::ClusterPanel(client::ClusterView* cluster, LocalWorkers* provider, QWidget* parent)
    : QWidget(parent), m_cluster(cluster), m_provider(provider),
      m_model(new ClusterTableModel(cluster, this)), m_view(new QTableView(this)),
      m_workers(new QSpinBox(this)), m_slots(new QSpinBox(this)), m_status(new QLabel(this)),
      m_rentAction(new QAction(tr("&Rent local workers"), this)),
      m_releaseAction(new QAction(tr("Re&lease workers"), this)) {
    m_view->setModel(m_model);
    m_view->setObjectName(QStringLiteral("clusterTable"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);

    m_workers->setRange(1, 64);
    m_workers->setValue(2);
    m_workers->setObjectName(QStringLiteral("workerCount"));
    m_workers->setToolTip(tr("How many tessera-worker daemons to start on this machine"));
    m_slots->setRange(1, 64);
    m_slots->setValue(1);
    m_slots->setObjectName(QStringLiteral("slotsPerWorker"));
    m_slots->setToolTip(tr("Ranks each worker runs"));

    m_rentAction->setObjectName(QStringLiteral("rentAction"));
    m_rentAction->setShortcut(QKeySequence(tr("Ctrl+R")));
    m_rentAction->setToolTip(tr("Start local tessera-worker daemons and add them to the cluster"));
    m_releaseAction->setObjectName(QStringLiteral("releaseAction"));
    m_releaseAction->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    m_releaseAction->setToolTip(tr("Stop every local worker"));
    connect(m_rentAction, &QAction::triggered, this, &ClusterPanel::rent);
    connect(m_releaseAction, &QAction::triggered, this, &ClusterPanel::release);

    auto* rentButton = new QToolButton(this);
    rentButton->setDefaultAction(m_rentAction);
    rentButton->setObjectName(QStringLiteral("rentButton"));
    auto* releaseButton = new QToolButton(this);
    releaseButton->setDefaultAction(m_releaseAction);
    releaseButton->setObjectName(QStringLiteral("releaseButton"));

    auto* form = new QFormLayout;
    form->addRow(tr("Workers:"), m_workers);
    form->addRow(tr("Slots per worker:"), m_slots);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(rentButton);
    buttons->addWidget(releaseButton);
    buttons->addStretch();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    m_status->setObjectName(QStringLiteral("clusterStatus"));
    m_status->setWordWrap(true);
    m_status->setText(tr("No workers yet: rent local workers to start."));

    connect(m_provider, &LocalWorkers::started, this, [this](const QStringList& names) {
        setBusy(false, tr("Rented %n worker(s): %1", nullptr, static_cast<int>(names.size()))
                           .arg(names.join(QStringLiteral(", "))));
    });
    connect(m_provider, &LocalWorkers::startFailed, this,
            [this](const QString& error) { setBusy(false, tr("Rent failed: %1").arg(error)); });
    connect(m_provider, &LocalWorkers::stopped, this,
            [this] { setBusy(false, tr("Local workers released.")); });
    connect(m_cluster, &client::ClusterView::nodeChanged, this, &ClusterPanel::onNodeChanged);
    connect(m_cluster, &client::ClusterView::nodeAdded, this, &ClusterPanel::onNodeChanged);
    connect(m_cluster, &client::ClusterView::nodeRemoved, this,
            [this](const QString& name) { m_reported.remove(name); });
}

void ClusterPanel::onNodeChanged(const QString& name) {
    const auto node = m_cluster->node(name);
    if (!node || node->state != NodeState::Unreachable || node->lastError.isEmpty()) {
        if (node && node->state == NodeState::Ready && m_reported.remove(name) &&
            m_status->text().startsWith(name + QLatin1Char(' '))) {
            m_status->setText(tr("%1 answers again.").arg(name));
        }
        return;
    }
    // The status line follows the latest reason; the log says it once per unreachable spell
    // (a refusal's wording can change from probe to probe with the side that gives up first).
    const bool first = !m_reported.contains(name);
    m_reported.insert(name, node->lastError);
    const QString text = tr("%1 is unreachable: %2").arg(name, node->lastError);
    m_status->setText(text);
    if (first) {
        Q_EMIT message(text);
    }
}

void ClusterPanel::setWorkerCount(int workers) {
    m_workers->setValue(workers);
}
int ClusterPanel::workerCount() const {
    return m_workers->value();
}
void ClusterPanel::setSlotsPerWorker(int slots) {
    m_slots->setValue(slots);
}

void ClusterPanel::rent() {
    if (m_renting) {
        return;
    }
    const int workers = m_workers->value();
    const int slots = m_slots->value();
    setBusy(true, tr("Starting %n local worker(s)…", nullptr, workers));
    m_provider->start(workers, slots);
}

void ClusterPanel::release() {
    if (m_releaseGuard && !m_releaseGuard()) {
        return;
    }
    releaseNow();
}

void ClusterPanel::releaseNow() {
    m_status->setText(tr("Releasing local workers…"));
    Q_EMIT message(m_status->text());
    m_provider->stopAll();
}

void ClusterPanel::setBusy(bool busy, const QString& status) {
    m_renting = busy;
    m_rentAction->setEnabled(!busy);
    m_status->setText(status);
    Q_EMIT message(status);
}

} // namespace tessera
