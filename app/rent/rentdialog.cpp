// Rent dialog: offers, leases, rent and release (see rentdialog.h).
#include "app/rent/rentdialog.h"

#include "app/rent/leasetablemodel.h"
#include "app/rent/offertablemodel.h"
#include "backend/provision/provider.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace tessera {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole); // prices and counts sort as numbers
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setAlternatingRowColors(true);
    return view;
}

/// Source rows of the selected rows of a view over a QSortFilterProxyModel.
QList<int> selectedSourceRows(QTableView* view) {
    auto* proxy = static_cast<QSortFilterProxyModel*>(view->model());
    QList<int> rows;
    for (const QModelIndex& i : view->selectionModel()->selectedRows()) {
        rows << proxy->mapToSource(i).row();
    }
    return rows;
}

} // namespace

RentDialog::RentDialog(const QList<Provider*>& providers, const QString& hostsFile, QWidget* parent)
    : QDialog(parent), m_offers(new OfferTableModel(providers, this)),
      m_leases(new LeaseTableModel(providers, this)),
      m_offerView(makeTable(m_offers, QStringLiteral("offerTable"), this)),
      m_leaseView(makeTable(m_leases, QStringLiteral("leaseTable"), this)),
      m_rent(new QPushButton(tr("&Rent selected"), this)),
      m_release(new QPushButton(tr("Re&lease selected"), this)), m_status(new QLabel(this)),
      m_cost(new QLabel(this)), m_costTimer(new QTimer(this)) {
    setWindowTitle(tr("Rent machines"));
    setObjectName(QStringLiteral("rentDialog"));
    m_rent->setObjectName(QStringLiteral("rentSelected"));
    m_release->setObjectName(QStringLiteral("releaseSelected"));
    m_status->setObjectName(QStringLiteral("rentStatus"));
    m_status->setWordWrap(true);
    m_cost->setObjectName(QStringLiteral("rentCost"));
    m_offerView->sortByColumn(OfferTableModel::Price, Qt::AscendingOrder);

    auto* hint = new QLabel(tr("SSH hosts are read from %1 (host, port, user, identityFile, "
                               "knownHostsFile, pricePerHour, and optionally gpus, gpuName, "
                               "gpuMemoryGiB, cores: each rent's check fills them in); Slurm "
                               "partitions from "
                               "slurm-clusters.json beside it (name, partition, nodes, "
                               "gpusPerNode, timeLimitMinutes, pricePerNodeHour, remoteDir).")
                                .arg(hostsFile),
                            this);
    hint->setWordWrap(true);
    hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* offerButtons = new QHBoxLayout;
    offerButtons->addWidget(m_rent);
    offerButtons->addStretch();
    auto* leaseButtons = new QHBoxLayout;
    leaseButtons->addWidget(m_release);
    leaseButtons->addStretch();
    leaseButtons->addWidget(m_cost);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Offers"), this));
    layout->addWidget(m_offerView, 2);
    layout->addLayout(offerButtons);
    layout->addWidget(hint);
    layout->addWidget(new QLabel(tr("Leases"), this));
    layout->addWidget(m_leaseView, 2);
    layout->addLayout(leaseButtons);
    layout->addWidget(m_status);
    layout->addWidget(close);
    resize(820, 560);

    connect(m_rent, &QPushButton::clicked, this, &RentDialog::rentSelected);
    connect(m_release, &QPushButton::clicked, this, &RentDialog::releaseSelected);
    connect(m_offerView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RentDialog::updateButtons);
    connect(m_leaseView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RentDialog::updateButtons);
    connect(m_offers, &QAbstractItemModel::modelReset, this, &RentDialog::updateButtons);
    connect(m_leases, &QAbstractItemModel::dataChanged, this, &RentDialog::updateButtons);
    for (Provider* p : providers) {
        connect(p, &Provider::leaseChanged, this, [this](const Lease& l) {
            if (l.state == LeaseState::Ready) {
                say(tr("%1 is ready: %2 joined the cluster")
                        .arg(l.id, l.nodes.join(QStringLiteral(", "))));
            } else if (l.state == LeaseState::Failed) {
                say(tr("%1 failed: %2").arg(l.id, l.reason));
            } else if (l.state == LeaseState::Released) {
                say(tr("%1 released").arg(l.id));
            }
            updateCost();
        });
    }
    connect(m_costTimer, &QTimer::timeout, this, &RentDialog::updateCost);
    m_costTimer->start(5000);
    updateButtons();
    updateCost();
}

QString RentDialog::status() const {
    return m_status->text();
}

void RentDialog::say(const QString& text) {
    m_status->setText(text);
    Q_EMIT message(text);
}

void RentDialog::rentSelected() {
    QStringList started, refused;
    for (int row : selectedSourceRows(m_offerView)) {
        const Offer o = m_offers->offerAt(row);
        Provider* p = m_offers->provider(o.provider);
        if (!p) {
            continue;
        }
        const Result<QString> lease = p->rent(o.id);
        if (lease) {
            started << QStringLiteral("%1 (%2)").arg(o.name, *lease);
        } else {
            refused << QString::fromStdString(lease.error().message);
        }
    }
    QStringList lines;
    if (!started.isEmpty()) {
        lines << tr("Renting %1").arg(started.join(QStringLiteral(", ")));
    }
    lines += refused;
    if (!lines.isEmpty()) {
        say(lines.join(QLatin1Char('\n')));
    }
}

void RentDialog::releaseSelected() {
    for (int row : selectedSourceRows(m_leaseView)) {
        const Lease l = m_leases->leaseAt(row);
        if (!l.live()) {
            continue;
        }
        Provider* p = m_offers->provider(l.provider);
        if (!p) {
            continue;
        }
        if (Result<void> r = p->release(l.id); r) {
            say(tr("Releasing %1…").arg(l.id));
        } else {
            say(QString::fromStdString(r.error().message));
        }
    }
}

void RentDialog::updateButtons() {
    bool anyFree = false;
    for (int row : selectedSourceRows(m_offerView)) {
        anyFree = anyFree || m_offers->offerAt(row).available > 0;
    }
    m_rent->setEnabled(anyFree);
    bool anyLive = false;
    for (int row : selectedSourceRows(m_leaseView)) {
        anyLive = anyLive || m_leases->leaseAt(row).live();
    }
    m_release->setEnabled(anyLive);
}

void RentDialog::updateCost() {
    m_cost->setText(tr("Cost so far $%1 · now $%2/h")
                        .arg(m_leases->totalCost(), 0, 'f', 2)
                        .arg(m_leases->burnRate(), 0, 'f', 2));
}

} // namespace tessera
