// Snapshot undo command of the designer (see planeditcommand.h).
#include "app/designer/planeditcommand.h"

#include "app/designer/plandocument.h"

namespace tessera::designer {

PlanEditCommand::PlanEditCommand(PlanDocument* document, v1::PlanFile before, v1::PlanFile after,
                                 const QString& text, int mergeId)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)),
      m_after(std::move(after)), m_mergeId(mergeId) {}

void PlanEditCommand::undo() {
    m_document->setFile(m_before);
}

void PlanEditCommand::redo() {
    m_document->setFile(m_after);
}

bool PlanEditCommand::mergeWith(const QUndoCommand* other) {
    if (other->id() != m_mergeId || m_mergeId < 0) {
        return false;
    }
    m_after = static_cast<const PlanEditCommand*>(other)->m_after;
    return true;
}

} // namespace tessera::designer
