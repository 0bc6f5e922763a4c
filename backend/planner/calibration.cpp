// Fitting the planner's per-node calibration from probe lines, and its JSON file (see
// calibration.h).
#include "backend/planner/calibration.h"
#include "worker/common/record_prefix.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace tessera::planner {

namespace {

const char* const kFamilies[] = {"", "mlp", "vit", "gpt"}; // probe "family" 1..3

/// Mean of the values of `key` over records; 0 when none has it.
double mean(const std::vector<const ProbeRecord*>& recs, const std::string& key) {
    double sum = 0;
    int n = 0;
    for (const ProbeRecord* r : recs) {
        if (r->values.count(key)) {
            sum += r->values.at(key);
            ++n;
        }
    }
    return n > 0 ? sum / n : 0.0;
}

QJsonObject mapToJson(const std::map<std::string, double>& m) {
    QJsonObject o;
    for (const auto& [k, v] : m) {
        o.insert(QString::fromStdString(k), v);
    }
    return o;
}

std::map<std::string, double> mapFromJson(const QJsonObject& o) {
    std::map<std::string, double> m;
    for (auto it = o.begin(); it != o.end(); ++it) {
        m[it.key().toStdString()] = it.value().toDouble();
    }
    return m;
}

/// Probe 5's measured all-reduces: the mean seconds per (group size, bytes).
std::vector<AllReduceCost> measuredAllReduces(const std::vector<const ProbeRecord*>& recs) {
    std::map<std::tuple<int, double, bool>, std::pair<double, int>> sums;
    for (const ProbeRecord* r : recs) {
        const double group = r->get("group");
        const double bytes = r->get("bytes");
        // A group is a whole number of ranks, 2..2^31-1 (the int it becomes).
        if (group > 1 && group <= 2147483647.0 && group == std::floor(group) && bytes > 0) {
            const int ranks = int(group);
            auto& [sum, n] = sums[{ranks, bytes, r->get("nonblocking") != 0}];
            sum += r->get("allreduce_s");
            ++n;
        }
    }
    std::vector<AllReduceCost> out;
    for (const auto& [key, v] : sums) {
        out.push_back({std::get<0>(key), std::get<1>(key), v.first / v.second, std::get<2>(key)});
    }
    return out;
}

QJsonArray allReducesToJson(const std::vector<AllReduceCost>& costs) {
    QJsonArray a;
    for (const AllReduceCost& c : costs) {
        a.append(QJsonObject{{QStringLiteral("ranks"), c.ranks},
                             {QStringLiteral("bytes"), c.bytes},
                             {QStringLiteral("seconds"), c.seconds},
                             {QStringLiteral("nonBlocking"), c.nonBlocking}});
    }
    return a;
}

std::vector<AllReduceCost> allReducesFromJson(const QJsonArray& a) {
    std::vector<AllReduceCost> out;
    for (const QJsonValue& v : a) {
        const QJsonObject o = v.toObject();
        AllReduceCost c{o.value(QStringLiteral("ranks")).toInt(),
                        o.value(QStringLiteral("bytes")).toDouble(),
                        o.value(QStringLiteral("seconds")).toDouble(),
                        o.value(QStringLiteral("nonBlocking")).toBool()};
        if (c.ranks > 1 && c.bytes > 0 && c.seconds >= 0) {
            out.push_back(c);
        }
    }
    return out;
}

/// Seconds per pass t(B) = fixed + B · perSample through a compute probe's `b<B>_s` values.
struct Line {
    double perSample = 0, fixed = 0;
    int points = 0;
};

/// Least squares of the relative error, weights 1/t², over every `b<B>_s` of the records
/// (B = 1, 4, 8, 16, 32 from current probes; 8, 16, 32 or 8 and 32 from older ones): the pass
/// times span 30×, and plain least squares let the largest passes (slower per sample: caches)
/// push the fixed cost below 0 (ViT probe: −21 % at B = 1; weighted: within ±6 % at every B).
/// A non-positive slope (noise) makes all of the largest pass per-sample time; a negative
/// intercept is clamped to 0.
Line fitPassTimes(const std::vector<const ProbeRecord*>& recs) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, maxB = 0, tMax = 0;
    int points = 0;
    for (const ProbeRecord* r : recs) {
        for (const auto& [key, t] : r->values) {
            if (key.size() < 4 || key[0] != 'b' || key.compare(key.size() - 2, 2, "_s") != 0 ||
                t <= 0) {
                continue;
            }
            const double B = std::atof(key.c_str() + 1);
            if (B <= 0) {
                continue;
            }
            const double w = 1.0 / (t * t);
            n += w, sx += w * B, sy += w * t, sxx += w * B * B, sxy += w * B * t;
            ++points;
            if (B >= maxB) {
                maxB = B, tMax = t;
            }
        }
    }
    Line l;
    const double det = n * sxx - sx * sx;
    if (points < 2 || det <= 0) {
        return l;
    }
    l.points = points;
    l.perSample = (n * sxy - sx * sy) / det;
    l.fixed = (sy - l.perSample * sx) / n;
    if (l.perSample <= 0) {
        l.perSample = tMax / maxB, l.fixed = 0;
    }
    l.fixed = std::max(0.0, l.fixed);
    return l;
}

} // namespace

double ProbeRecord::get(const std::string& key) const {
    const auto it = values.find(key);
    return it == values.end() ? 0.0 : it->second;
}

Result<ProbeRecord> parseProbeLine(const std::string& line) {
    const std::string prefix(kRecordPrefix);
    const auto bad = [&] {
        return fail(ErrorCode::InvalidArgument,
                    "not a probe record of tessera-train --probe: '" + line.substr(0, 80) + "'");
    };
    if (line.rfind(prefix, 0) != 0) {
        return bad();
    }
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(line.substr(prefix.size())));
    if (!doc.isObject() || !doc.object().contains(QStringLiteral("probe"))) {
        return bad();
    }
    ProbeRecord r;
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().isDouble()) {
            r.values[it.key().toStdString()] = it.value().toDouble();
        }
    }
    // A rank is a whole number in 0..2^31-1 (as the @tessera contract says); anything else is
    // no probe of ours (and would not fit in an int).
    const double rank = r.get("rank");
    if (!(rank >= 0 && rank <= 2147483647.0) || rank != std::floor(rank)) {
        return bad();
    }
    r.rank = int(rank);
    return r;
}

Result<std::vector<NodeCalibration>> fitCalibration(const std::vector<ProbeRecord>& records,
                                                    const std::vector<std::string>& rankNodes,
                                                    const std::string& deviceId) {
    const DeviceType* device = findDevice(deviceId);
    if (!device) {
        return fail(ErrorCode::InvalidArgument,
                    "calibration: device '" + deviceId + "' is not in the planner's catalog");
    }
    const double peak = device->peakFp32;
    std::vector<std::string> nodes;
    for (const std::string& n : rankNodes) {
        if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) {
            nodes.push_back(n);
        }
    }
    for (const ProbeRecord& r : records) {
        if (r.rank < 0 || r.rank >= int(rankNodes.size())) {
            return fail(ErrorCode::InvalidArgument,
                        "calibration: a probe record comes from rank " + std::to_string(r.rank) +
                            " but the probe job had " + std::to_string(rankNodes.size()) +
                            " ranks");
        }
    }
    std::vector<NodeCalibration> out;
    for (const std::string& node : nodes) {
        // This node's records by probe kind (and family for the compute probe).
        const auto pick = [&](int probe, int family) {
            std::vector<const ProbeRecord*> v;
            for (const ProbeRecord& r : records) {
                if (rankNodes[std::size_t(r.rank)] == node && r.get("probe") == probe &&
                    (family == 0 || r.get("family") == family)) {
                    v.push_back(&r);
                }
            }
            return v;
        };
        NodeCalibration c;
        c.node = node;
        for (int f = 1; f <= 3; ++f) {
            const auto recs = pick(1, f);
            const double flops = mean(recs, "flops_per_sample"), layers = mean(recs, "layers");
            const Line fit = fitPassTimes(recs);
            if (recs.empty() || fit.points < 2 || flops <= 0) {
                continue;
            }
            // The pass's FLOPs as the cost model counts them (layer_cost.cpp: no input gradient
            // for the first layer); records from before the probe printed them: 3 × forward.
            const double train = mean(recs, "train_flops_per_sample");
            c.familyEfficiency[kFamilies[f]] =
                (train > 0 ? train : 3.0 * flops) / (fit.perSample * peak);
            c.familyLayerOverhead[kFamilies[f]] = layers > 0 ? fit.fixed / layers : 0.0;
        }
        if (c.familyEfficiency.empty()) {
            return fail(ErrorCode::InvalidArgument,
                        "calibration: node '" + node +
                            "' sent no compute probe; check that its tessera-train has --probe "
                            "and rerun tessera-ctl calibrate");
        }
        c.computeEfficiency = mean(pick(2, 0), "gemm_flops_per_s") / peak;
        c.memoryBw = mean(pick(3, 0), "adamw_bytes_per_s");
        const auto comm = pick(4, 0);
        const double n = mean(comm, "ranks");
        if (!comm.empty() && n > 1) {
            // Prefer the all-reduces measured between compute (what training sees); the ones
            // between barriers only when a probe lacks them.
            // Ring all-reduce t(B) = 2(n−1)·α + 2(n−1)/n · B / busbw through the two sizes.
            const bool loaded = mean(comm, "loaded_bytes") > 0;
            const std::string pre = loaded ? "loaded_" : "";
            const double steps = 2.0 * (n - 1);
            const double b0 = loaded ? mean(comm, "loaded_small_bytes") : 4.0;
            const double b1 = mean(comm, loaded ? "loaded_bytes" : "large_bytes");
            const double t0 = mean(comm, pre + "allreduce_small_s");
            const double t1 = mean(comm, pre + "allreduce_large_s");
            if (t1 > t0 && b1 > b0) {
                const double perByte = (t1 - t0) / (b1 - b0);
                c.intraNodeBw = c.interNodeBw = steps / n / perByte;
                c.latency = std::max(0.0, t0 - b0 * perByte) / steps;
            } else {
                c.latency = t0 / steps;
            }
        }
        c.allReduceCosts = measuredAllReduces(pick(5, 0));
        if (const auto w = pick(6, 0); !w.empty()) {
            c.waitShare = mean(w, "wait_share");
        }
        out.push_back(std::move(c));
    }
    return out;
}

std::string calibrationToJson(const std::vector<NodeCalibration>& nodes) {
    QJsonArray arr;
    for (const NodeCalibration& c : nodes) {
        QJsonObject o;
        o.insert(QStringLiteral("node"), QString::fromStdString(c.node));
        o.insert(QStringLiteral("computeEfficiency"), c.computeEfficiency);
        o.insert(QStringLiteral("intraNodeBw"), c.intraNodeBw);
        o.insert(QStringLiteral("interNodeBw"), c.interNodeBw);
        o.insert(QStringLiteral("latency"), c.latency);
        o.insert(QStringLiteral("memoryBw"), c.memoryBw);
        o.insert(QStringLiteral("familyEfficiency"), mapToJson(c.familyEfficiency));
        o.insert(QStringLiteral("familyLayerOverhead"), mapToJson(c.familyLayerOverhead));
        o.insert(QStringLiteral("host"), QString::fromStdString(c.host));
        o.insert(QStringLiteral("hostCores"), c.hostCores);
        o.insert(QStringLiteral("probeRanks"), c.probeRanks);
        o.insert(QStringLiteral("allReduceCosts"), allReducesToJson(c.allReduceCosts));
        o.insert(QStringLiteral("waitShare"), c.waitShare);
        arr.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("nodes"), arr);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

Result<std::vector<NodeCalibration>> calibrationFromJson(const std::string& json) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
    if (!doc.isObject() || !doc.object().value(QStringLiteral("nodes")).isArray()) {
        return fail(ErrorCode::InvalidArgument,
                    "calibration JSON is not an object with a \"nodes\" array" +
                        (err.error != QJsonParseError::NoError
                             ? ": " + err.errorString().toStdString()
                             : std::string()) +
                        "; rerun tessera-ctl calibrate to rewrite it");
    }
    std::vector<NodeCalibration> out;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject o = v.toObject();
        NodeCalibration c;
        c.node = o.value(QStringLiteral("node")).toString().toStdString();
        if (c.node.empty()) {
            return fail(ErrorCode::InvalidArgument,
                        "calibration JSON: a node entry has no \"node\" name; rerun "
                        "tessera-ctl calibrate to rewrite it");
        }
        c.computeEfficiency = o.value(QStringLiteral("computeEfficiency")).toDouble();
        c.intraNodeBw = o.value(QStringLiteral("intraNodeBw")).toDouble();
        c.interNodeBw = o.value(QStringLiteral("interNodeBw")).toDouble();
        c.latency = o.value(QStringLiteral("latency")).toDouble();
        c.memoryBw = o.value(QStringLiteral("memoryBw")).toDouble();
        c.familyEfficiency = mapFromJson(o.value(QStringLiteral("familyEfficiency")).toObject());
        c.familyLayerOverhead =
            mapFromJson(o.value(QStringLiteral("familyLayerOverhead")).toObject());
        c.host = o.value(QStringLiteral("host")).toString().toStdString();
        c.hostCores = o.value(QStringLiteral("hostCores")).toInt();
        c.probeRanks = o.value(QStringLiteral("probeRanks")).toInt();
        c.allReduceCosts = allReducesFromJson(o.value(QStringLiteral("allReduceCosts")).toArray());
        c.waitShare = o.value(QStringLiteral("waitShare")).toDouble(-1);
        out.push_back(std::move(c));
    }
    return out;
}

Result<void> saveCalibration(const std::vector<NodeCalibration>& nodes, const std::string& path) {
    QSaveFile f(QString::fromStdString(path));
    const QByteArray bytes = QByteArray::fromStdString(calibrationToJson(nodes));
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        return fail(ErrorCode::Io, "cannot write the calibration file '" + path +
                                       "': " + f.errorString().toStdString());
    }
    return {};
}

Result<std::vector<NodeCalibration>> loadCalibration(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.exists()) {
        return fail(ErrorCode::NotFound, "no calibration file '" + path +
                                             "': run `tessera-ctl calibrate` on the cluster first");
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, "cannot read the calibration file '" + path +
                                       "': " + f.errorString().toStdString());
    }
    auto r = calibrationFromJson(f.readAll().toStdString());
    if (!r) {
        return relay(r, path + ": ");
    }
    return r;
}

std::string describeCalibration(const NodeCalibration& c, const std::string& deviceId) {
    const DeviceType* d = findDevice(deviceId);
    char buf[512];
    std::string fam;
    for (const auto& [f, e] : c.familyEfficiency) {
        std::snprintf(buf, sizeof buf, "%s%s %.0f %%", fam.empty() ? "" : ", ", f.c_str(), 100 * e);
        fam += buf;
        const auto it = c.familyLayerOverhead.find(f);
        if (it != c.familyLayerOverhead.end() && it->second > 0) {
            std::snprintf(buf, sizeof buf, " (+%.0f us/layer)", 1e6 * it->second);
            fam += buf;
        }
    }
    std::snprintf(buf, sizeof buf,
                  "%s: %s of %.0f GFLOP/s; GEMM %.0f %%; all-reduce bus bandwidth %.2f GB/s, "
                  "latency %.1f us; optimizer %.1f GB/s",
                  c.node.c_str(), fam.c_str(), d ? d->peakFp32 / 1e9 : 0.0,
                  100 * c.computeEfficiency, c.interNodeBw / 1e9, 1e6 * c.latency,
                  c.memoryBw / 1e9);
    std::string out = buf;
    std::vector<int> groups;
    for (const AllReduceCost& a : c.allReduceCosts) {
        if (std::find(groups.begin(), groups.end(), a.ranks) == groups.end()) {
            groups.push_back(a.ranks);
        }
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
        out += (i == 0 ? "; all-reduce cost measured for groups of " : ", ") +
               std::to_string(groups[i]);
    }
    if (c.hostCores > 0) {
        std::snprintf(buf, sizeof buf, "; %d probe ranks shared the %d cores of %s", c.probeRanks,
                      c.hostCores, c.host.c_str());
        out += buf;
    }
    return out;
}

} // namespace tessera::planner
