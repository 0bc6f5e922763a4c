// Runs of the history database, overlay and open (see runlist.h).
#include "app/monitor/runlist.h"

#include "backend/history/metricstore.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QListWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace tessera {

namespace {
constexpr int kJobIdRole = Qt::UserRole;

/// On a pool thread: a connection of its own (QtSql connections are per thread).
RunList::Loaded readRun(const QString& path, const QString& jobId, bool withTelemetry) {
    MetricStore store;
    RunList::Loaded loaded;
    if (Result<void> opened = store.open(path); !opened) {
        loaded.error = QString::fromStdString(opened.error().message);
        return loaded;
    }
    loaded.points = store.points(jobId);
    if (withTelemetry) {
        loaded.telemetry = store.telemetry(jobId);
    }
    return loaded;
}

/// On a pool thread: the job list (newest first), or the error in `error`.
struct JobList {
    QList<JobRecord> jobs;
    QString error;
};
JobList readJobs(const QString& path) {
    MetricStore store;
    JobList list;
    if (Result<void> opened = store.open(path); opened) {
        list.jobs = store.jobs();
    } else {
        list.error = QString::fromStdString(opened.error().message);
    }
    return list;
}
} // namespace

RunList::RunList(MetricStore* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_list(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    m_list->setObjectName(QStringLiteral("runList"));
    m_list->setToolTip(tr("Check a run to draw its loss beside the current one; double-click to "
                          "open its whole history"));
    connect(m_list, &QListWidget::itemChanged, this, &RunList::onItemChanged);
    connect(m_list, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { open(item->data(kJobIdRole).toString()); });
    refresh();
}

QString RunList::label(const JobRecord& job) {
    const QString when =
        QDateTime::fromMSecsSinceEpoch(job.submittedMs).toString(QStringLiteral("MM-dd hh:mm"));
    QString text = QStringLiteral("%1  %2 · %3")
                       .arg(when, job.name.isEmpty() ? job.id : job.name, jobStateName(job.state));
    if (!std::isnan(job.lastLoss)) {
        text += tr(" · loss %1").arg(job.lastLoss, 0, 'g', 4);
    }
    return text;
}

void RunList::refresh() {
    if (m_store == nullptr) {
        m_refreshing = true;
        m_list->clear();
        m_list->addItem(tr("No history database: runs are not kept."));
        m_refreshing = false;
        Q_EMIT refreshed();
        return;
    }
    if (m_reading) {
        m_readAgain = true; // a job changed while the list was read: read once more after it
        return;
    }
    m_reading = true;
    auto* watcher = new QFutureWatcher<JobList>(this);
    connect(watcher, &QFutureWatcher<JobList>::finished, this, [this, watcher] {
        const JobList list = watcher->result();
        watcher->deleteLater();
        m_reading = false;
        if (list.error.isEmpty()) {
            fill(list.jobs);
        }
        if (std::exchange(m_readAgain, false)) {
            refresh();
        } else {
            Q_EMIT refreshed();
        }
    });
    watcher->setFuture(QtConcurrent::run(readJobs, m_store->path()));
}

void RunList::fill(const QList<JobRecord>& jobs) {
    m_refreshing = true;
    m_list->clear();
    for (const JobRecord& job : jobs) {
        auto* item = new QListWidgetItem(label(job), m_list);
        item->setData(kJobIdRole, job.id);
        item->setToolTip(job.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(m_checked.contains(job.id) ? Qt::Checked : Qt::Unchecked);
    }
    m_refreshing = false;
}

void RunList::onItemChanged(QListWidgetItem* item) {
    const QString id = item->data(kJobIdRole).toString();
    if (m_refreshing || id.isEmpty()) {
        return;
    }
    if (item->checkState() != Qt::Checked) {
        m_checked.remove(id);
        Q_EMIT overlayRemoved(id);
        return;
    }
    m_checked.insert(id);
    const QString text = item->text();
    load(id, false, [this, id, text](const Loaded& loaded) {
        if (m_checked.contains(id)) { // still wanted when the load is done
            Q_EMIT overlayLoaded(id, text, loaded.points);
        }
    });
}

void RunList::open(const QString& jobId) {
    load(jobId, true, [this, jobId](const Loaded& loaded) {
        Q_EMIT opened(jobId, loaded.points);
        Q_EMIT telemetryOpened(jobId, loaded.telemetry);
    });
}

void RunList::load(const QString& jobId, bool withTelemetry,
                   std::function<void(const Loaded&)> done) {
    if (m_store == nullptr) {
        return;
    }
    // Points still buffered by the controller are flushed within 100 ms; a run being watched
    // live is drawn from its stream, not from here.
    auto* watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, jobId, done] {
        const Loaded loaded = watcher->result();
        watcher->deleteLater();
        if (!loaded.error.isEmpty()) {
            Q_EMIT loadFailed(jobId, loaded.error);
            return;
        }
        done(loaded);
    });
    watcher->setFuture(QtConcurrent::run(readRun, m_store->path(), jobId, withTelemetry));
}

} // namespace tessera
