// Settings for auto-provisioning: the switch, the budget per hour and in total, the node cap and
// the idle timeout, kept with QSettings (group "autoscale") and applied to the Autoscaler.
#pragma once

#include "backend/provision/autoscaler.h"

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace tessera {

/// Reads the policy QSettings holds (defaults: off, no budget caps, 8 nodes, 5 min idle).
AutoscalePolicy loadAutoscalePolicy();
/// Stores `policy` in QSettings.
void saveAutoscalePolicy(const AutoscalePolicy& policy);

/// Non-modal dialog over one Autoscaler: "Apply" stores the values and sets the policy at once.
class AutoscaleSettingsDialog : public QDialog {
    Q_OBJECT
public:
    /// `autoscaler` must outlive the dialog.
    explicit AutoscaleSettingsDialog(Autoscaler* autoscaler, QWidget* parent = nullptr);

    /// The policy the fields show now.
    AutoscalePolicy fields() const;
    /// Shows `policy` in the fields.
    void setFields(const AutoscalePolicy& policy);

public Q_SLOTS:
    /// Stores the fields and hands them to the autoscaler.
    void apply();

private:
    Autoscaler* m_autoscaler;
    QCheckBox* m_enabled;
    QDoubleSpinBox* m_perHour;
    QDoubleSpinBox* m_total;
    QSpinBox* m_nodes;
    QSpinBox* m_idleMin;
};

} // namespace tessera
