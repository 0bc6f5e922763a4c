// Autopilot: start-up flags carried out through the window's own actions.
#include "app/autopilot.h"

#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/logpane.h"
#include "app/monitor/metricschart.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/service/backendsession.h"
#include "worker/common/spec_io.h"

#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>

#include <cstdio>

namespace tessera {

Q_LOGGING_CATEGORY(lcAutopilot, "tessera.app.autopilot")

Autopilot::Autopilot(BackendSession* session, MainWindow* window, StartupOptions options,
                     QObject* parent)
    : QObject(parent), m_session(session), m_window(window), m_options(std::move(options)),
      m_timeout(new QTimer(this)) {
    m_timeout->setSingleShot(true);
    connect(m_timeout, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        const QString gaveUp = tr("gave up after %1 s (--timeout)").arg(m_options.timeoutSeconds);
        finish(1, m_shortageShown.isEmpty() ? gaveUp
                                            : gaveUp + QStringLiteral(": ") + m_shortageShown);
    });
}

void Autopilot::start() {
    if (m_options.timeoutSeconds > 0) {
        m_timeout->start(m_options.timeoutSeconds * 1000);
    }
    JobPanel* jobs = m_window->jobPanel();
    ClusterPanel* cluster = m_window->clusterPanel();

    if (!m_options.spec.isEmpty() && !jobs->addSpecFile(m_options.spec)) {
        return finish(1, jobs->messageText());
    }

    if (m_options.launch) {
        ClusterTableModel* model = cluster->model();
        connect(model, &QAbstractItemModel::dataChanged, this, &Autopilot::tryLaunch);
        connect(model, &QAbstractItemModel::rowsInserted, this, &Autopilot::tryLaunch);
        connect(jobs, &JobPanel::launchFailed, this,
                [this](const QString& error) { finish(1, error); });
        // The job's states as the server's feed says them (the panel's current job).
        connect(jobs, &JobPanel::currentJobStateChanged, this, [this, jobs](JobState state) {
            if (isTerminal(state) && !m_capturing && m_options.unattended()) {
                finish(1, tr("job %1 ended (%2) before %3 loss points arrived: %4")
                              .arg(jobs->currentJobId(), jobStateText(state))
                              .arg(m_options.quitAfterPoints)
                              .arg(jobs->messageText()));
            }
        });
        connect(m_window->chart(), &MetricsChart::lossPointAdded, this, &Autopilot::onLossPoints);
    }
    if (m_options.rentLocal > 0) {
        connect(m_session->localWorkers(), &LocalWorkers::startFailed, this,
                [this](const QString& error) { finish(1, tr("rent failed: %1").arg(error)); });
        cluster->setWorkerCount(m_options.rentLocal);
        cluster->setSlotsPerWorker(m_options.slotsPerWorker);
        cluster->rent();
    }
    if (m_options.launch) {
        tryLaunch();
    }
}

void Autopilot::tryLaunch() {
    if (m_launched || m_finished) {
        return;
    }
    const auto& spec = m_window->jobPanel()->currentSpec();
    if (!spec) {
        return finish(
            1,
            tr("--launch: no valid spec selected (%1)").arg(m_window->jobPanel()->messageText()));
    }
    const int needed = worldSize(spec->layout());
    const int ready = m_window->clusterPanel()->model()->readySlots();
    if (ready < needed || ready == 0) {
        // Wait for more nodes to become Ready; once none is still connecting, more can only come
        // from renting more: say so instead of waiting silently.
        const QList<WorkerNode> nodes = m_session->registry()->nodes();
        const bool connecting = std::any_of(nodes.begin(), nodes.end(), [](const WorkerNode& n) {
            return n.state == NodeState::Connecting;
        });
        if (!nodes.isEmpty() && !connecting) {
            const QString notice =
                (ready == 1 ? tr("The job needs %1 ranks but the cluster has 1 slot: rent more "
                                 "workers.")
                                  .arg(needed)
                            : tr("The job needs %1 ranks but the cluster has %2 slots: rent more "
                                 "workers.")
                                  .arg(needed)
                                  .arg(ready));
            if (notice != m_shortageShown) {
                m_shortageShown = notice;
                m_window->jobPanel()->showMessage(notice, true);
            }
        }
        return;
    }
    m_launched = true;
    qCInfo(lcAutopilot) << "cluster ready with" << ready << "slots; launching";
    m_sinceLaunch.start();
    m_window->jobPanel()->launch();
}

void Autopilot::onLossPoints(int count) {
    if (count == 1 && m_sinceLaunch.isValid()) {
        std::printf("tessera: first loss point on the chart %lld ms after launch\n",
                    static_cast<long long>(m_sinceLaunch.elapsed()));
        std::fflush(stdout);
    }
    if (!m_options.unattended() || m_capturing || count < m_options.quitAfterPoints) {
        return;
    }
    m_capturing = true;
    // Let the chart's replot timer and the event loop settle, then capture.
    QTimer::singleShot(300, this, &Autopilot::takeScreenshotAndQuit);
}

void Autopilot::takeScreenshotAndQuit() {
    if (!m_options.screenshot.isEmpty()) {
        m_window->chart()->replotNow();
        if (!m_window->grab().save(m_options.screenshot)) {
            return finish(1, tr("cannot write the screenshot '%1': check the folder exists and is "
                                "writable")
                                 .arg(m_options.screenshot));
        }
        std::printf("tessera: screenshot with %d loss points saved to %s\n",
                    m_window->chart()->lossPointCount(), qPrintable(m_options.screenshot));
        std::fflush(stdout);
    }
    finish(0);
}

void Autopilot::finish(int exitCode, const QString& error) {
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_timeout->stop();
    if (!error.isEmpty()) {
        std::fprintf(stderr, "tessera: error: %s\n", qPrintable(error));
        m_window->logPane()->appendMessage(tr("Autopilot stopped: %1").arg(error));
    }
    if (!m_options.unattended() && exitCode == 0) {
        return;
    }
    if (!error.isEmpty() && !m_options.unattended() && !m_timedOut) {
        return; // interactive: leave the window open with the error in the log (--timeout exits)
    }
    JobPanel* jobs = m_window->jobPanel();
    if (!jobs->currentJobId().isEmpty() && !isTerminal(jobs->currentJobState())) {
        jobs->cancel();
    }
    // Give the cancel a moment to reach the worker; the provider's release stops the daemons.
    auto done = [this, exitCode] {
        if (!m_emitted) {
            m_emitted = true;
            Q_EMIT finished(exitCode);
        }
    };
    QTimer::singleShot(500, this, [this, done] {
        LocalWorkers* provider = m_session->localWorkers();
        if (provider->names().isEmpty()) {
            return done();
        }
        connect(provider, &LocalWorkers::stopped, this, done);
        QTimer::singleShot(5000, this, done);
        provider->stopAll();
    });
}

} // namespace tessera
