// Settings for auto-provisioning: the switch, the budget per hour and in total, the node cap and
// the idle timeout, kept with QSettings (group "autoscale") and applied to the Autoscaler.
#pragma once

#include "backend/autoscale/autoscalepolicyio.h"

#include <QDialog>

class QCheckBox;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;

namespace tessera {

/// Non-modal dialog over one Autoscaler. OK stores the fields, hands them to the autoscaler and
/// closes; Apply does the same and stays open (enabled only while the fields differ from the
/// autoscaler's policy); Cancel, Escape and the window's close button discard the edits: the
/// fields go back to the policy. Every show() starts from the policy in force.
class AutoscaleSettingsDialog : public QDialog {
    Q_OBJECT
public:
    /// `autoscaler` must outlive the dialog.
    explicit AutoscaleSettingsDialog(Autoscaler* autoscaler, QWidget* parent = nullptr);

    /// The policy the fields show now.
    AutoscalePolicy fields() const;
    /// Shows `policy` in the fields.
    void setFields(const AutoscalePolicy& policy);

    /// The OK, Apply and Cancel buttons.
    QPushButton* okButton() const { return m_ok; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }

public Q_SLOTS:
    /// Stores the fields and hands them to the autoscaler.
    void apply();
    /// apply(), then closes.
    void accept() override;
    /// Discards the edits (the fields show the policy again), then closes.
    void reject() override;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateApply();

    Autoscaler* m_autoscaler;
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
