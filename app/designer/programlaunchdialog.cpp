// ProgramLaunchDialog: a form, its checks on OK and the remembered last choice.
#include "app/designer/programlaunchdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QVBoxLayout>

namespace tessera::designer {

namespace {
const QString kGroup = QStringLiteral("designer/program");
} // namespace

ProgramLaunchDialog::ProgramLaunchDialog(QWidget* parent)
    : QDialog(parent), m_program(new QLineEdit(this)), m_arguments(new QLineEdit(this)),
      m_workdir(new QLineEdit(this)), m_launcher(new QComboBox(this)), m_error(new QLabel(this)) {
    setWindowTitle(tr("Launch with program"));
    m_program->setObjectName(QStringLiteral("programEdit"));
    m_program->setPlaceholderText(QStringLiteral("/usr/bin/python3"));
    m_program->setToolTip(tr("Started on every rank (mpirun) or by torchrun on every node; a path "
                             "on the workers or a name on their PATH"));
    m_arguments->setObjectName(QStringLiteral("argumentsEdit"));
    m_arguments->setPlaceholderText(tr("train.py --epochs 2   (quoted as in a shell, no $)"));
    m_workdir->setObjectName(QStringLiteral("workdirEdit"));
    m_workdir->setPlaceholderText(tr("folder with the code, shipped to every node (optional)"));
    m_launcher->setObjectName(QStringLiteral("launcherCombo"));
    m_launcher->addItem(tr("mpirun: one process per rank"), QStringLiteral("mpirun"));
    m_launcher->addItem(tr("torchrun: one agent per node"), QStringLiteral("torchrun"));
    m_error->setObjectName(QStringLiteral("programError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();

    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("workdirBrowse"));
    connect(browse, &QPushButton::clicked, this, &ProgramLaunchDialog::browse);
    auto* workdirRow = new QHBoxLayout;
    workdirRow->addWidget(m_workdir, 1);
    workdirRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("&Program:"), m_program);
    form->addRow(tr("&Arguments:"), m_arguments);
    // A row of a layout gets a label without buddy, which would show the '&': name it here.
    auto* workdirLabel = new QLabel(tr("&Working folder:"), this);
    workdirLabel->setBuddy(m_workdir);
    form->addRow(workdirLabel, workdirRow);
    form->addRow(tr("&Launcher:"), m_launcher);
    auto* note = new QLabel(tr("The ranks get torchrun's variables (RANK, WORLD_SIZE, "
                               "MASTER_ADDR, …) and the drawn layout in TESSERA_LAYOUT_FILE; "
                               "they report metrics with the tessera module."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Launch"));
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &ProgramLaunchDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ProgramLaunchDialog::reject);
    connect(m_program, &QLineEdit::textChanged, this, &ProgramLaunchDialog::updateOk);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());

    QSettings settings;
    settings.beginGroup(kGroup);
    ProgramChoice last;
    last.program =
        settings.value(QStringLiteral("program"), QStringLiteral("/usr/bin/python3")).toString();
    last.workdir = settings.value(QStringLiteral("workdir")).toString();
    last.launcher = settings.value(QStringLiteral("launcher"), QStringLiteral("mpirun")).toString();
    setChoice(last);
    m_arguments->setText(settings.value(QStringLiteral("arguments")).toString());
}

Result<ProgramChoice> ProgramLaunchDialog::choice() const {
    auto args = splitArguments(m_arguments->text());
    if (!args) {
        return relay(args);
    }
    ProgramChoice c;
    c.program = m_program->text().trimmed();
    c.arguments = *args;
    const QString dir = m_workdir->text().trimmed();
    c.workdir = dir.isEmpty() ? QString() : QDir::cleanPath(QDir(dir).absolutePath());
    c.launcher = m_launcher->currentData().toString();
    return c;
}

void ProgramLaunchDialog::setChoice(const ProgramChoice& choice) {
    m_program->setText(choice.program);
    QStringList quoted;
    for (const QString& a : choice.arguments) {
        quoted << (a.isEmpty() || a.contains(QRegularExpression(QStringLiteral("[\\s'\"\\\\]")))
                       ? QLatin1Char('\'') +
                             QString(a).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                             QLatin1Char('\'')
                       : a);
    }
    m_arguments->setText(quoted.join(QLatin1Char(' ')));
    m_workdir->setText(choice.workdir);
    m_launcher->setCurrentIndex(std::max(0, m_launcher->findData(choice.launcher)));
    updateOk();
}

QString ProgramLaunchDialog::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

void ProgramLaunchDialog::accept() {
    QString error;
    auto c = choice();
    if (!c) {
        error = tr("Arguments: %1").arg(QString::fromStdString(c.error().message));
    } else if (!c->workdir.isEmpty() && !QFileInfo(c->workdir).isDir()) {
        error = tr("Working folder '%1' does not exist on this computer.").arg(c->workdir);
    }
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    m_error->clear();
    m_error->hide();
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.setValue(QStringLiteral("program"), c->program);
    settings.setValue(QStringLiteral("arguments"), m_arguments->text());
    settings.setValue(QStringLiteral("workdir"), c->workdir);
    settings.setValue(QStringLiteral("launcher"), c->launcher);
    QDialog::accept();
}

void ProgramLaunchDialog::browse() {
    // Non-native, window-modal: the GUI goes on while the user looks for the folder.
    auto* dialog = new QFileDialog(this, tr("Folder with the program's code"), m_workdir->text());
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, m_workdir, &QLineEdit::setText);
    dialog->open();
}

void ProgramLaunchDialog::updateOk() {
    if (m_ok) {
        m_ok->setEnabled(!m_program->text().trimmed().isEmpty());
    }
}

} // namespace tessera::designer
