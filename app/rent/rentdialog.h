// The Rent dialog: every provider's offers, sortable by price and device; "Rent" rents every
// selected offer in one click and the lease table below shows each lease's progress, its cost,
// and gives it back with "Release". "Add SSH host…" adds a machine of the user's; while only the
// local offer is there, an empty state says so and offers that button.
#pragma once

#include <QDialog>
#include <QList>
#include <QPointer>

class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace tessera {

class AddSshHostDialog;
class CloudBar;
class EmptyViewHint;
class LeaseTableModel;
class OfferTableModel;
class Provider;
class SshProvider;
struct SshHost;

/// Non-modal: renting and releasing only start work; progress arrives through the providers'
/// signals, so the dialog never blocks the GUI thread.
class RentDialog : public QDialog {
    Q_OBJECT
public:
    /// `providers` must outlive the dialog. `hostsFile` is the SSH provider's hosts file: the
    /// Add SSH host form writes it, and the first SshProvider among `providers` then offers its
    /// hosts. Empty: no form (the Add buttons are hidden).
    RentDialog(const QList<Provider*>& providers, const QString& hostsFile,
               QWidget* parent = nullptr);

    OfferTableModel* offers() const { return m_offers; }
    LeaseTableModel* leases() const { return m_leases; }
    QTableView* offerView() const { return m_offerView; }
    QTableView* leaseView() const { return m_leaseView; }
    QPushButton* rentButton() const { return m_rent; }
    QPushButton* releaseButton() const { return m_release; }
    /// "Release everything": every live lease of every provider and every lost cloud instance.
    QPushButton* releaseAllButton() const { return m_releaseAll; }
    /// One line per GPU cloud among the providers (key, state, lost instances).
    QList<CloudBar*> cloudBars() const { return m_cloudBars; }
    /// "Add SSH host…" beside the offers (hidden while the empty state shows its own), and the
    /// one in the empty state.
    QPushButton* addHostButton() const { return m_addHost; }
    QPushButton* emptyStateAddButton() const { return m_emptyAdd; }
    /// True while no provider but the local one has an offer (the empty state is up).
    bool emptyStateShown() const;
    /// True while the lease table is empty and says what fills it.
    bool leaseHintShown() const;
    /// The Add SSH host form while it is open (or was left open), else null.
    AddSshHostDialog* addHostDialog() const;
    /// The last line said (rent started, refused, lease ready or failed).
    QString status() const;

public Q_SLOTS:
    /// Rents one node of every selected offer.
    void rentSelected();
    /// Releases every selected live lease.
    void releaseSelected();
    /// Asks (window-modal, non-blocking), then releases everything (releaseAllNow).
    void releaseAll();
    /// Releases every live lease of every provider and terminates every lost cloud instance.
    void releaseAllNow();
    /// Opens the Add SSH host form (window-modal, non-blocking) and returns it; one at a time.
    AddSshHostDialog* openAddHost();

Q_SIGNALS:
    /// A line for the log pane.
    void message(const QString& text);

private:
    void say(const QString& text);
    void updateButtons();
    void updateCost();
    void updateEmptyState();
    void onHostSaved(const SshHost& host, const QList<SshHost>& hosts);

    OfferTableModel* m_offers;
    LeaseTableModel* m_leases;
    QTableView* m_offerView;
    QTableView* m_leaseView;
    QPushButton* m_rent;
    QPushButton* m_release;
    QPushButton* m_releaseAll;
    QList<CloudBar*> m_cloudBars;
    QList<Provider*> m_providers;
    QPushButton* m_addHost;
    QPushButton* m_emptyAdd;
    QWidget* m_emptyState;
    QLabel* m_hostsHint;
    EmptyViewHint* m_leaseHint;
    QPointer<AddSshHostDialog> m_addDialog;
    SshProvider* m_ssh = nullptr;
    QString m_hostsFile;
    QLabel* m_status;
    QLabel* m_cost;
    QTimer* m_costTimer;
};

} // namespace tessera
