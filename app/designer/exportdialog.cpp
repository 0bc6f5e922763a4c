// The export dialog (see exportdialog.h).
#include "app/designer/exportdialog.h"

#include "app/designer/plandocument.h"
#include "backend/export/exportformats.h"
#include "worker/common/tsan_handoff.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace tessera::designer {

namespace {
QPlainTextEdit* monospaceView(QWidget* parent, const QString& name) {
    auto* view = new QPlainTextEdit(parent);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}
} // namespace

ExportDialog::ExportDialog(PlanDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_tabs(new QTabWidget(this)),
      m_notes(monospaceView(this, QStringLiteral("exportNotes"))), m_status(new QLabel(this)),
      m_copy(new QPushButton(tr("&Copy"), this)), m_save(new QPushButton(tr("&Save…"), this)) {
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export layout"));
    m_tabs->setObjectName(QStringLiteral("exportTabs"));
    m_copy->setObjectName(QStringLiteral("exportCopy"));
    m_save->setObjectName(QStringLiteral("exportSave"));
    m_status->setObjectName(QStringLiteral("exportStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const std::array<QString, 3> titles{tr("Megatron-LM"), tr("DeepSpeed"), tr("torchtitan")};
    const std::array<const char*, 3> names{"exportMegatron", "exportDeepSpeed", "exportTorchtitan"};
    for (int i = 0; i < 3; ++i) {
        auto* page = new QWidget(m_tabs);
        auto* column = new QVBoxLayout(page);
        m_tab[std::size_t(i)].view = monospaceView(page, QLatin1String(names[std::size_t(i)]));
        column->addWidget(m_tab[std::size_t(i)].view, 3);
        if (i == DeepSpeed) {
            auto* label = new QLabel(tr("Not in ds_config.json (set in your code):"), page);
            label->setBuddy(m_notes);
            m_notes->setParent(page);
            column->addWidget(label);
            column->addWidget(m_notes, 2);
        }
        m_tabs->addTab(page, titles[std::size_t(i)]);
    }

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    buttons->addButton(m_save, QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(820, 560);

    connect(m_copy, &QPushButton::clicked, this, &ExportDialog::copyCurrent);
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::saveCurrent);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ExportDialog::updateButtons);
    connect(m_document, &PlanDocument::changed, this, &ExportDialog::refresh);
    refresh();
}

void ExportDialog::refresh() {
    const v1::PlanFile& plan = m_document->file();
    const std::array<Result<QString>, 3> results{megatronArguments(plan), deepSpeedConfig(plan),
                                                 torchtitanParallelism(plan)};
    const std::array<QString, 3> titles{tr("Megatron-LM"), tr("DeepSpeed"), tr("torchtitan")};
    for (std::size_t i = 0; i < 3; ++i) {
        Tab& tab = m_tab[i];
        tab.ok = results[i].has_value();
        tab.text = tab.ok ? *results[i] : QString();
        // The reason, translated where it is made, under the heading as it is: not an argument of
        // a tr() template, so the translator and tst_untranslated see it on its own.
        tab.shown = tab.ok
                        ? tab.text
                        : tr("%1 cannot express this layout:").arg(titles[i]) + QLatin1Char('\n') +
                              QString::fromStdString(results[i].error().message);
        if (tab.view->toPlainText() != tab.shown) {
            tab.view->setPlainText(tab.shown);
        }
    }
    const Result<QString> notes = deepSpeedNotes(plan);
    const QString notesText = notes ? *notes : QString();
    if (m_notes->toPlainText() != notesText) {
        m_notes->setPlainText(notesText);
    }
    updateButtons();
}

void ExportDialog::updateButtons() {
    const bool ok = exportable(currentFormat());
    m_copy->setEnabled(ok);
    m_save->setEnabled(ok);
}

QString ExportDialog::shownText(Format format) const {
    return m_tab[std::size_t(format)].shown;
}

QString ExportDialog::exportText(Format format) const {
    return m_tab[std::size_t(format)].text;
}

QString ExportDialog::notesText() const {
    return m_notes->toPlainText();
}

bool ExportDialog::exportable(Format format) const {
    return m_tab[std::size_t(format)].ok;
}

ExportDialog::Format ExportDialog::currentFormat() const {
    return static_cast<Format>(std::clamp(m_tabs->currentIndex(), 0, 2));
}

QString ExportDialog::statusText() const {
    return m_status->text();
}

QString ExportDialog::fileName(Format format) {
    switch (format) {
    case Megatron:
        return QStringLiteral("megatron-args.sh");
    case DeepSpeed:
        return QStringLiteral("ds_config.json");
    case Torchtitan:
        break;
    }
    return QStringLiteral("torchtitan.toml");
}

void ExportDialog::copyCurrent() {
    const Format format = currentFormat();
    if (!exportable(format)) {
        return;
    }
    QGuiApplication::clipboard()->setText(exportText(format));
    m_status->setText(tr("Copied the %1 text.").arg(m_tabs->tabText(format)));
}

void ExportDialog::saveCurrent() {
    const Format format = currentFormat();
    if (!exportable(format)) {
        return;
    }
    const QString dir =
        m_document->path().isEmpty() ? QDir::homePath() : QFileInfo(m_document->path()).path();
    auto* dialog = new QFileDialog(this, tr("Save the %1 export").arg(m_tabs->tabText(format)),
                                   QDir(dir).filePath(fileName(format)));
    dialog->setObjectName(QStringLiteral("exportSaveDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, format](const QString& path) { saveTo(format, path); });
    dialog->open(); // window-modal without a nested event loop
}

void ExportDialog::saveTo(Format format, const QString& path) {
    if (!exportable(format)) {
        const QString message =
            tr("Nothing to save: %1 cannot express this layout.").arg(m_tabs->tabText(format));
        m_status->setText(message);
        Q_EMIT saveFailed(message);
        return;
    }
    m_status->setText(tr("Saving %1…").arg(path));
    // The worker thread gets copies only: the dialog may close before the write ends.
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty()) {
            m_status->setText(tr("Saved %1.").arg(path));
            Q_EMIT saved(path);
        } else {
            const QString message = tr("Cannot write '%1': %2").arg(path, error);
            m_status->setText(message);
            Q_EMIT saveFailed(message);
        }
    });
    // The reason when the system gives none, translated here: the worker thread only copies it.
    watcher->setFuture(QtConcurrent::run(tsanHandOff(
        [path, bytes = exportText(format).toUtf8(), unknown = tr("write failed")]() -> QString {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
                !file.commit()) {
                return file.errorString().isEmpty() ? unknown : file.errorString();
            }
            return {};
        })));
}

} // namespace tessera::designer
