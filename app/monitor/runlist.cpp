// Runs of the history database as a sortable, filtered table; overlay and open (see runlist.h).
#include "app/monitor/runlist.h"

#include "app/monitor/runtablemodel.h"
#include "backend/history/metricstore.h"
#include "backend/history/runcurve.h"
#include "worker/common/tsan_handoff.h"

#include <QAction>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tessera {

namespace {

/// On a pool thread: a connection of its own (QtSql connections are per thread).
RunList::Loaded readRun(const QString& path, const QString& jobId, bool withTelemetry) {
    MetricStore store;
    RunList::Loaded loaded;
    if (Result<void> opened = store.open(path); !opened) {
        loaded.error = QString::fromStdString(opened.error().message);
        return loaded;
    }
    loaded.attempts = store.attempts(jobId);
    loaded.points = continuousRun(store.points(jobId), loaded.attempts);
    if (withTelemetry) {
        loaded.telemetry = store.telemetry(jobId);
    }
    return loaded;
}

/// On a pool thread: the runs (newest first, their specs parsed here too), or the error.
struct RunRead {
    QList<RunSummary> runs;
    QString error;
};
RunRead readRuns(const QString& path) {
    MetricStore store;
    RunRead read;
    if (Result<void> opened = store.open(path); opened) {
        for (const JobRecord& job : store.jobs()) {
            read.runs << RunText::summarize(job);
        }
    } else {
        read.error = QString::fromStdString(opened.error().message);
    }
    return read;
}

} // namespace

RunList::RunList(MetricStore* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_filter(new QLineEdit(this)), m_view(new QTableView(this)),
      m_model(new RunTableModel(this)), m_proxy(new QSortFilterProxyModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_filter->setObjectName(QStringLiteral("runFilter"));
    m_filter->setPlaceholderText(tr("Filter by name, layout or state"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunTableModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortLocaleAware(true);
    m_proxy->setFilterRole(RunTableModel::FilterRole);
    m_proxy->setFilterKeyColumn(RunTableModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);

    m_view->setObjectName(QStringLiteral("runTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunTableModel::Started, Qt::DescendingOrder); // newest first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    setUpColumns();
    m_view->viewport()->installEventFilter(this); // fits the columns to its width
    connect(m_view, &QTableView::activated, this,
            [this](const QModelIndex& index) { open(jobIdAt(index.row())); });
    connect(m_view, &QTableView::customContextMenuRequested, this, &RunList::showRowMenu);
    connect(m_model, &RunTableModel::overlayToggled, this, &RunList::onOverlayToggled);
    refresh();
}

void RunList::setUpColumns() {
    QHeaderView* header = m_view->horizontalHeader();
    header->setMinimumSectionSize(24);
    header->setStretchLastSection(false);
    header->setSectionsMovable(true);
    header->setHighlightSections(false);
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    // The name takes what is left (and elides); the others are as wide as their contents.
    header->setSectionResizeMode(RunTableModel::Name, QHeaderView::Stretch);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, &RunList::showHeaderMenu);
    header->setToolTip(tr("Click to sort; right-click to show or hide columns"));
}

namespace {
/// Optional columns, the most needed first.
constexpr RunTableModel::Column kByNeed[] = {RunTableModel::Layout,  RunTableModel::State,
                                             RunTableModel::Loss,    RunTableModel::Accuracy,
                                             RunTableModel::Started, RunTableModel::Duration};
constexpr int kNameChars = 14; // the name column keeps room for about this many characters
} // namespace

int RunList::neededWidth(int column) const {
    const QHeaderView* header = m_view->horizontalHeader();
    const QString title = m_model->headerData(column, Qt::Horizontal).toString();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int mark = header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    const int titleWidth = header->fontMetrics().horizontalAdvance(title) + 4 * margin + mark;
    // sizeHintForColumn() is public in QAbstractItemView (QTableView only narrows its access).
    const QAbstractItemView* view = m_view;
    return std::max(view->sizeHintForColumn(column), titleWidth);
}

void RunList::fitColumns() {
    const int checkBox = m_view->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 8;
    int left = m_view->viewport()->width() - checkBox -
               m_view->fontMetrics().averageCharWidth() * kNameChars;
    for (RunTableModel::Column c : kByNeed) {
        if (m_chosenColumns.contains(c)) {
            if (!m_view->isColumnHidden(c)) {
                left -= neededWidth(c);
            }
            continue;
        }
        const int width = neededWidth(c);
        const bool fits = width <= left;
        m_view->setColumnHidden(c, !fits);
        if (fits) {
            left -= width;
        } else {
            left = -1; // keep the order: no less needed column before a more needed one
        }
    }
}

void RunList::setColumnShown(int column, bool shown) {
    if (column <= RunTableModel::Name || column >= RunTableModel::ColumnCount) {
        return; // the name always stays
    }
    m_chosenColumns.insert(column);
    m_view->setColumnHidden(column, !shown);
    fitColumns();
}

bool RunList::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        fitColumns();
    }
    return QWidget::eventFilter(watched, event);
}

void RunList::showHeaderMenu(const QPoint& pos) {
    QMenu menu(this);
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        if (c == RunTableModel::Name) {
            continue; // the name always stays
        }
        QAction* a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!m_view->isColumnHidden(c));
        connect(a, &QAction::toggled, this,
                [this, c](bool on) { m_view->setColumnHidden(c, !on); });
    }
    menu.exec(m_view->horizontalHeader()->mapToGlobal(pos));
}

void RunList::showRowMenu(const QPoint& pos) {
    const QModelIndex index = m_view->indexAt(pos);
    const QString id = index.isValid() ? jobIdAt(index.row()) : QString();
    if (id.isEmpty()) {
        return;
    }
    QMenu menu(this);
    menu.addAction(tr("&Open in the charts"), this, [this, id] { open(id); });
    QAction* overlay = menu.addAction(tr("&Overlay on the chart"));
    overlay->setCheckable(true);
    overlay->setChecked(m_model->isOverlaid(id));
    connect(overlay, &QAction::toggled, this, [this, id](bool on) { m_model->setOverlay(id, on); });
    QAction* cancel = menu.addAction(tr("&Cancel job"), this, [this, id] { requestCancel(id); });
    cancel->setEnabled(!isTerminal(summary(id).state));
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QString RunList::jobIdAt(int row) const {
    return m_proxy->index(row, RunTableModel::Name).data(RunTableModel::IdRole).toString();
}

RunSummary RunList::summary(const QString& jobId) const {
    const int row = m_model->rowOf(jobId);
    return row < 0 ? RunSummary() : m_model->runs().at(row);
}

void RunList::setShownRun(const QString& jobId) {
    m_model->setShownRun(jobId);
}

void RunList::refresh() {
    if (m_store == nullptr) {
        m_model->setPlaceholder(tr("No history database: runs are not kept."));
        Q_EMIT refreshed();
        return;
    }
    if (m_reading) {
        m_readAgain = true; // a job changed while the list was read: read once more after it
        return;
    }
    m_reading = true;
    auto* watcher = new QFutureWatcher<RunRead>(this);
    connect(watcher, &QFutureWatcher<RunRead>::finished, this, [this, watcher] {
        const RunRead read = watcher->result();
        watcher->deleteLater();
        m_reading = false;
        if (read.error.isEmpty()) {
            fill(read.runs);
        }
        if (std::exchange(m_readAgain, false)) {
            refresh();
        } else {
            Q_EMIT refreshed();
        }
    });
    watcher->setFuture(
        QtConcurrent::run(tsanHandOff([path = m_store->path()] { return readRuns(path); })));
}

void RunList::fill(const QList<RunSummary>& runs) {
    const QModelIndex current = m_view->currentIndex();
    const QString selected = current.isValid() ? jobIdAt(current.row()) : QString();
    m_model->setRuns(runs);
    fitColumns(); // the contents' widths changed
    if (selected.isEmpty()) {
        return;
    }
    const int row = m_model->rowOf(selected);
    if (row >= 0) {
        const QModelIndex at = m_proxy->mapFromSource(m_model->index(row, RunTableModel::Name));
        m_view->setCurrentIndex(at); // selects the row (SelectRows)
    }
}

void RunList::onOverlayToggled(const QString& id, bool on) {
    if (!on) {
        Q_EMIT overlayRemoved(id);
        return;
    }
    const QString label = RunText::legendLabel(summary(id));
    load(id, false, [this, id, label](const Loaded& loaded) {
        if (m_model->isOverlaid(id)) { // still wanted when the load is done
            Q_EMIT overlayLoaded(id, label, loaded.points);
        }
    });
}

void RunList::open(const QString& jobId) {
    if (jobId.isEmpty()) {
        return;
    }
    m_model->setShownRun(jobId);
    load(jobId, true, [this, jobId](const Loaded& loaded) {
        Q_EMIT opened(jobId, loaded.points);
        Q_EMIT telemetryOpened(jobId, loaded.telemetry);
        Q_EMIT attemptsOpened(jobId, loaded.attempts);
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
    watcher->setFuture(
        QtConcurrent::run(tsanHandOff([path = m_store->path(), jobId, withTelemetry] {
            return readRun(path, jobId, withTelemetry);
        })));
}

} // namespace tessera
