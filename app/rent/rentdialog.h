// The Rent dialog: every provider's offers, sortable by price and device; "Rent" rents every
// selected offer in one click and the lease table below shows each lease's progress, its cost,
// and gives it back with "Release".
#pragma once

#include <QDialog>
#include <QList>

class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace tessera {

class LeaseTableModel;
class OfferTableModel;
class Provider;

/// Non-modal: renting and releasing only start work; progress arrives through the providers'
/// signals, so the dialog never blocks the GUI thread.
class RentDialog : public QDialog {
    Q_OBJECT
public:
    /// `providers` must outlive the dialog. `hostsFile` is named in the hint on where SSH hosts
    /// are configured.
    RentDialog(const QList<Provider*>& providers, const QString& hostsFile,
               QWidget* parent = nullptr);

    OfferTableModel* offers() const { return m_offers; }
    LeaseTableModel* leases() const { return m_leases; }
    QTableView* offerView() const { return m_offerView; }
    QTableView* leaseView() const { return m_leaseView; }
    QPushButton* rentButton() const { return m_rent; }
    QPushButton* releaseButton() const { return m_release; }
    /// The last line said (rent started, refused, lease ready or failed).
    QString status() const;

public Q_SLOTS:
    /// Rents one node of every selected offer.
    void rentSelected();
    /// Releases every selected live lease.
    void releaseSelected();

Q_SIGNALS:
    /// A line for the log pane.
    void message(const QString& text);

private:
    void say(const QString& text);
    void updateButtons();
    void updateCost();

    OfferTableModel* m_offers;
    LeaseTableModel* m_leases;
    QTableView* m_offerView;
    QTableView* m_leaseView;
    QPushButton* m_rent;
    QPushButton* m_release;
    QLabel* m_status;
    QLabel* m_cost;
    QTimer* m_costTimer;
};

} // namespace tessera
