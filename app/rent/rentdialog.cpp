// Rent dialog: offers, leases, rent and release, adding SSH hosts (see rentdialog.h).
#include "app/rent/rentdialog.h"

#include "app/rent/addsshhostdialog.h"
#include "app/rent/cloudbar.h"
#include "app/rent/emptyviewhint.h"
#include "app/rent/leasetablemodel.h"
#include "app/rent/offertablemodel.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/provider.h"
#include "backend/provision/ssh/sshprovider.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFrame>
#include <QGridLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
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
      m_release(new QPushButton(tr("Re&lease selected"), this)),
      m_releaseAll(new QPushButton(tr("Release &everything…"), this)), m_providers(providers),
      m_addHost(new QPushButton(tr("&Add SSH host…"), this)),
      m_emptyAdd(new QPushButton(tr("Add SSH &host…"), this)), m_emptyState(new QFrame(this)),
      m_hostsHint(new QLabel(this)), m_hostsFile(hostsFile), m_status(new QLabel(this)),
      m_cost(new QLabel(this)), m_costTimer(new QTimer(this)) {
    setWindowTitle(tr("Rent machines"));
    setObjectName(QStringLiteral("rentDialog"));
    m_rent->setObjectName(QStringLiteral("rentSelected"));
    m_release->setObjectName(QStringLiteral("releaseSelected"));
    m_releaseAll->setObjectName(QStringLiteral("releaseEverything"));
    m_releaseAll->setToolTip(tr("Release every live lease of every provider and terminate the "
                                "cloud instances Tessera lost track of"));
    m_addHost->setObjectName(QStringLiteral("addSshHost"));
    m_addHost->setToolTip(tr("Add a Linux machine you can log in to over SSH"));
    m_emptyAdd->setObjectName(QStringLiteral("emptyStateAddSshHost"));
    m_status->setObjectName(QStringLiteral("rentStatus"));
    m_status->setWordWrap(true);
    m_cost->setObjectName(QStringLiteral("rentCost"));
    m_offerView->sortByColumn(OfferTableModel::Price, Qt::AscendingOrder);
    for (Provider* p : providers) {
        m_ssh = m_ssh ? m_ssh : qobject_cast<SshProvider*>(p);
    }

    // The empty state: what to do when nothing but this machine is on offer.
    auto* emptyFrame = static_cast<QFrame*>(m_emptyState);
    emptyFrame->setObjectName(QStringLiteral("rentEmptyState"));
    emptyFrame->setFrameShape(QFrame::StyledPanel);
    auto* emptyText = new QLabel(tr("<b>No machine of yours is set up yet</b> — only this "
                                    "machine's local workers are on offer. Add a Linux machine "
                                    "you can log in to with SSH and it appears above, ready to "
                                    "rent."),
                                 emptyFrame);
    emptyText->setWordWrap(true);
    auto* editLine = new QLabel(tr("Or edit %1 (its fields are in the README); Slurm partitions "
                                   "go in slurm-clusters.json beside it.")
                                    .arg(QDir::toNativeSeparators(hostsFile)),
                                emptyFrame);
    editLine->setObjectName(QStringLiteral("rentEmptyStateFile"));
    editLine->setWordWrap(true);
    editLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    editLine->setForegroundRole(QPalette::PlaceholderText);
    auto* emptyLayout = new QGridLayout(emptyFrame);
    emptyLayout->addWidget(emptyText, 0, 0);
    emptyLayout->addWidget(m_emptyAdd, 0, 1, Qt::AlignVCenter);
    emptyLayout->addWidget(editLine, 1, 0, 1, 2);
    emptyLayout->setColumnStretch(0, 1);
    m_hostsHint->setObjectName(QStringLiteral("rentHostsFile"));
    m_hostsHint->setText(tr("SSH hosts are kept in %1.").arg(QDir::toNativeSeparators(hostsFile)));
    m_hostsHint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hostsHint->setForegroundRole(QPalette::PlaceholderText);
    m_leaseHint = new EmptyViewHint(
        m_leaseView, tr("No leases in this session yet: select an offer above and press Rent "
                        "selected. (Workers started with the Cluster panel's Rent local workers "
                        "are not leases: the Cluster panel lists them.)"));

    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* offerButtons = new QHBoxLayout;
    offerButtons->addWidget(m_rent);
    offerButtons->addWidget(m_addHost);
    offerButtons->addStretch();
    offerButtons->addWidget(m_hostsHint);
    auto* leaseButtons = new QHBoxLayout;
    leaseButtons->addWidget(m_release);
    leaseButtons->addWidget(m_releaseAll);
    leaseButtons->addStretch();
    leaseButtons->addWidget(m_cost);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Offers"), this));
    layout->addWidget(m_offerView, 2);
    layout->addLayout(offerButtons);
    for (Provider* p : providers) {
        if (auto* cloud = qobject_cast<CloudProvider*>(p)) {
            auto* bar = new CloudBar(cloud, this);
            connect(bar, &CloudBar::message, this, &RentDialog::say);
            m_cloudBars << bar;
            layout->addWidget(bar);
        }
    }
    layout->addWidget(m_emptyState);
    layout->addWidget(new QLabel(tr("Leases"), this));
    layout->addWidget(m_leaseView, 2);
    layout->addLayout(leaseButtons);
    layout->addWidget(m_status);
    layout->addWidget(close);
    resize(820, 560);

    connect(m_rent, &QPushButton::clicked, this, &RentDialog::rentSelected);
    connect(m_release, &QPushButton::clicked, this, &RentDialog::releaseSelected);
    connect(m_releaseAll, &QPushButton::clicked, this, &RentDialog::releaseAll);
    connect(m_addHost, &QPushButton::clicked, this, &RentDialog::openAddHost);
    connect(m_emptyAdd, &QPushButton::clicked, this, &RentDialog::openAddHost);
    connect(m_offerView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RentDialog::updateButtons);
    connect(m_leaseView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RentDialog::updateButtons);
    connect(m_offers, &QAbstractItemModel::modelReset, this, &RentDialog::updateButtons);
    connect(m_offers, &QAbstractItemModel::modelReset, this, &RentDialog::updateEmptyState);
    connect(m_leases, &QAbstractItemModel::dataChanged, this, &RentDialog::updateButtons);
    for (Provider* p : providers) {
        connect(p, &Provider::leaseChanged, this, [this](const Lease& l) {
            if (l.state == LeaseState::Ready && !l.reason.isEmpty()) {
                say(tr("%1: %2").arg(l.id, l.reason)); // a step of its release (terminating)
            } else if (l.state == LeaseState::Ready) {
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
    connect(m_costTimer, &QTimer::timeout, m_leases, &LeaseTableModel::refreshCosts);
    m_costTimer->start(5000);
    updateButtons();
    updateCost();
    updateEmptyState();
}

bool RentDialog::emptyStateShown() const {
    return !m_emptyState->isHidden();
}

AddSshHostDialog* RentDialog::addHostDialog() const {
    return m_addDialog.data();
}

bool RentDialog::leaseHintShown() const {
    return m_leaseHint->active();
}

void RentDialog::updateEmptyState() {
    bool any = false;
    for (int r = 0; r < m_offers->rowCount(); ++r) {
        any = any || m_offers->offerAt(r).provider != QLatin1String("local");
    }
    const bool canAdd = !m_hostsFile.isEmpty();
    m_emptyState->setVisible(!any && canAdd);
    m_addHost->setVisible(any && canAdd); // the empty state has its own
    m_hostsHint->setVisible(any && canAdd);
}

AddSshHostDialog* RentDialog::openAddHost() {
    if (m_hostsFile.isEmpty()) {
        return nullptr;
    }
    if (!m_addDialog) {
        m_addDialog = new AddSshHostDialog(m_hostsFile, this);
        m_addDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_addDialog, &AddSshHostDialog::saved, this, &RentDialog::onHostSaved);
    }
    m_addDialog->open();
    m_addDialog->raise();
    m_addDialog->activateWindow();
    return m_addDialog;
}

void RentDialog::onHostSaved(const SshHost& host, const QList<SshHost>& hosts) {
    if (m_ssh) {
        m_ssh->setHosts(hosts); // offersChanged: the table shows the new host
        m_ssh->setHostsFile(m_hostsFile);
    }
    say(tr("Added %1 (%2) to %3").arg(host.nodeName(), host.offerId(), m_hostsFile));
    auto* proxy = m_offerView->model();
    for (int r = 0; r < proxy->rowCount(); ++r) {
        if (proxy->index(r, OfferTableModel::Provider).data() == QLatin1String("ssh") &&
            proxy->index(r, OfferTableModel::Node).data() == host.nodeName()) {
            m_offerView->selectRow(r);
            m_offerView->scrollTo(proxy->index(r, 0));
        }
    }
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

void RentDialog::releaseAll() {
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Release everything"),
                                tr("Release every live lease and terminate every cloud instance "
                                   "Tessera lost track of? Jobs running on them fail."),
                                QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("releaseEverythingConfirm"));
    QPushButton* yes = box->addButton(tr("Release everything"), QMessageBox::DestructiveRole);
    connect(yes, &QPushButton::clicked, this, &RentDialog::releaseAllNow);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

void RentDialog::releaseAllNow() {
    int leases = 0;
    for (Provider* p : m_providers) {
        for (const Lease& l : p->leases()) {
            leases += l.live() && p->release(l.id).has_value() ? 1 : 0;
        }
    }
    for (CloudBar* bar : m_cloudBars) {
        bar->releaseLost();
    }
    say(tr("Releasing %n lease(s)…", nullptr, leases));
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
                        .arg(QLocale().toString(m_leases->totalCost(), 'f', 2))
                        .arg(QLocale().toString(m_leases->burnRate(), 'f', 2)));
}

} // namespace tessera
