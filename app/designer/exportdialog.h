// "Export layout…": the document's layout as Megatron-LM arguments, a DeepSpeed config and a
// torchtitan TOML (layoutexport.h), one read-only tab each, with Copy and Save… (files are
// written on a worker thread, so the GUI thread never waits for the disk).
#pragma once

#include <QDialog>
#include <QString>

#include <array>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace tessera::designer {

class PlanDocument;

/// Non-modal dialog over `document` (which must outlive it); follows every document change.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// The tabs, in order.
    enum Format { Megatron = 0, DeepSpeed = 1, Torchtitan = 2 };

    explicit ExportDialog(PlanDocument* document, QWidget* parent = nullptr);

    QTabWidget* tabs() const { return m_tabs; }
    /// The text a tab shows: the export, or why the format cannot express the layout.
    QString shownText(Format format) const;
    /// The export itself (empty when the format cannot express the layout).
    QString exportText(Format format) const;
    /// DeepSpeed only: what ds_config.json cannot hold (shown under the JSON).
    QString notesText() const;
    /// True when `format` expresses the layout (Copy and Save… are enabled on its tab).
    bool exportable(Format format) const;
    /// The tab shown now.
    Format currentFormat() const;
    /// The line under the tabs (saved, copied, failed).
    QString statusText() const;

    /// Recomputes the three tabs from the document (cheap, pure functions).
    void refresh();
    /// Copies the current tab's export to the clipboard.
    void copyCurrent();
    /// Save…: opens a file dialog (window-modal, not exec'd); the chosen file gets saveTo().
    void saveCurrent();
    /// Writes `format`'s export as it is now to `path` (atomically, QSaveFile) on a worker
    /// thread; saved() or saveFailed() follows. No-op (saveFailed) when it is not exportable.
    void saveTo(Format format, const QString& path);

Q_SIGNALS:
    void saved(const QString& path);
    /// `message` names the file and the system's reason.
    void saveFailed(const QString& message);

private:
    struct Tab {
        QPlainTextEdit* view = nullptr;
        QString text;  ///< the export; empty when not exportable
        QString shown; ///< what the view shows
        bool ok = false;
    };
    void updateButtons();
    static QString fileName(Format format);

    PlanDocument* m_document;
    QTabWidget* m_tabs;
    std::array<Tab, 3> m_tab;
    QPlainTextEdit* m_notes;
    QLabel* m_status;
    QPushButton* m_copy;
    QPushButton* m_save;
};

} // namespace tessera::designer
