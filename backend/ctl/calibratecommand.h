// `tessera-ctl calibrate`: runs `tessera-train --probe` as a job on every rank of the cluster,
// fits the planner's per-node calibration from the probe lines and stores it (calibration.json
// in the data folder), then prints it.
#pragma once

#include "calibration.h"
#include "ctloptions.h"
#include "runcommand.h"

#include <QObject>

#include <vector>

namespace tessera::ctl {

/// One `calibrate`. start() returns at once; finished(exitCode) is emitted exactly once.
class CalibrateCommand : public QObject {
    Q_OBJECT
public:
    explicit CalibrateCommand(const CtlOptions& options, QObject* parent = nullptr);
    void start();
    void interrupt() { m_run.interrupt(); }

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onRunFinished(int exitCode);

    RunCommand m_run;
    std::vector<planner::ProbeRecord> m_records;
    QList<WorkerNode> m_nodes; ///< the workers as they were while the probes ran
};

} // namespace tessera::ctl
