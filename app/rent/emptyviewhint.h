// A line of text in the middle of an item view while its model has no rows: what the empty
// table means and how to fill it.
#pragma once

#include <QLabel>
#include <QPointer>

class QAbstractItemView;

namespace tessera {

/// A label on `view`'s viewport, shown while the view's model has no rows and hidden otherwise
/// (rows inserted, removed, a reset). It follows the viewport's size and lets clicks through.
class EmptyViewHint : public QLabel {
    Q_OBJECT
public:
    /// `view` must have its model set; the hint becomes a child of its viewport.
    EmptyViewHint(QAbstractItemView* view, const QString& text);

    /// True while the model is empty (the hint is shown when the view is).
    bool active() const { return !isHidden(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refresh();
    QPointer<QAbstractItemView> m_view;
};

} // namespace tessera
