// Probe records on disk (see probe_records.h).
#include "backend/planner/probe_records.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <map>

namespace tessera::planner {

namespace {

Error malformed(const std::string& path, const std::string& what) {
    return Error{ErrorCode::InvalidArgument,
                 "probe records '" + path + "': " + what +
                     "; calibrate again without --append to rewrite them"};
}

} // namespace

Result<void> saveProbeRecords(const ProbeRecordSet& set, const std::string& path) {
    QJsonArray nodes, records;
    for (const std::string& n : set.rankNodes) {
        nodes.append(QString::fromStdString(n));
    }
    for (const ProbeRecord& r : set.records) {
        QJsonObject values;
        for (const auto& [k, v] : r.values) {
            values.insert(QString::fromStdString(k), v);
        }
        records.append(
            QJsonObject{{QStringLiteral("rank"), r.rank}, {QStringLiteral("values"), values}});
    }
    const QJsonObject root{{QStringLiteral("rankNodes"), nodes},
                           {QStringLiteral("records"), records}};
    QSaveFile f(QString::fromStdString(path));
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Compact);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        return fail(ErrorCode::Io, "cannot write the probe records '" + path +
                                       "': " + f.errorString().toStdString());
    }
    return {};
}

Result<ProbeRecordSet> loadProbeRecords(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.exists()) {
        return fail(ErrorCode::NotFound,
                    "no probe records '" + path + "': calibrate without --append first");
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, "cannot read the probe records '" + path +
                                       "': " + f.errorString().toStdString());
    }
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    const QJsonObject root = doc.object();
    if (!doc.isObject() || !root.value(QStringLiteral("rankNodes")).isArray() ||
        !root.value(QStringLiteral("records")).isArray()) {
        return fail(malformed(path, "not an object with \"rankNodes\" and \"records\"" +
                                        (err.error != QJsonParseError::NoError
                                             ? " (" + err.errorString().toStdString() + ")"
                                             : std::string())));
    }
    ProbeRecordSet set;
    for (const QJsonValue& v : root.value(QStringLiteral("rankNodes")).toArray()) {
        set.rankNodes.push_back(v.toString().toStdString());
    }
    for (const QJsonValue& v : root.value(QStringLiteral("records")).toArray()) {
        const QJsonObject o = v.toObject();
        ProbeRecord r;
        r.rank = o.value(QStringLiteral("rank")).toInt(-1);
        if (r.rank < 0 || r.rank >= int(set.rankNodes.size())) {
            return fail(malformed(path, "a record's rank " + std::to_string(r.rank) +
                                            " is not one of the " +
                                            std::to_string(set.rankNodes.size()) + " ranks"));
        }
        const QJsonObject values = o.value(QStringLiteral("values")).toObject();
        for (auto it = values.begin(); it != values.end(); ++it) {
            r.values[it.key().toStdString()] = it.value().toDouble();
        }
        set.records.push_back(std::move(r));
    }
    return set;
}

std::vector<DisturbedRound> dropDisturbedRounds(std::vector<ProbeRecord>& records, double keep) {
    const auto roundOf = [](const ProbeRecord& r) {
        const auto it = r.values.find("round");
        return it == r.values.end() ? -1 : int(it->second);
    };
    std::map<int, std::pair<double, int>> gemm; // round → (sum of rates, records)
    for (const ProbeRecord& r : records) {
        if (int(r.get("probe")) == 2 && r.get("gemm_flops_per_s") > 0) {
            auto& [sum, n] = gemm[roundOf(r)];
            sum += r.get("gemm_flops_per_s");
            ++n;
        }
    }
    std::vector<DisturbedRound> out;
    if (gemm.size() < 2) {
        return out;
    }
    double best = 0;
    for (const auto& [round, acc] : gemm) {
        best = std::max(best, acc.first / acc.second);
    }
    for (const auto& [round, acc] : gemm) {
        const double rate = acc.first / acc.second;
        if (rate < keep * best) {
            out.push_back({round, rate, best});
        }
    }
    std::erase_if(records, [&](const ProbeRecord& r) {
        return std::any_of(out.begin(), out.end(),
                           [&](const DisturbedRound& d) { return d.round == roundOf(r); });
    });
    return out;
}

} // namespace tessera::planner
