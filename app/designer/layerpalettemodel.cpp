// The designer's layer palette model (see layerpalettemodel.h).
#include "app/designer/layerpalettemodel.h"

#include "app/designer/stagecolor.h"
#include "backend/layout/layoutmath.h"

#include <QLocale>
#include <QMimeData>

#include <algorithm>
#include <cmath>

namespace tessera::designer {

QString formatCount(double value) {
    const double a = std::abs(value);
    if (a >= 1e9) {
        return QStringLiteral("%1 B").arg(QLocale().toString(value / 1e9, 'f', 2));
    }
    if (a >= 1e6) {
        return QStringLiteral("%1 M").arg(QLocale().toString(value / 1e6, 'f', 1));
    }
    if (a >= 1e3) {
        return QStringLiteral("%1 k").arg(QLocale().toString(value / 1e3, 'f', 1));
    }
    return QLocale().toString(value, 'f', 0);
}

QString formatBytes(double bytes) {
    const double a = std::abs(bytes);
    if (a >= 1e9) {
        return QStringLiteral("%1 GB").arg(QLocale().toString(bytes / 1e9, 'f', 1));
    }
    if (a >= 1e6) {
        return QStringLiteral("%1 MB").arg(QLocale().toString(bytes / 1e6, 'f', 1));
    }
    if (a >= 1e3) {
        return QStringLiteral("%1 kB").arg(QLocale().toString(bytes / 1e3, 'f', 1));
    }
    return QStringLiteral("%1 B").arg(QLocale().toString(bytes, 'f', 0));
}

LayerPaletteModel::LayerPaletteModel(QObject* parent) : QAbstractListModel(parent) {}

void LayerPaletteModel::setModel(const planner::PlanModel* model, const v1::Layout& layout) {
    beginResetModel();
    m_layers = model ? model->layers : std::vector<planner::PlanLayer>{};
    m_layout = layout;
    endResetModel();
}

void LayerPaletteModel::setLayout(const v1::Layout& layout) {
    m_layout = layout;
    if (!m_layers.empty()) {
        Q_EMIT dataChanged(index(0), index(rowCount() - 1),
                           {Qt::DecorationRole, Qt::ToolTipRole, StageRole});
    }
}

int LayerPaletteModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_layers.size());
}

int LayerPaletteModel::stageOf(int layer) const {
    for (int s = 0; s < m_layout.stages_size(); ++s) {
        if (layer >= m_layout.stages(s).first_layer() && layer <= m_layout.stages(s).last_layer()) {
            return s;
        }
    }
    return m_layout.stages_size() == 0 ? 0 : -1;
}

QVariant LayerPaletteModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const int row = index.row();
    const planner::PlanLayer& layer = m_layers[static_cast<std::size_t>(row)];
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1  %2 · %3")
            .arg(row)
            .arg(QString::fromStdString(layer.name), formatCount(double(layer.params)));
    case Qt::DecorationRole: {
        const int stage = stageOf(row);
        return stage < 0 ? QColor(Qt::white) : stageColor(stage);
    }
    case Qt::ToolTipRole: {
        const int stage = stageOf(row);
        const QString where =
            stage < 0 ? tr("in no stage (drop it on a device)") : tr("stage %1").arg(stage);
        return tr("%1 (%2): %3 parameters, %4 FLOP forward and %5 of activations per sample; %6")
            .arg(QString::fromStdString(layer.name), QString::fromStdString(layer.kind),
                 formatCount(double(layer.params)), formatCount(layer.forwardFlops),
                 formatBytes(layer.activationBytes), where);
    }
    case LayerIndexRole:
        return row;
    case StageRole:
        return stageOf(row);
    default:
        return {};
    }
}

Qt::ItemFlags LayerPaletteModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled |
           Qt::ItemNeverHasChildren;
}

QStringList LayerPaletteModel::mimeTypes() const {
    return {QLatin1String(kMimeType)};
}

QMimeData* LayerPaletteModel::mimeData(const QModelIndexList& indexes) const {
    int first = -1, last = -1;
    for (const QModelIndex& i : indexes) {
        if (!i.isValid()) {
            continue;
        }
        first = first < 0 ? i.row() : std::min(first, i.row());
        last = std::max(last, i.row());
    }
    if (first < 0) {
        return nullptr;
    }
    auto* mime = new QMimeData;
    mime->setData(QLatin1String(kMimeType), QStringLiteral("%1,%2").arg(first).arg(last).toUtf8());
    mime->setText(tr("layers %1–%2").arg(first).arg(last));
    return mime;
}

std::pair<int, int> LayerPaletteModel::rangeFromMime(const QMimeData* mime) {
    if (!mime || !mime->hasFormat(QLatin1String(kMimeType))) {
        return {-1, -1};
    }
    const QList<QByteArray> parts = mime->data(QLatin1String(kMimeType)).split(',');
    bool ok1 = false, ok2 = false;
    const int first = parts.value(0).toInt(&ok1), last = parts.value(1).toInt(&ok2);
    if (parts.size() != 2 || !ok1 || !ok2 || first < 0 || last < first) {
        return {-1, -1};
    }
    return {first, last};
}

} // namespace tessera::designer
