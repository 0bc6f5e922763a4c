// Reading `tessera-ctl plan`'s options (see planrequest.h).
#include "backend/ctl/planrequest.h"

#include "backend/ctl/ctlcli.h"

#include <QStringList>

#include <vector>

namespace tessera::ctl {

namespace {

Failure bad(const QString& what) {
    return fail(ErrorCode::InvalidArgument, what.toStdString());
}

/// Options that describe one layout: not with --auto (it chooses them) or --layout (the file
/// holds them).
const std::vector<const char*> kLayoutOptions = {"dp", "tp", "pp",          "vpp",
                                                 "cp", "ep", "micro-batch", "schedule"};

/// `values[name]` as a whole number in lo..hi into `out` (unchanged when not given).
Result<void> number(const std::map<std::string, std::string>& values, const char* name, int lo,
                    int hi, int& out) {
    const auto it = values.find(name);
    if (it == values.end()) {
        return {};
    }
    bool ok = false;
    const int v = QString::fromStdString(it->second).trimmed().toInt(&ok);
    if (!ok || v < lo || v > hi) {
        return bad(QStringLiteral("--%1 needs a whole number from %2 to %3, not '%4'")
                       .arg(QLatin1String(name))
                       .arg(lo)
                       .arg(hi)
                       .arg(QString::fromStdString(it->second)));
    }
    out = v;
    return {};
}

/// `values[name]` as one of `allowed` into `out` (unchanged when not given).
Result<void> word(const std::map<std::string, std::string>& values, const char* name,
                  const QStringList& allowed, QString& out) {
    const auto it = values.find(name);
    if (it == values.end()) {
        return {};
    }
    const QString v = QString::fromStdString(it->second).trimmed().toLower();
    if (!allowed.contains(v)) {
        return bad(QStringLiteral("--%1: '%2' is not one of %3")
                       .arg(QLatin1String(name), QString::fromStdString(it->second),
                            allowed.join(QLatin1String(", "))));
    }
    out = v;
    return {};
}

Result<void> readNumbers(const std::map<std::string, std::string>& v, PlanRequest& r) {
    constexpr int kMaxDegree = 1 << 20, kMaxBatch = 1 << 24;
    for (Result<void> step :
         {number(v, "dp", 1, kMaxDegree, r.dp), number(v, "tp", 1, kMaxDegree, r.tp),
          number(v, "pp", 1, kMaxDegree, r.pp), number(v, "vpp", 1, 64, r.vpp),
          number(v, "cp", 1, kMaxDegree, r.cp), number(v, "ep", 1, kMaxDegree, r.ep),
          number(v, "micro-batch", 1, kMaxBatch, r.microBatchSize),
          number(v, "global-batch", 1, kMaxBatch, r.globalBatch),
          number(v, "seq-len", 1, 1 << 24, r.seqLen), number(v, "zero", 0, 3, r.zero),
          number(v, "top", 1, 1000, r.top)}) {
        if (!step) {
            return step;
        }
    }
    return {};
}

Result<void> readWords(const std::map<std::string, std::string>& v, PlanRequest& r) {
    for (Result<void> step :
         {word(v, "recompute", {"none", "selective", "full"}, r.recompute),
          word(v, "precision", {"fp32", "tf32", "bf16", "fp8"}, r.precision),
          word(v, "schedule", {"1f1b", "gpipe", "interleaved", "zb-h1"}, r.schedule),
          word(v, "flash-attention", {"auto", "on", "off"}, r.flashAttention)}) {
        if (!step) {
            return step;
        }
    }
    return {};
}

} // namespace

const std::vector<const char*>& planOptionNames() {
    static const std::vector<const char*> none;
    const Subcommand* plan = findSubcommand("plan"); // its row in the table lists them
    return plan ? plan->options : none;
}

Result<PlanRequest> readPlanRequest(const std::map<std::string, std::string>& values,
                                    const std::set<std::string>& flags) {
    PlanRequest r;
    for (const auto& [name, value] : values) {
        r.given.insert(name);
    }
    r.given.insert(flags.begin(), flags.end());
    auto text = [&](const char* name) {
        const auto it = values.find(name);
        return it == values.end() ? QString() : QString::fromStdString(it->second).trimmed();
    };
    r.model = text("model");
    r.layoutFile = text("layout");
    if (values.count("cluster")) {
        r.cluster = text("cluster");
    }
    r.sequenceParallel = flags.count("sp") > 0;
    r.tpCommOverlap = flags.count("tp-overlap") > 0;
    r.autoPlan = flags.count("auto") > 0;
    r.json = flags.count("json") > 0;
    if (Result<void> n = readNumbers(values, r); !n) {
        return relay(n);
    }
    if (Result<void> w = readWords(values, r); !w) {
        return relay(w);
    }
    if (r.vpp > 1 && !r.given.count("schedule")) {
        r.schedule = QStringLiteral("interleaved");
    } else if (r.vpp > 1 && r.schedule != QLatin1String("interleaved")) {
        return bad(QStringLiteral("--vpp %1 needs --schedule interleaved, not '%2'")
                       .arg(r.vpp)
                       .arg(r.schedule));
    }
    if (r.model.isEmpty() && r.layoutFile.isEmpty()) {
        return bad(QStringLiteral("plan needs --model (a config.json or a model's name, e.g. "
                                  "--model llama-2-70b) or --layout (a designer layout file)"));
    }
    if (!r.layoutFile.isEmpty() && !r.model.isEmpty()) {
        return bad(QStringLiteral("--layout brings its own model: give --model or --layout, not "
                                  "both"));
    }
    if (r.given.count("top") && !r.autoPlan) {
        return bad(QStringLiteral("--top is how many layouts --auto prints: give --auto too"));
    }
    for (const char* o : kLayoutOptions) {
        if (r.given.count(o) && (r.autoPlan || !r.layoutFile.isEmpty())) {
            return bad(QStringLiteral("--%1 sets a layout, which %2: leave --%1 out")
                           .arg(QLatin1String(o), r.autoPlan ? QStringLiteral("--auto chooses")
                                                             : QStringLiteral("--layout holds")));
        }
    }
    return r;
}

} // namespace tessera::ctl
