// The layout as an outline beside the canvas — stage → DP replica → TP rank, each rank with its
// device — editing the same document from the keyboard: F2 on a stage edits its layer range
// ("3-5", the same rules as a drop on its devices), F2 on a rank picks its device (an idle one
// takes it over, a busy one swaps), Delete on a stage removes it. Every edit is one undo step.
#pragma once

#include <QTreeWidget>

namespace tessera::designer {

class PlanDocument;

/// The outline tree (see the file comment). Columns: what (stage / replica / rank), and its
/// layers or device.
class LayoutOutline : public QTreeWidget {
    Q_OBJECT
public:
    explicit LayoutOutline(PlanDocument* document, QWidget* parent = nullptr);

    /// Rebuilds the tree from the document (called on every change of it).
    void refresh();
    /// The keyboard edits, also used by the tree's editors. Each returns false with the reason
    /// in `why` when the edit is refused (bad range text, unknown device, the drop rules' refusal).
    bool setStageLayers(int stage, const QString& range, QString* why = nullptr);
    bool setRankDevice(int rank, int device, QString* why = nullptr);
    bool removeStage(int stage);

Q_SIGNALS:
    /// An edit was refused: `reason` for the message line.
    void refused(const QString& reason);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void onItemChanged(QTreeWidgetItem* item, int column);
    QStringList deviceNames() const;

    PlanDocument* m_document;
    bool m_filling = false;
};

} // namespace tessera::designer
