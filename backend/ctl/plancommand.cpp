// `tessera-ctl plan` (see plancommand.h): resolve the model, the machines and the layout, run the
// planner, print.
#include "backend/ctl/plancommand.h"

#include "backend/core/paths.h"
#include "backend/ctl/planreport.h"
#include "backend/ctl/planrequest.h"
#include "backend/layout/planfile.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>

namespace tessera::ctl {

namespace {

int refuse(const std::string& why) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", why.c_str());
    return kExitBadInput;
}

/// The shipped models' folder: TESSERA_MODELS_DIR, the source tree's resources/planner/models
/// (a build), or share/tessera/planner/models beside the installed program.
QString modelsDir() {
    const QString env = qEnvironmentVariable("TESSERA_MODELS_DIR");
    if (!env.isEmpty()) {
        return env;
    }
    QStringList candidates;
#ifdef TESSERA_MODELS_SOURCE_DIR
    candidates << QStringLiteral(TESSERA_MODELS_SOURCE_DIR);
#endif
    candidates << binDir() + QStringLiteral("/../share/tessera/planner/models");
    for (const QString& dir : candidates) {
        if (QFileInfo(dir).isDir()) {
            return QDir(dir).absolutePath();
        }
    }
    return {};
}

/// The config.json text `model` names: a file, or a shipped model's name ("llama-2-70b").
Result<std::string> modelText(const QString& model) {
    QString path = model;
    if (!QFileInfo(path).isFile()) {
        const QString dir = modelsDir();
        const QStringList names = dir.isEmpty() ? QStringList()
                                                : QDir(dir).entryList({QStringLiteral("*.json")},
                                                                      QDir::Files, QDir::Name);
        const auto it = std::find_if(names.begin(), names.end(), [&](const QString& n) {
            return QFileInfo(n).completeBaseName().compare(model, Qt::CaseInsensitive) == 0;
        });
        if (it == names.end()) {
            QStringList known;
            for (const QString& n : names) {
                known << QFileInfo(n).completeBaseName();
            }
            return fail(ErrorCode::InvalidArgument,
                        "--model '" + model.toStdString() +
                            "' is neither a file nor a model Tessera ships (" +
                            known.join(QStringLiteral(", ")).toStdString() + ")");
        }
        path = QDir(dir).absoluteFilePath(*it);
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io,
                    "cannot read '" + path.toStdString() + "': " + f.errorString().toStdString());
    }
    if (f.size() > 1024 * 1024) {
        return fail(ErrorCode::InvalidArgument,
                    "'" + path.toStdString() + "' is larger than 1 MiB: not a config.json");
    }
    return f.readAll().toStdString();
}

/// What the planner is asked: the model, the machines, the options and (without --auto) the
/// layout.
struct Problem {
    planner::PlanModel model;
    planner::PlanCluster cluster;
    QString clusterText;
    planner::PlanOptions options;
    v1::Layout layout;
};

/// The options the command line sets on top of `o` (a layout file's settings, or defaults).
void applyOptions(const PlanRequest& r, planner::PlanOptions& o) {
    if (r.globalBatch > 0) {
        o.globalBatch = r.globalBatch;
    }
    if (r.given.count("zero")) {
        o.zeroStage = r.zero;
    }
    if (r.given.count("recompute")) {
        o.recompute = r.recompute.toStdString();
    }
    if (r.sequenceParallel) {
        o.sequenceParallel = true;
    }
    if (r.tpCommOverlap) {
        o.tpCommOverlap = true;
    }
    if (!r.precision.isEmpty()) {
        o.precision = r.precision.toStdString();
    }
    if (r.given.count("flash-attention")) {
        o.flashAttention = r.flashAttention.toStdString();
    }
}

/// The spec's enum value whose scheduleText() is `name` (1F1B for any other name).
v1::PipelineSchedule scheduleOf(const QString& name) {
    for (const auto s : {v1::PIPELINE_SCHEDULE_GPIPE, v1::PIPELINE_SCHEDULE_INTERLEAVED,
                         v1::PIPELINE_SCHEDULE_ZB_H1}) {
        if (name.toStdString() == tessera::scheduleText(s)) {
            return s;
        }
    }
    return v1::PIPELINE_SCHEDULE_1F1B;
}

/// A layout from --dp/--tp/--pp/--vpp/--micro-batch/--schedule on `p`'s cluster, PP × VPP
/// chunks of even blocks. Errors: degrees that do not divide the cluster's devices or the global
/// batch, more chunks than blocks.
Result<void> layoutFromDegrees(const PlanRequest& r, Problem& p) {
    const int n = p.cluster.deviceCount();
    const long long tpp = (long long)r.tp * r.pp * r.cp;
    const int dp = r.dp > 0 ? r.dp : int(n / std::max(1LL, tpp));
    if (r.dp == 0 && (tpp > n || n % tpp != 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "TP " + std::to_string(r.tp) + " x PP " + std::to_string(r.pp) +
                        (r.cp > 1 ? " x CP " + std::to_string(r.cp) : std::string()) +
                        " does not divide the cluster's " + std::to_string(n) +
                        " devices: give --dp, or TP and PP that divide it");
    }
    const long long perStep = (long long)dp * r.microBatchSize;
    if (p.options.globalBatch % perStep != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "global batch " + std::to_string(p.options.globalBatch) +
                        " is not a whole number of micro-batches of " +
                        std::to_string(r.microBatchSize) + " over DP " + std::to_string(dp) +
                        ": give a --global-batch that is a multiple of " + std::to_string(perStep));
    }
    p.layout.set_data_parallel(dp);
    p.layout.set_tensor_parallel(r.tp);
    p.layout.set_micro_batches(int(p.options.globalBatch / perStep));
    p.layout.set_schedule(scheduleOf(r.schedule));
    if (r.cp > 1) {
        p.layout.set_context_parallel(r.cp);
    }
    if (r.ep > 1) {
        p.layout.set_expert_parallel(r.ep);
    }
    if (r.vpp > 1) {
        p.layout.set_virtual_stages(r.vpp);
    }
    setEvenStages(p.model, r.pp * r.vpp, p.layout);
    if (std::max(1, p.layout.stages_size()) != r.pp * r.vpp) {
        return fail(ErrorCode::InvalidArgument,
                    "PP " + std::to_string(r.pp) + " x " + std::to_string(r.vpp) +
                        " chunks is more than the model's " +
                        std::to_string(p.layout.stages_size()) + " blocks: lower --pp or --vpp");
    }
    return {};
}

Result<void> fromLayoutFile(const PlanRequest& r, Problem& p) {
    const Result<v1::PlanFile> file = designer::loadPlan(r.layoutFile);
    if (!file) {
        return relay(file);
    }
    Result<planner::PlanModel> model =
        !file->hf_config_json().empty()
            ? planner::modelFromHfConfig(file->hf_config_json(),
                                         r.seqLen > 0 ? r.seqLen : file->seq_len())
            : planner::modelFromSpec(file->model(), file->model().vocab_size());
    if (!model) {
        return relay(model, r.layoutFile.toStdString() + ": ");
    }
    p.model = std::move(*model);
    p.cluster = designer::planCluster(*file);
    p.clusterText = QStringLiteral("%1 (from the layout file)").arg(r.layoutFile);
    p.options = designer::planOptions(
        *file, std::vector<int>(file->rank_devices().begin(), file->rank_devices().end()));
    p.layout = file->layout();
    return {};
}

Result<Problem> resolve(const PlanRequest& r) {
    Problem p;
    if (!r.layoutFile.isEmpty()) {
        if (Result<void> f = fromLayoutFile(r, p); !f) {
            return relay(f);
        }
    } else {
        const Result<std::string> text = modelText(r.model);
        if (!text) {
            return relay(text);
        }
        Result<planner::PlanModel> model = planner::modelFromHfConfig(*text, r.seqLen);
        if (!model) {
            return relay(model, "--model " + r.model.toStdString() + ": ");
        }
        p.model = std::move(*model);
        p.options.globalBatch = kDefaultGlobalBatch;
    }
    if (r.layoutFile.isEmpty() || r.given.count("cluster")) {
        Result<planner::PlanCluster> cluster =
            planner::parseHypotheticalCluster(r.cluster.toStdString());
        if (!cluster) {
            return relay(cluster, "--cluster: ");
        }
        p.cluster = std::move(*cluster);
        p.clusterText = r.cluster;
        p.options.rankDevices.clear();
    }
    if (const std::string big = planner::clusterTooLarge(p.cluster); !big.empty()) {
        return fail(ErrorCode::InvalidArgument, big);
    }
    applyOptions(r, p.options);
    if (r.layoutFile.isEmpty() && !r.autoPlan) {
        if (Result<void> l = layoutFromDegrees(r, p); !l) {
            return relay(l);
        }
    }
    return p;
}

void print(const QByteArray& bytes) {
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void printWarnings(const planner::PlanModel& model) {
    for (const std::string& w : model.warnings) {
        std::fprintf(stderr, "tessera-ctl: warning: %s\n", w.c_str());
    }
}

int runOne(const PlanRequest& r, const Problem& p) {
    const Result<planner::Estimate> e = planner::estimate(p.model, p.cluster, p.layout, p.options);
    if (!e) {
        return refuse(e.error().message);
    }
    const QJsonObject json = planJson(p.model, p.cluster, p.layout, p.options, *e);
    print(r.json ? QJsonDocument(json).toJson(QJsonDocument::Indented)
                 : planTable(p.model, p.clusterText, json).toUtf8());
    return kExitOk;
}

int runAuto(const PlanRequest& r, const Problem& p) {
    planner::AutoPlanGoal goal;
    goal.top = r.top;
    // Recompute and SP given on the command line are kept; else auto-plan chooses them.
    goal.searchRecompute = !r.given.count("recompute") && !r.given.count("sp");
    planner::AutoPlanStats stats;
    const auto plans = planner::autoPlan(p.model, p.cluster, p.options, goal, {}, &stats);
    if (!plans) {
        return refuse(plans.error().message);
    }
    QJsonArray layouts;
    QString table;
    for (const planner::RankedPlan& plan : *plans) {
        QJsonObject o = planJson(p.model, p.cluster, plan.layout, plan.options, plan.estimate);
        o.insert(QStringLiteral("reasons"), QJsonArray{QString::fromStdString(plan.reason)});
        table +=
            QStringLiteral("%1\n%2\n")
                .arg(QString::fromStdString(plan.reason), planTable(p.model, p.clusterText, o));
        layouts.append(o);
    }
    if (plans->empty()) {
        table = QStringLiteral("No layout of the %1 evaluated fits %2.\n")
                    .arg(stats.evaluated)
                    .arg(p.clusterText);
    }
    const QJsonObject json{{QStringLiteral("model"), QString::fromStdString(p.model.name)},
                           {QStringLiteral("evaluated"), stats.evaluated},
                           {QStringLiteral("fitting"), stats.fitting},
                           {QStringLiteral("layouts"), layouts}};
    print(r.json ? QJsonDocument(json).toJson(QJsonDocument::Indented) : table.toUtf8());
    return kExitOk;
}

} // namespace

void setEvenStages(const planner::PlanModel& model, int stages, v1::Layout& layout) {
    layout.clear_stages();
    std::vector<int> blocks;
    for (int i = 0; i < int(model.layers.size()); ++i) {
        if (model.layers[std::size_t(i)].kind == "block") {
            blocks.push_back(i);
        }
    }
    const bool byBlocks = !blocks.empty();
    const int units = byBlocks ? int(blocks.size()) : int(model.layers.size());
    const int p = std::clamp(stages, 1, std::max(1, units));
    if (p == 1) {
        return;
    }
    int next = 0, first = 0;
    for (int k = 0; k < p; ++k) {
        next += units / p + (k < units % p ? 1 : 0);
        const int last = k + 1 == p ? int(model.layers.size()) - 1
                                    : (byBlocks ? blocks[std::size_t(next - 1)] : next - 1);
        v1::Stage* s = layout.add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
        first = last + 1;
    }
}

int runPlanCommand(const CtlOptions& options) {
    const Result<PlanRequest> request = readPlanRequest(options.planValues, options.planFlags);
    if (!request) {
        return refuse(request.error().message);
    }
    const Result<Problem> problem = resolve(*request);
    if (!problem) {
        return refuse(problem.error().message);
    }
    printWarnings(problem->model);
    return request->autoPlan ? runAuto(*request, *problem) : runOne(*request, *problem);
}

} // namespace tessera::ctl
