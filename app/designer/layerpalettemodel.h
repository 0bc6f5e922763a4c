// The model's layers as a list for the designer's palette: drag one layer or a shift-selected
// range onto a device; each row shows the layer, its size and the stage that holds it.
#pragma once

#include "backend/planner/planner.h"
#include "tessera/v1/job.pb.h"

#include <QAbstractListModel>

#include <utility>

namespace tessera::designer {

/// Rows are the model's layers in order. DisplayRole "index  name · params", DecorationRole the
/// colour of the stage holding the layer, ToolTipRole kind / params / FLOPs / activations,
/// LayerIndexRole the index, StageRole the stage (-1 = in no stage). Drags carry
/// kMimeType = "first,last" (the selection's smallest and largest row).
class LayerPaletteModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { LayerIndexRole = Qt::UserRole + 1, StageRole };
    static constexpr const char* kMimeType = "application/x-tessera-layers";

    explicit LayerPaletteModel(QObject* parent = nullptr);

    /// Shows `model`'s layers (copied; nullptr = no rows) coloured by `layout`'s stages.
    void setModel(const planner::PlanModel* model, const v1::Layout& layout);
    /// Re-colours the rows for `layout` (same model).
    void setLayout(const v1::Layout& layout);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }

    /// The layer range a drag's mime data carries; {-1, -1} when it carries none.
    static std::pair<int, int> rangeFromMime(const QMimeData* mime);

private:
    int stageOf(int layer) const;

    std::vector<planner::PlanLayer> m_layers;
    v1::Layout m_layout;
};

/// "12.6 M" / "1.3 B" / "840" (counts).
QString formatCount(double value);
/// "14.2 GB" / "512 MB" (bytes, decimal units as device datasheets use).
QString formatBytes(double bytes);

} // namespace tessera::designer
