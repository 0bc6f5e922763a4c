// The runs of the history database, newest first: check a run to overlay its loss on the chart,
// open one (double-click) to see its whole history in the monitor. Loading is off the GUI thread.
#pragma once

#include "backend/history/metricstore.h"
#include "backend/jobs/jobtypes.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace tessera {

/// A list of JobRecords (MetricStore::jobs()) with a check box each. Checking a run loads its
/// points and emits overlayLoaded; unchecking emits overlayRemoved; double-clicking loads them
/// and emits opened and telemetryOpened. Loads run on a thread-pool thread with their own SQLite
/// connection, so a run of millions of points never blocks the GUI thread; results arrive as
/// signals.
class RunList : public QWidget {
    Q_OBJECT
public:
    /// `store` may be null (no history): the list then says so.
    explicit RunList(MetricStore* store, QWidget* parent = nullptr);

    /// Re-reads the job list (keeps the check marks) on a pool thread; refreshed() follows.
    void refresh();
    /// Loads run `jobId` and emits opened(); what a double-click does.
    void open(const QString& jobId);
    QListWidget* list() const { return m_list; }

    /// What one load read from the history.
    struct Loaded {
        QList<MetricPoint> points;
        QList<TelemetryRecord> telemetry; ///< only when opening a run
        QString error;                    ///< the database could not be opened
    };

Q_SIGNALS:
    void overlayLoaded(QString jobId, QString label, QList<tessera::MetricPoint> points);
    void overlayRemoved(QString jobId);
    void opened(QString jobId, QList<tessera::MetricPoint> points);
    /// Right after opened(): the run's recorded telemetry (MetricStore::telemetry).
    void telemetryOpened(QString jobId, QList<tessera::TelemetryRecord> telemetry);
    /// The list shows the jobs as the database held them when it was read.
    void refreshed();
    /// A load failed (the database could not be opened from the loading thread).
    void loadFailed(QString jobId, QString error);

private:
    void onItemChanged(QListWidgetItem* item);
    /// Reads the job's points (and telemetry) on a pool thread, then calls `done` on this thread.
    void load(const QString& jobId, bool withTelemetry, std::function<void(const Loaded&)> done);
    static QString label(const JobRecord& job);
    /// Shows `jobs` (newest first), keeping the check marks.
    void fill(const QList<JobRecord>& jobs);

    MetricStore* m_store;
    QListWidget* m_list;
    QSet<QString> m_checked;
    bool m_refreshing = false; ///< filling the list: item changes are not the user's
    bool m_reading = false;    ///< a read of the job list is in flight
    bool m_readAgain = false;  ///< refresh() was called while reading
};

} // namespace tessera
