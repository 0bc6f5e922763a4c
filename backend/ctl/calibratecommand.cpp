// `tessera-ctl calibrate` (see calibratecommand.h).
#include "calibratecommand.h"

#include "paths.h"

#include <cstdio>
#include <map>

namespace tessera::ctl {

CalibrateCommand::CalibrateCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_run(options, this) {
    v1::JobSpec spec;
    spec.set_name("calibration probes");
    spec.mutable_model()->add_command(binPath(QStringLiteral("tessera-train")).toStdString());
    spec.mutable_model()->add_command("--probe");
    spec.mutable_layout()->set_data_parallel(options.ranks);
    m_run.setSpec(spec);
    connect(&m_run, &RunCommand::metricReceived, this, [this](const MetricPoint& p) {
        if (!p.values.contains(QStringLiteral("probe"))) {
            return;
        }
        if (m_nodes.isEmpty()) {
            m_nodes = m_run.nodes(); // hosts and cores, before the local workers are released
        }
        planner::ProbeRecord r;
        r.rank = p.rank;
        for (auto it = p.values.cbegin(); it != p.values.cend(); ++it) {
            r.values[it.key().toStdString()] = it.value();
        }
        m_records.push_back(std::move(r));
    });
    connect(&m_run, &RunCommand::finished, this, &CalibrateCommand::onRunFinished);
}

void CalibrateCommand::start() {
    m_run.start();
}

void CalibrateCommand::onRunFinished(int exitCode) {
    if (exitCode != kExitOk) {
        Q_EMIT finished(exitCode);
        return;
    }
    // Rank → worker from the placement (slots in rank order), and the device kind.
    const v1::JobSpec launched = m_run.launchedSpec();
    std::vector<std::string> rankNodes;
    std::string device = "cpu";
    for (const auto& slot : launched.placement().slots()) {
        for (int i = 0; i < slot.ranks(); ++i) {
            rankNodes.push_back(slot.worker());
        }
        if (slot.device() == "cuda") {
            device = "cuda";
        }
    }
    auto error = [this](const std::string& message) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", message.c_str());
        Q_EMIT finished(kExitJobFailed);
    };
    if (device != "cpu") {
        error("calibrate: the probes run on CPU slots only so far; the cluster placed them on "
              "GPUs (left for the GPU backend's probe)");
        return;
    }
    auto fit = planner::fitCalibration(m_records, rankNodes, device);
    if (!fit) {
        error(fit.error().message);
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
        error(saved.error().message);
        return;
    }
    std::fprintf(stdout, "calibration of %zu node(s) from %zu probe records, kept in %s:\n",
                 fit->size(), m_records.size(), path.c_str());
    for (const planner::NodeCalibration& c : *fit) {
        std::fprintf(stdout, "  %s\n", planner::describeCalibration(c, device).c_str());
    }
    std::fflush(stdout);
    Q_EMIT finished(kExitOk);
}

} // namespace tessera::ctl
