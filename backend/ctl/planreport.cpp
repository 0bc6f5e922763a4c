// What `tessera-ctl plan` prints: an estimate as JSON (planJson) and as a readable table.
#include "backend/ctl/planreport.h"

#include "backend/layout/layoutmath.h"
#include "worker/common/spec_io.h"

#include <QJsonArray>

#include <algorithm>

namespace tessera::ctl {

namespace {

QString scheduleName(const v1::Layout& l) {
    return QString::fromStdString(scheduleText(l.schedule()));
}

const planner::DeviceEstimate* fullest(const planner::Estimate& e) {
    const planner::DeviceEstimate* top = nullptr;
    for (const planner::DeviceEstimate& d : e.devices) {
        if (d.rank >= 0 && (!top || d.total() > top->total())) {
            top = &d;
        }
    }
    return top;
}

QJsonObject layoutJson(const planner::PlanModel& model, const planner::PlanCluster& cluster,
                       const v1::Layout& layout, const planner::PlanOptions& o) {
    const v1::Layout l = designer::withExplicitStages(layout, int(model.layers.size()));
    const int dp = designer::dpDegree(l), m = std::max(1, l.micro_batches());
    QJsonArray stages;
    for (const v1::Stage& s : l.stages()) {
        stages.append(QJsonArray{s.first_layer(), s.last_layer()});
    }
    return QJsonObject{
        {QStringLiteral("dp"), dp},
        {QStringLiteral("tp"), designer::tpWidth(l)},
        {QStringLiteral("pp"), designer::stageCount(l)},
        {QStringLiteral("virtualStages"), std::max(1, l.virtual_stages())},
        {QStringLiteral("cp"), designer::cpDegree(l)},
        {QStringLiteral("ep"), designer::epDegree(l)},
        {QStringLiteral("microBatches"), m},
        {QStringLiteral("microBatchSize"), o.globalBatch / std::max(1, dp * m)},
        {QStringLiteral("globalBatch"), o.globalBatch},
        {QStringLiteral("schedule"), scheduleName(l)},
        {QStringLiteral("zero"), o.zeroStage},
        {QStringLiteral("recompute"), QString::fromStdString(o.recompute)},
        {QStringLiteral("sequenceParallel"), o.sequenceParallel},
        {QStringLiteral("tpCommOverlap"), o.tpCommOverlap && o.sequenceParallel},
        {QStringLiteral("precision"),
         QString::fromStdString(!o.precision.empty()     ? o.precision
                                : model.weightBytes == 2 ? std::string("bf16")
                                                         : std::string("fp32"))},
        {QStringLiteral("flashAttention"), planner::flashAttentionInEffect(model, cluster, o)},
        {QStringLiteral("stages"), stages}};
}

QString gb(double bytes) {
    return QString::number(bytes / 1e9, 'f', 1) + QStringLiteral(" GB");
}

QString seconds(double s) {
    if (s >= 1 || s == 0) {
        return QString::number(s, 'f', 3) + QStringLiteral(" s");
    }
    return QString::number(s * 1e3, 'f', 2) + QStringLiteral(" ms");
}

QString billions(std::int64_t n) {
    return QString::number(double(n) / 1e9, 'f', 2) + QStringLiteral(" B");
}

} // namespace

QJsonObject planJson(const planner::PlanModel& model, const planner::PlanCluster& cluster,
                     const v1::Layout& layout, const planner::PlanOptions& options,
                     const planner::Estimate& e) {
    QJsonArray problems;
    for (const std::string& p : e.problems) {
        problems.append(QString::fromStdString(p));
    }
    QJsonObject o{
        {QStringLiteral("model"), QString::fromStdString(model.name)},
        {QStringLiteral("params"), double(model.params())},
        {QStringLiteral("activeParams"), double(model.activeParams())},
        {QStringLiteral("seqLen"), model.seqLen},
        {QStringLiteral("modelFlopsPerStep"), e.modelFlopsPerStep},
        {QStringLiteral("stepTimeS"), e.stepSeconds},
        {QStringLiteral("split"), QJsonObject{{QStringLiteral("compute"), e.computeSeconds},
                                              {QStringLiteral("tpComm"), e.tpCommSeconds},
                                              {QStringLiteral("epComm"), e.epCommSeconds},
                                              {QStringLiteral("cpComm"), e.cpCommSeconds},
                                              {QStringLiteral("ppComm"), e.ppCommSeconds},
                                              {QStringLiteral("dpComm"), e.dpCommSeconds},
                                              {QStringLiteral("bubble"), e.bubbleSeconds},
                                              {QStringLiteral("optimizer"), e.optimizerSeconds},
                                              {QStringLiteral("lossSync"), e.lossSyncSeconds}}},
        {QStringLiteral("bubbleFraction"), e.bubbleFraction},
        {QStringLiteral("fits"), e.problems.empty()},
        {QStringLiteral("problems"), problems},
        {QStringLiteral("tokensPerS"), e.tokensPerSecond},
        {QStringLiteral("samplesPerS"), e.samplesPerSecond},
        {QStringLiteral("mfu"), e.mfu},
        {QStringLiteral("ranks"), e.ranks},
        {QStringLiteral("tflopsPerGpu"), e.stepSeconds > 0 && e.ranks > 0
                                             ? e.modelFlopsPerStep / e.stepSeconds / e.ranks / 1e12
                                             : 0.0},
        {QStringLiteral("layout"), layoutJson(model, cluster, layout, options)}};
    if (const planner::DeviceEstimate* d = fullest(e)) {
        o.insert(QStringLiteral("peakMemoryBytes"), d->total());
        o.insert(QStringLiteral("peakMemoryDevice"),
                 QJsonObject{{QStringLiteral("rank"), d->rank},
                             {QStringLiteral("stage"), d->stage},
                             {QStringLiteral("weights"), d->weights},
                             {QStringLiteral("gradients"), d->gradients},
                             {QStringLiteral("optimizerState"), d->optimizerState},
                             {QStringLiteral("activations"), d->activations},
                             {QStringLiteral("workspace"), d->workspace},
                             {QStringLiteral("capacity"), d->capacity}});
    }
    return o;
}

QString planTable(const planner::PlanModel& model, const QString& cluster,
                  const QJsonObject& plan) {
    const QJsonObject l = plan.value(QStringLiteral("layout")).toObject();
    const QJsonObject s = plan.value(QStringLiteral("split")).toObject();
    const QJsonObject d = plan.value(QStringLiteral("peakMemoryDevice")).toObject();
    auto n = [](const QJsonObject& o, const char* k) {
        return o.value(QLatin1String(k)).toDouble();
    };
    QString out;
    out += QStringLiteral("Model     %1: %2 parameters, %3 active per token (embedding "
                          "excluded), %4 tokens per sequence\n")
               .arg(QString::fromStdString(model.name), billions(model.params()),
                    billions(model.activeParams()))
               .arg(model.seqLen);
    out += QStringLiteral("Cluster   %1\n").arg(cluster);
    const QString cp = n(l, "cp") > 1 ? QStringLiteral(" x CP %1").arg(n(l, "cp")) : QString();
    const QString ep = n(l, "ep") > 1 ? QStringLiteral(" (EP %1)").arg(n(l, "ep")) : QString();
    out += QStringLiteral("Layout    DP %1 x TP %2 x PP %3 = %4 ranks; %5 micro-batches of %6, "
                          "global batch %7, %8, ZeRO %9")
               .arg(n(l, "dp"))
               .arg(n(l, "tp"))
               .arg(QString::number(n(l, "pp")) + cp + ep)
               .arg(n(plan, "ranks"))
               .arg(n(l, "microBatches"))
               .arg(n(l, "microBatchSize"))
               .arg(n(l, "globalBatch"))
               .arg(l.value(QStringLiteral("schedule")).toString() +
                    (n(l, "virtualStages") > 1
                         ? QStringLiteral(" x %1 chunks").arg(n(l, "virtualStages"))
                         : QString()))
               .arg(n(l, "zero"));
    out += QStringLiteral(", recompute %1%2, %3%4\n")
               .arg(l.value(QStringLiteral("recompute")).toString(),
                    l.value(QStringLiteral("sequenceParallel")).toBool() ? QStringLiteral(", SP")
                                                                         : QString(),
                    l.value(QStringLiteral("precision")).toString(),
                    l.value(QStringLiteral("flashAttention")).toBool()
                        ? QStringLiteral(", FlashAttention")
                        : QString());
    out += QStringLiteral("Memory    fullest device %1 of %2 (weights %3, gradients %4, "
                          "optimizer %5, activations %6, workspace %7)\n")
               .arg(gb(n(plan, "peakMemoryBytes")), gb(n(d, "capacity")), gb(n(d, "weights")),
                    gb(n(d, "gradients")), gb(n(d, "optimizerState")), gb(n(d, "activations")),
                    gb(n(d, "workspace")));
    out += QStringLiteral("Step      %1 = compute %2 + TP %3 + EP %4 + CP %5 + PP %6 + DP %7 + "
                          "bubble %8 (%9 %) + optimizer %10\n")
               .arg(seconds(n(plan, "stepTimeS")), seconds(n(s, "compute")),
                    seconds(n(s, "tpComm")), seconds(n(s, "epComm")), seconds(n(s, "cpComm")),
                    seconds(n(s, "ppComm")), seconds(n(s, "dpComm")), seconds(n(s, "bubble")),
                    QString::number(100 * n(plan, "bubbleFraction"), 'f', 1))
               .arg(seconds(n(s, "optimizer")));
    out += QStringLiteral("Speed     %1 tokens/s, %2 TFLOP/s per GPU, MFU %3 %\n")
               .arg(QString::number(n(plan, "tokensPerS"), 'f', 0),
                    QString::number(n(plan, "tflopsPerGpu"), 'f', 1),
                    QString::number(100 * n(plan, "mfu"), 'f', 1));
    const QJsonArray problems = plan.value(QStringLiteral("problems")).toArray();
    out +=
        problems.isEmpty() ? QStringLiteral("Fits      yes\n") : QStringLiteral("Fits      no\n");
    for (const QJsonValue p : problems) {
        out += QStringLiteral("          - %1\n").arg(p.toString());
    }
    return out;
}

} // namespace tessera::ctl
