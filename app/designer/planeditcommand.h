// The one undo command of the designer: replace the plan with another (a snapshot before and
// after). Every edit — a drop, a degree, a model, the machines, an applied auto-plan — is one.
#pragma once

#include "tessera/v1/plan.pb.h"

#include <QUndoCommand>

namespace tessera::designer {

class PlanDocument;

/// Undo restores `before`, redo sets `after`. Commands with the same id >= 0 merge (the merged
/// command keeps the first `before` and the last `after`).
class PlanEditCommand : public QUndoCommand {
public:
    PlanEditCommand(PlanDocument* document, v1::PlanFile before, v1::PlanFile after,
                    const QString& text, int mergeId = -1);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    PlanDocument* m_document;
    v1::PlanFile m_before, m_after;
    int m_mergeId;
};

} // namespace tessera::designer
