// Runs planner::estimate() for the designer, latest-wins: inline while it is fast (it normally
// takes microseconds to milliseconds), on a worker thread (QtConcurrent) once a run took longer
// than the threshold, so the GUI thread stays free for large models and clusters.
#pragma once

#include "backend/planner/planner.h"

#include <QFutureWatcher>
#include <QObject>

#include <optional>

namespace tessera::designer {

/// What one estimate needs (copied, so a worker thread can own it).
struct EstimateInput {
    planner::PlanModel model;
    planner::PlanCluster cluster;
    v1::Layout layout;
    planner::PlanOptions options;
    std::vector<planner::NodeCalibration> calibration; ///< stored fit of live nodes (may be empty)
};

/// The estimate of an EstimateInput plus how long it took.
struct EstimateOutput {
    Result<planner::Estimate> estimate = planner::Estimate{};
    double seconds = 0;
    bool preview = false;
};

/// Estimates on request; ready() follows every request whose result is still the newest (an
/// older request still running when a newer arrives is dropped).
class EstimateRunner : public QObject {
    Q_OBJECT
public:
    explicit EstimateRunner(QObject* parent = nullptr);
    ~EstimateRunner() override;

    /// Estimates `input`; `preview` marks a drag-hover "what if dropped here" request.
    void request(EstimateInput input, bool preview);
    /// The newest result (valid after the first ready()).
    const EstimateOutput& output() const { return m_output; }
    /// Runs longer than this (seconds) move later requests to a worker thread; 0 = always.
    void setAsyncThreshold(double seconds) { m_threshold = seconds; }
    /// True while a request runs on the worker thread.
    bool busy() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    /// A new output() is there.
    void ready();

private:
    static EstimateOutput run(const EstimateInput& input, bool preview);
    void onFinished();

    QFutureWatcher<EstimateOutput> m_watcher;
    std::optional<std::pair<EstimateInput, bool>> m_pending;
    EstimateOutput m_output;
    double m_threshold = 0.02;
    double m_lastSeconds = 0;
};

} // namespace tessera::designer
