// `tessera-ctl calibrate` (see calibratecommand.h).
#include "backend/ctl/calibratecommand.h"

#include "backend/core/paths.h"
#include "backend/planner/probe_records.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tessera::ctl {

CalibrateCommand::CalibrateCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options) {}

void CalibrateCommand::start() {
    startRound();
}

void CalibrateCommand::interrupt() {
    if (m_run) {
        m_run->interrupt();
    }
}

void CalibrateCommand::startRound() {
    ++m_round;
    if (m_options.rounds > 1) {
        std::fprintf(stdout, "probe round %d of %d\n", m_round, m_options.rounds);
        std::fflush(stdout);
    }
    v1::JobSpec spec;
    spec.set_name("calibration probes");
    spec.mutable_model()->add_command(binPath(QStringLiteral("tessera-train")).toStdString());
    spec.mutable_model()->add_command("--probe");
    spec.mutable_layout()->set_data_parallel(m_options.ranks);
    if (m_run) {
        m_run->disconnect(this);
        m_run.release()->deleteLater(); // we are inside its finished() signal
    }
    m_run = std::make_unique<RunCommand>(m_options, this);
    m_run->setSpec(spec);
    connect(m_run.get(), &RunCommand::metricReceived, this, [this](const MetricPoint& p) {
        if (!p.values.contains(QStringLiteral("probe"))) {
            return;
        }
        if (m_nodes.isEmpty()) {
            m_nodes = m_run->nodes(); // hosts and cores, before the local workers are released
        }
        planner::ProbeRecord r;
        r.rank = p.rank;
        for (auto it = p.values.cbegin(); it != p.values.cend(); ++it) {
            r.values[it.key().toStdString()] = it.value();
        }
        r.values["round"] = m_round; // dropDisturbedRounds tells rounds apart by it
        m_records.push_back(std::move(r));
    });
    connect(m_run.get(), &RunCommand::finished, this, &CalibrateCommand::onRunFinished);
    m_run->start();
}

void CalibrateCommand::fail(const std::string& message) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", message.c_str());
    Q_EMIT finished(kExitJobFailed);
}

void CalibrateCommand::onRunFinished(int exitCode) {
    if (exitCode != kExitOk) {
        Q_EMIT finished(exitCode);
        return;
    }
    // Rank → worker from the placement (slots in rank order), and the device kind.
    const v1::JobSpec launched = m_run->launchedSpec();
    std::vector<std::string> rankNodes;
    for (const auto& slot : launched.placement().slots()) {
        for (int i = 0; i < slot.ranks(); ++i) {
            rankNodes.push_back(slot.worker());
        }
        if (slot.device() == "cuda") {
            fail("calibrate: the probes run on CPU slots only so far; the cluster placed them on "
                 "GPUs (left for the GPU backend's probe)");
            return;
        }
    }
    if (m_round > 1 && rankNodes != m_rankNodes) {
        fail("calibrate: probe round " + std::to_string(m_round) +
             " placed its ranks on other workers than round 1; the rounds' records cannot be "
             "pooled. Calibrate again (with --rounds 1 if the cluster keeps changing)");
        return;
    }
    m_rankNodes = std::move(rankNodes);
    if (m_round < m_options.rounds) {
        startRound();
        return;
    }
    fitAndSave();
}

bool CalibrateCommand::appendStored() {
    const std::string path = probeRecordsPath().toStdString();
    auto stored = planner::loadProbeRecords(path);
    if (!stored) {
        if (stored.error().code == ErrorCode::NotFound) {
            std::fprintf(stdout, "no stored probe records to append to (%s): a new calibration\n",
                         path.c_str());
            return true;
        }
        fail(stored.error().message);
        return false;
    }
    if (stored->rankNodes != m_rankNodes) {
        fail("calibrate --append: the stored calibration's probes ran on other workers (" +
             std::to_string(stored->rankNodes.size()) + " ranks) than these (" +
             std::to_string(m_rankNodes.size()) +
             " ranks); calibrate without --append to start a new one. Nothing was stored");
        return false;
    }
    // This run's rounds follow the stored ones (records from before rounds were kept have
    // none: they count as one round of their own).
    int last = 0;
    for (const planner::ProbeRecord& r : stored->records) {
        last = std::max(last, int(r.get("round"))); // 0 when absent
    }
    for (planner::ProbeRecord& r : m_records) {
        r.values["round"] += last;
    }
    m_appended = stored->records.size();
    m_records.insert(m_records.begin(), stored->records.begin(), stored->records.end());
    return true;
}

void CalibrateCommand::fitAndSave() {
    if (m_options.append && !appendStored()) {
        return;
    }
    const std::vector<std::string>& rankNodes = m_rankNodes;
    const std::string device = "cpu"; // onRunFinished refused GPU placements
    // Every record is stored; the fit leaves out rounds the host's other work slowed down.
    std::vector<planner::ProbeRecord> used = m_records;
    const auto dropped = planner::dropDisturbedRounds(used);
    for (const planner::DisturbedRound& d : dropped) {
        std::fprintf(stdout,
                     "probe round %d left out of the fit: its GEMM ran at %.1f GFLOP/s per rank, "
                     "%.0f %% of the best round's %.1f (the host was busy with other work then; "
                     "calibrate when it is quiet)\n",
                     d.round, d.gemmRate / 1e9, 100 * d.gemmRate / d.bestRate, d.bestRate / 1e9);
    }
    auto fit = planner::fitCalibration(used, rankNodes, device);
    if (!fit) {
        fail(fit.error().message);
        return;
    }
    // Workers on one machine share its cores (the local cluster): record the host, its cores
    // and how many probe ranks ran there, so that the planner can rescale to a layout's load.
    std::map<std::string, int> ranksOnHost;
    for (planner::NodeCalibration& c : *fit) {
        for (const WorkerNode& n : m_nodes) {
            if (n.name.toStdString() == c.node && n.cores > 0 && !n.host.isEmpty()) {
                c.host = n.host.toStdString();
                c.hostCores = n.cores;
            }
        }
    }
    for (const std::string& node : rankNodes) {
        for (const planner::NodeCalibration& c : *fit) {
            if (c.node == node && !c.host.empty()) {
                ++ranksOnHost[c.host];
            }
        }
    }
    for (planner::NodeCalibration& c : *fit) {
        c.probeRanks = c.host.empty() ? 0 : ranksOnHost[c.host];
    }
    const std::string path = calibrationPath().toStdString();
    if (auto saved = planner::saveCalibration(*fit, path); !saved) {
        fail(saved.error().message);
        return;
    }
    // The records after the fit they back: a failure here leaves a fit without records, which
    // the next --append reports, not records without their fit.
    if (auto saved =
            planner::saveProbeRecords({m_rankNodes, m_records}, probeRecordsPath().toStdString());
        !saved) {
        fail(saved.error().message);
        return;
    }
    std::fprintf(stdout,
                 "calibration of %zu node(s) from %zu probe records (%d round(s)%s), kept in %s:\n",
                 fit->size(), used.size(), m_round,
                 m_appended > 0 ? ", with the stored calibration's" : "", path.c_str());
    for (const planner::NodeCalibration& c : *fit) {
        std::fprintf(stdout, "  %s\n", planner::describeCalibration(c, device).c_str());
    }
    std::fflush(stdout);
    Q_EMIT finished(kExitOk);
}

} // namespace tessera::ctl
