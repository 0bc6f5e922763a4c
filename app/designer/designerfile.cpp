// The designer's unsaved-changes hooks: may the plan be replaced, save, new layout
// (DesignerPanel members; the window asks the person through setReplaceGuard's guard).
#include "app/designer/designerpanel.h"
#include "app/designer/plandocument.h"

namespace tessera::designer {

bool DesignerPanel::isModified() const {
    return !m_document->undoStack()->isClean();
}

bool DesignerPanel::mayReplacePlan(const QString& what) {
    return !isModified() || !m_replaceGuard || m_replaceGuard(what);
}

bool DesignerPanel::saveLayout() {
    return saveDialog(false);
}

bool DesignerPanel::newLayout() {
    if (!mayReplacePlan(tr("start a new layout"))) {
        return false;
    }
    m_document->reset(defaultPlan());
    m_document->setPath(QString());
    showMessage(tr("New layout."), false);
    return true;
}

} // namespace tessera::designer
