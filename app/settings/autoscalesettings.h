// Settings for auto-provisioning: the switch, the budget per hour and in total, the node cap and
// the idle timeout: the server's policy, shown from its cluster snapshots and set through
// SetAutoscale (an admin's call; the server keeps it for its next start).
#pragma once

#include "backend/autoscale/autoscalepolicyio.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;

namespace tessera {

namespace client {
class ClusterView;
class ServerConnection;
} // namespace client

/// Non-modal dialog over the server's policy. OK sends the fields (SetAutoscale) and closes;
/// Apply does the same and stays open (enabled only while the fields differ from the policy of
/// the newest snapshot and no change is on its way); Cancel, Escape and the window's close button
/// discard the edits: the fields go back to the policy. Every show() starts from the policy in
/// force. A refusal (not an admin, a value out of range, no server) shows under the fields and
/// goes to message().
class AutoscaleSettingsDialog : public QDialog {
    Q_OBJECT
public:
    /// `cluster` (the server's snapshots) and `connection` must outlive the dialog.
    AutoscaleSettingsDialog(client::ClusterView* cluster, client::ServerConnection* connection,
                            QWidget* parent = nullptr);

    /// The policy in force: the newest snapshot's.
    AutoscalePolicy policy() const;
    /// What the last change's answer said ("" while none failed).
    QString status() const;

    /// The policy the fields show now.
    AutoscalePolicy fields() const;
    /// Shows `policy` in the fields.
    void setFields(const AutoscalePolicy& policy);

    /// The OK, Apply and Cancel buttons.
    QPushButton* okButton() const { return m_ok; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }

public Q_SLOTS:
    /// Sends the fields to the server (the answer arrives later: status(), message()).
    void apply();
    /// apply(), then closes.
    void accept() override;
    /// Discards the edits (the fields show the policy again), then closes.
    void reject() override;

Q_SIGNALS:
    /// A line for the log pane: why the server refused the change.
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateApply();

    client::ClusterView* m_cluster;
    client::ServerConnection* m_connection;
    bool m_sending = false; ///< a SetAutoscale is on its way
    QLabel* m_status;
    QCheckBox* m_enabled;
    QDoubleSpinBox* m_perHour;
    QDoubleSpinBox* m_total;
    QSpinBox* m_nodes;
    QSpinBox* m_idleMin;
    QPushButton* m_ok;
    QPushButton* m_apply;
    QPushButton* m_cancel;
};

} // namespace tessera
