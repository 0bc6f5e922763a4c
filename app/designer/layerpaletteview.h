// The designer's layer palette: a list view whose drags show a small translucent label ("layers
// 3–5") beside the pointer instead of Qt's picture of the selected rows, which covered the
// device under the pointer and its drop preview.
#pragma once

#include <QListView>
#include <QPixmap>

namespace tessera::designer {

/// QListView with the palette's drag image (see the file comment).
class LayerPaletteView : public QListView {
    Q_OBJECT
public:
    explicit LayerPaletteView(QWidget* parent = nullptr);

    /// The drag image for layers [first, last]: one line of text on a rounded, partly
    /// transparent label, at most 260 × 40 device-independent pixels.
    static QPixmap dragPixmap(int first, int last, qreal devicePixelRatio = 1.0);
    /// Where the pointer sits on dragPixmap(): above its top-left corner, so the label trails
    /// the pointer and leaves the target visible.
    static QPoint dragHotSpot();

protected:
    void startDrag(Qt::DropActions supportedActions) override;
};

} // namespace tessera::designer
