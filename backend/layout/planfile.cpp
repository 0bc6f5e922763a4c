// The designer's layout files (see planfile.h).
#include "backend/layout/planfile.h"

#include "backend/layout/layoutmath.h"
#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>

#include <google/protobuf/util/json_util.h>

#include <algorithm>

namespace tessera::designer {

namespace {
QString trPlan(const char* text) {
    return QCoreApplication::translate("tessera::designer::PlanIo", text);
}
} // namespace

std::string planToJson(const v1::PlanFile& plan) {
    google::protobuf::util::JsonPrintOptions opts;
    opts.add_whitespace = true;
    std::string json;
    (void)google::protobuf::util::MessageToJsonString(plan, &json, opts);
    return json;
}

Result<v1::PlanFile> parsePlan(const std::string& json, const std::string& origin) {
    google::protobuf::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    v1::PlanFile plan;
    const auto status = google::protobuf::util::JsonStringToMessage(json, &plan, opts);
    if (!status.ok()) {
        return fail(ErrorCode::InvalidArgument,
                    origin + ": not a layout file: " + std::string(status.message()));
    }
    // The designer draws every device: a file with a billion of them must not open.
    if (const std::string big = planner::clusterTooLarge(planCluster(plan)); !big.empty()) {
        return fail(ErrorCode::InvalidArgument, origin + ": " + big);
    }
    // Nor one whose degrees ask for more ranks than any job may have (the drawing keeps one entry
    // per rank).
    if (worldSize(plan.layout()) > kMaxWorldSize) {
        return fail(ErrorCode::InvalidArgument,
                    origin + ": the layout needs more than " + std::to_string(kMaxWorldSize) +
                        " ranks (dataParallel × stages × contextParallel × tensorParallel): "
                        "lower its degrees");
    }
    return plan;
}

Result<void> savePlan(const v1::PlanFile& plan, const QString& path) {
    QSaveFile file(path);
    const std::string json = planToJson(plan);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(json.data(), static_cast<qint64>(json.size())) !=
            static_cast<qint64>(json.size()) ||
        !file.commit()) {
        return fail(ErrorCode::Io,
                    trPlan(QT_TRANSLATE_NOOP("tessera::designer::PlanIo", "cannot write '%1': %2"))
                        .arg(path, file.errorString())
                        .toStdString());
    }
    return {};
}

Result<v1::PlanFile> loadPlan(const QString& path) {
    QFile file(path);
    if (!file.exists()) {
        return fail(ErrorCode::NotFound,
                    trPlan(QT_TRANSLATE_NOOP("tessera::designer::PlanIo",
                                             "layout file '%1' does not exist"))
                        .arg(path)
                        .toStdString());
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io,
                    trPlan(QT_TRANSLATE_NOOP("tessera::designer::PlanIo", "cannot read '%1': %2"))
                        .arg(path, file.errorString())
                        .toStdString());
    }
    if (file.size() > 16 * 1024 * 1024) {
        return fail(ErrorCode::InvalidArgument,
                    trPlan(QT_TRANSLATE_NOOP("tessera::designer::PlanIo",
                                             "'%1' is larger than 16 MiB: not a layout file"))
                        .arg(path)
                        .toStdString());
    }
    const QByteArray bytes = file.readAll();
    return parsePlan(bytes.toStdString(), path.toStdString());
}

planner::PlanOptions planOptions(const v1::PlanFile& plan, std::vector<int> rankDevices) {
    const v1::PlanSettings& s = plan.settings();
    planner::PlanOptions o;
    if (s.global_batch() > 0) {
        o.globalBatch = s.global_batch();
    }
    if (!s.optimizer().empty()) {
        o.optimizer = s.optimizer();
    }
    o.zeroStage = s.zero_stage();
    if (!s.recompute().empty()) {
        o.recompute = s.recompute();
    }
    o.sequenceParallel = s.sequence_parallel();
    o.tpCommOverlap = s.tp_comm_overlap();
    o.precision = s.precision();
    if (!s.flash_attention().empty()) {
        o.flashAttention = s.flash_attention();
    }
    o.datasetSamples = s.dataset_samples();
    o.moeImbalance = s.moe_imbalance() >= 1.0 ? s.moe_imbalance() : 1.0;
    o.rankDevices = std::move(rankDevices);
    return o;
}

planner::PlanCluster planCluster(const v1::PlanFile& plan) {
    planner::PlanCluster cluster;
    for (const v1::PlanNode& n : plan.nodes()) {
        planner::PlanNode node;
        node.name = n.name();
        node.deviceId = n.device();
        node.devices = std::max(1, n.devices());
        node.pricePerHour = n.price_per_hour();
        cluster.nodes.push_back(std::move(node));
    }
    return cluster;
}

} // namespace tessera::designer
