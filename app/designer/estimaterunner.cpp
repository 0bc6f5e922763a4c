// Latest-wins estimate runner (see estimaterunner.h).
#include "app/designer/estimaterunner.h"
#include "worker/common/tsan_handoff.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace tessera::designer {

EstimateRunner::EstimateRunner(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<EstimateOutput>::finished, this,
            &EstimateRunner::onFinished);
}

EstimateRunner::~EstimateRunner() {
    m_pending.reset();
    m_watcher.waitForFinished(); // estimate() is pure computation: bounded
}

EstimateOutput EstimateRunner::run(const EstimateInput& input, bool preview) {
    QElapsedTimer timer;
    timer.start();
    EstimateOutput out;
    out.estimate = planner::estimate(input.model, input.cluster, input.layout, input.options,
                                     input.calibration);
    out.seconds = timer.nsecsElapsed() / 1e9;
    out.preview = preview;
    return out;
}

void EstimateRunner::request(EstimateInput input, bool preview) {
    if (m_watcher.isRunning()) { // the newest request waits; older waiting ones are dropped
        m_pending.emplace(std::move(input), preview);
        return;
    }
    if (m_lastSeconds < m_threshold && m_threshold > 0) {
        m_output = run(input, preview);
        m_lastSeconds = m_output.seconds;
        Q_EMIT ready();
        return;
    }
    m_watcher.setFuture(QtConcurrent::run(
        tsanHandOff([input = std::move(input), preview] { return run(input, preview); })));
}

void EstimateRunner::onFinished() {
    EstimateOutput out = m_watcher.result();
    m_lastSeconds = out.seconds;
    if (m_pending) { // a newer request arrived meanwhile: this result is stale
        auto [input, preview] = std::move(*m_pending);
        m_pending.reset();
        request(std::move(input), preview);
        return;
    }
    m_output = std::move(out);
    Q_EMIT ready();
}

} // namespace tessera::designer
