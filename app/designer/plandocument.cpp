// The designer's document (see plandocument.h).
#include "app/designer/plandocument.h"

#include "app/designer/drawnlayout.h"
#include "app/designer/planeditcommand.h"
#include "app/designer/planio.h"
#include "backend/layout/layoutmath.h"

#include <google/protobuf/util/message_differencer.h>

namespace tessera::designer {

using google::protobuf::util::MessageDifferencer;

bool sameModel(const v1::PlanFile& a, const v1::PlanFile& b) {
    return a.hf_config_json() == b.hf_config_json() && a.seq_len() == b.seq_len() &&
           MessageDifferencer::Equals(a.model(), b.model());
}

namespace {
/// `next` without the drawing's rank → device map when the edit changed what the map refers
/// to (the degrees, the stage count, the model or the machines) but not the map itself: the
/// old drawing would put ranks on devices by a meaning they no longer have.
v1::PlanFile withoutStaleDrawing(const v1::PlanFile& current, v1::PlanFile next) {
    if (next.rank_devices_size() == 0 ||
        !std::equal(next.rank_devices().begin(), next.rank_devices().end(),
                    current.rank_devices().begin(), current.rank_devices().end())) {
        return next;
    }
    const v1::Layout &a = current.layout(), &b = next.layout();
    bool same = sameModel(current, next) && dpDegree(a) == dpDegree(b) &&
                tpWidth(a) == tpWidth(b) && stageCount(a) == stageCount(b) &&
                cpDegree(a) == cpDegree(b) && current.nodes_size() == next.nodes_size();
    for (int i = 0; same && i < next.nodes_size(); ++i) {
        same = MessageDifferencer::Equals(current.nodes(i), next.nodes(i));
    }
    if (!same) {
        next.clear_rank_devices();
    }
    return next;
}
} // namespace

PlanDocument::PlanDocument(QObject* parent) : QObject(parent), m_undo(this) {
    rebuildModel();
    rebuildCluster();
}

int PlanDocument::layerCount() const {
    return m_model ? static_cast<int>(m_model->layers.size()) : 0;
}

planner::PlanOptions PlanDocument::options() const {
    return planOptions(m_file, rankDevices());
}

std::vector<int> PlanDocument::rankDevices() const {
    return effectiveRankDevices(m_file, layerCount(), m_cluster.deviceCount());
}

DeviceRole PlanDocument::roleOf(int device) const {
    return DrawnLayout::read(m_file, layerCount(), m_cluster.deviceCount()).roleOf(device);
}

v1::Layout PlanDocument::layout() const {
    return withExplicitStages(m_file.layout(), layerCount());
}

void PlanDocument::edit(const v1::PlanFile& edited, const QString& text, int mergeId) {
    const v1::PlanFile next = withoutStaleDrawing(m_file, edited);
    if (MessageDifferencer::Equals(next, m_file)) {
        return;
    }
    m_undo.push(new PlanEditCommand(this, m_file, next, text, mergeId));
}

void PlanDocument::reset(const v1::PlanFile& file) {
    m_undo.clear();
    setFile(file);
}

void PlanDocument::setFile(const v1::PlanFile& file) {
    const bool modelDiffers = !sameModel(file, m_file) || !m_model;
    bool nodesDiffer = file.nodes_size() != m_file.nodes_size();
    for (int i = 0; !nodesDiffer && i < file.nodes_size(); ++i) {
        nodesDiffer = !MessageDifferencer::Equals(file.nodes(i), m_file.nodes(i));
    }
    m_file = file;
    if (modelDiffers) {
        rebuildModel();
        Q_EMIT modelChanged();
    }
    if (nodesDiffer) {
        rebuildCluster();
        Q_EMIT clusterChanged();
    }
    Q_EMIT changed();
}

void PlanDocument::rebuildModel() {
    m_model.reset();
    m_modelError.clear();
    Result<planner::PlanModel> model = planner::PlanModel{};
    if (!m_file.hf_config_json().empty()) {
        model = planner::modelFromHfConfig(m_file.hf_config_json(), m_file.seq_len());
    } else if (!m_file.model().family().empty()) {
        model = planner::modelFromSpec(m_file.model(), m_file.model().vocab_size());
    } else {
        m_modelError = tr("No model chosen: pick one from the Model list or import a config.json.");
        return;
    }
    if (!model) {
        m_modelError = tr("The model cannot be planned: %1")
                           .arg(QString::fromStdString(model.error().message));
        return;
    }
    m_model = std::move(*model);
}

void PlanDocument::rebuildCluster() {
    m_cluster = planCluster(m_file);
}

} // namespace tessera::designer
