// The runs of the history database as a table (name, layout, state, final loss and accuracy,
// start, duration), newest first, sortable and filtered: check a run to overlay its curves on
// the chart, open one (double-click or Enter) to see its whole history in the monitor. Loading
// is off the GUI thread.
#pragma once

#include "app/monitor/runsummary.h"
#include "backend/core/jobtypes.h"
#include "backend/history/metricstore.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>

#include <functional>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace tessera {

class RunTableModel;

/// A QTableView over RunTableModel (MetricStore::jobs()) through a QSortFilterProxyModel
/// (click a header to sort; numbers sort as numbers), under a filter line that matches name, id,
/// layout and state. Checking a run's box loads its points and emits overlayLoaded; unchecking
/// emits overlayRemoved; double-clicking (or Enter, or the row's context menu) loads them and
/// emits opened and telemetryOpened. Columns that do not fit beside a legible name (about 14
/// characters) are hidden, the least needed first (Duration, Started, Acc., Loss, State, Layout),
/// and come back as the dock widens; the header's context menu shows or hides a column for good.
/// Every row's tooltip names all of it. Loads run on a
/// thread-pool thread with their own SQLite connection, so a run of millions of points never
/// blocks the GUI thread; results arrive as signals.
class RunList : public QWidget {
    Q_OBJECT
public:
    /// `store` may be null (no history): the table then says so.
    explicit RunList(MetricStore* store, QWidget* parent = nullptr);

    /// Re-reads the job list (keeps the check marks, the selection and the sort) on a pool
    /// thread; refreshed() follows.
    void refresh();
    /// Loads run `jobId` and emits opened(); what a double-click does. Marks it as shown.
    void open(const QString& jobId);
    /// Asks for run `jobId` to be cancelled (cancelRequested): what the row menu's "Cancel job"
    /// does, offered while the run is not over.
    void requestCancel(const QString& jobId) { Q_EMIT cancelRequested(jobId); }
    /// Marks run `jobId` as the one the charts show (its row is bold); "" for none.
    void setShownRun(const QString& jobId);
    /// The listed run `jobId` as last read (an empty id when it is not listed).
    RunSummary summary(const QString& jobId) const;

    /// Shows or hides column `column` (RunTableModel::Column) for good, whatever the width: what
    /// its entry in the header's context menu does.
    void setColumnShown(int column, bool shown);

    QTableView* view() const { return m_view; }
    RunTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QLineEdit* filterEdit() const { return m_filter; }
    /// The job id of the view's row `row` (in sorted, filtered order), or "".
    QString jobIdAt(int row) const;

    /// What one load read from the history.
    struct Loaded {
        QList<MetricPoint> points;
        QList<TelemetryRecord> telemetry; ///< only when opening a run
        QList<AttemptRecord> attempts;    ///< its relaunches (recovery.maxRestarts)
        QString error;                    ///< the database could not be opened
    };

Q_SIGNALS:
    /// A checked run's points; `label` is its legend label (RunText::legendLabel).
    void overlayLoaded(QString jobId, QString label, QList<tessera::MetricPoint> points);
    void overlayRemoved(QString jobId);
    void opened(QString jobId, QList<tessera::MetricPoint> points);
    /// Right after opened(): the run's recorded telemetry (MetricStore::telemetry).
    void telemetryOpened(QString jobId, QList<tessera::TelemetryRecord> telemetry);
    /// Right after opened(): the run's relaunches, oldest first (empty for most runs). The
    /// points of opened() are already one curve (continuousRun): a relaunch's replace the
    /// steps it computed again.
    void attemptsOpened(QString jobId, QList<tessera::AttemptRecord> attempts);
    /// The table shows the jobs as the database held them when it was read.
    void refreshed();
    /// A load failed (the database could not be opened from the loading thread).
    void loadFailed(QString jobId, QString error);
    /// The person asked to cancel run `jobId` (whoever launched it: the server decides).
    void cancelRequested(QString jobId);

private:
    void onOverlayToggled(const QString& id, bool on);
    /// Reads the job's points (and telemetry) on a pool thread, then calls `done` on this thread.
    void load(const QString& jobId, bool withTelemetry, std::function<void(const Loaded&)> done);
    /// Shows `runs` (newest first), keeping the check marks and the selected run.
    void fill(const QList<RunSummary>& runs);
    void setUpColumns();
    void showRowMenu(const QPoint& pos);
    void showHeaderMenu(const QPoint& pos);
    /// Shows the optional columns, most needed first, that fit beside the name's minimum width;
    /// the columns the person chose in the header menu stay as chosen.
    void fitColumns();
    /// The width column `column` takes when shown (its contents and its header).
    int neededWidth(int column) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    MetricStore* m_store;
    QLineEdit* m_filter;
    QTableView* m_view;
    RunTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QSet<int> m_chosenColumns; ///< shown or hidden by the person: not fitted
    bool m_reading = false;    ///< a read of the job list is in flight
    bool m_readAgain = false;  ///< refresh() was called while reading
};

} // namespace tessera
