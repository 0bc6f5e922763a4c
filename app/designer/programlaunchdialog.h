// The "Launch with program…" dialog: program, arguments, working folder and launcher.
#pragma once

#include "app/designer/programlaunch.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;

namespace tessera::designer {

/// Asks for the program a drawn layout is launched with. Remembers the last choice (QSettings
/// group "designer/program"). OK stays disabled while no program is named; accepting with bad
/// arguments or a folder that does not exist keeps the dialog open and says why. Object names:
/// programEdit, argumentsEdit, workdirEdit, workdirBrowse, launcherCombo, programError.
class ProgramLaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProgramLaunchDialog(QWidget* parent = nullptr);

    /// The fields as a choice. Errors: those of splitArguments.
    Result<ProgramChoice> choice() const;
    void setChoice(const ProgramChoice& choice);
    /// The last error shown (empty when none).
    QString errorText() const;

public Q_SLOTS:
    void accept() override;

private:
    void browse();
    void updateOk();

    QLineEdit* m_program;
    QLineEdit* m_arguments;
    QLineEdit* m_workdir;
    QComboBox* m_launcher;
    QLabel* m_error;
    QWidget* m_ok = nullptr;
};

} // namespace tessera::designer
