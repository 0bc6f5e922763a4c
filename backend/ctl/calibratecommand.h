// `tessera-ctl calibrate`: runs `tessera-train --probe` as a job on every rank of the cluster
// (--rounds N: N jobs one after the other, their records pooled; --append: pooled with the
// stored calibration's records too), fits the planner's per-node calibration from the probe
// lines and stores it (calibration.json in the data folder, the records beside it), then
// prints it.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/ctl/runcommand.h"
#include "backend/planner/calibration.h"

#include <QObject>

#include <memory>
#include <string>
#include <vector>

namespace tessera::ctl {

/// One `calibrate`. start() returns at once; finished(exitCode) is emitted exactly once.
class CalibrateCommand : public QObject {
    Q_OBJECT
public:
    explicit CalibrateCommand(const CtlOptions& options, QObject* parent = nullptr);
    void start();
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void startRound();
    void onRunFinished(int exitCode);
    void fitAndSave();
    /// --append: the stored records in front of this run's (false: refused, reported).
    bool appendStored();
    void fail(const std::string& message);

    CtlOptions m_options;
    std::unique_ptr<RunCommand> m_run; ///< the current round's probe job
    int m_round = 0;
    std::vector<std::string> m_rankNodes; ///< rank → worker, the same in every round
    std::vector<planner::ProbeRecord> m_records;
    std::size_t m_appended = 0; ///< records taken from the stored calibration
    QList<WorkerNode> m_nodes;  ///< the workers as they were while the probes ran
};

} // namespace tessera::ctl
