// Empty-state text over an item view (see emptyviewhint.h).
#include "app/rent/emptyviewhint.h"

#include <QAbstractItemView>
#include <QEvent>

namespace tessera {

EmptyViewHint::EmptyViewHint(QAbstractItemView* view, const QString& text)
    : QLabel(text, view->viewport()), m_view(view) {
    setObjectName(view->objectName() + QStringLiteral("EmptyHint"));
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setMargin(12);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setForegroundRole(QPalette::PlaceholderText);
    view->viewport()->installEventFilter(this);
    QAbstractItemModel* model = view->model();
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
        connect(model, signal, this, &EmptyViewHint::refresh);
    }
    connect(model, &QAbstractItemModel::modelReset, this, &EmptyViewHint::refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyViewHint::refresh);
    refresh();
}

bool EmptyViewHint::eventFilter(QObject* watched, QEvent* event) {
    if (m_view && watched == m_view->viewport() && event->type() == QEvent::Resize) {
        setGeometry(m_view->viewport()->rect());
    }
    return QLabel::eventFilter(watched, event);
}

void EmptyViewHint::refresh() {
    if (!m_view || !m_view->model()) {
        return;
    }
    setGeometry(m_view->viewport()->rect());
    setVisible(m_view->model()->rowCount() == 0);
}

} // namespace tessera
