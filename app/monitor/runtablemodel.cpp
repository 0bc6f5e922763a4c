// The Runs table's model (see runtablemodel.h).
#include "app/monitor/runtablemodel.h"

#include <QDateTime>
#include <QFont>
#include <QTimer>

#include <cmath>
#include <limits>

namespace tessera {

namespace {
constexpr int kTickMs = 1000;

/// Unknown numbers sort after every known one (ascending).
double sortable(double v) {
    return std::isnan(v) ? std::numeric_limits<double>::max() : v;
}
} // namespace

RunTableModel::RunTableModel(QObject* parent)
    : QAbstractTableModel(parent), m_now([] { return QDateTime::currentMSecsSinceEpoch(); }),
      m_tick(new QTimer(this)) {
    m_tick->setInterval(kTickMs);
    connect(m_tick, &QTimer::timeout, this, [this] {
        for (int row = 0; row < m_runs.size(); ++row) {
            if (m_runs[row].startMs > 0 && m_runs[row].finishMs == 0 &&
                !isTerminal(m_runs[row].state)) {
                Q_EMIT dataChanged(index(row, Duration), index(row, Duration),
                                   {Qt::DisplayRole, SortRole});
            }
        }
    });
    m_tick->start();
}

void RunTableModel::setRuns(const QList<RunSummary>& runs) {
    beginResetModel();
    m_runs = runs;
    m_placeholder.clear();
    QSet<QString> listed;
    for (const RunSummary& r : runs) {
        listed.insert(r.id);
    }
    m_checked.intersect(listed);
    endResetModel();
}

void RunTableModel::setPlaceholder(const QString& text) {
    beginResetModel();
    m_runs.clear();
    m_checked.clear();
    m_placeholder = text;
    endResetModel();
}

int RunTableModel::rowOf(const QString& id) const {
    for (int row = 0; row < m_runs.size(); ++row) {
        if (m_runs[row].id == id) {
            return row;
        }
    }
    return -1;
}

void RunTableModel::setShownRun(const QString& id) {
    const int before = rowOf(m_shown);
    m_shown = id;
    for (int row : {before, rowOf(id)}) {
        if (row >= 0) {
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), {Qt::FontRole});
        }
    }
}

void RunTableModel::setOverlay(const QString& id, bool on) {
    const int row = rowOf(id);
    if (row < 0 || m_checked.contains(id) == on) {
        return;
    }
    if (on) {
        m_checked.insert(id);
    } else {
        m_checked.remove(id);
    }
    Q_EMIT dataChanged(index(row, Name), index(row, Name), {Qt::CheckStateRole});
    Q_EMIT overlayToggled(id, on);
}

int RunTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return m_placeholder.isEmpty() ? int(m_runs.size()) : 1;
}

int RunTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::display(const RunSummary& run, int column) const {
    switch (column) {
    case Name:
        return run.title();
    case Layout:
        return run.shortLayout.isEmpty() ? QStringLiteral("–") : run.shortLayout;
    case State:
        return RunText::stateText(run.state);
    case Loss:
        return RunText::numberText(run.finalLoss);
    case Accuracy:
        return RunText::numberText(run.finalAccuracy);
    case Started:
        return RunText::dateTimeText(run.startMs);
    case Duration:
        return RunText::durationText(run.durationMs(m_now()));
    }
    return {};
}

QVariant RunTableModel::sortValue(const RunSummary& run, int column) const {
    switch (column) {
    case Loss:
        return sortable(run.finalLoss);
    case Accuracy:
        return sortable(run.finalAccuracy);
    case Started:
        return run.startMs;
    case Duration:
        return run.durationMs(m_now());
    default:
        return display(run, column);
    }
}

QString RunTableModel::toolTip(const RunSummary& run) const {
    QStringList lines{run.title(), run.id};
    if (!run.layout.isEmpty()) {
        lines << run.layout;
    }
    lines << tr("%1 · started %2 · ran %3")
                 .arg(RunText::stateText(run.state), RunText::dateTimeText(run.startMs),
                      RunText::durationText(run.durationMs(m_now())));
    lines << tr("final loss %1 · test accuracy %2")
                 .arg(RunText::numberText(run.finalLoss), RunText::numberText(run.finalAccuracy));
    lines << tr("Double-click to open it in the charts; check it to draw its curves beside the "
                "shown run.");
    return lines.join(QLatin1Char('\n'));
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    if (!m_placeholder.isEmpty()) {
        return index.column() == Name && (role == Qt::DisplayRole || role == Qt::ToolTipRole)
                   ? QVariant(m_placeholder)
                   : QVariant();
    }
    const RunSummary& run = m_runs[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(run, index.column());
    case SortRole:
        return sortValue(run, index.column());
    case FilterRole:
        return QStringList{run.title(), run.id, run.layout, run.shortLayout,
                           RunText::stateText(run.state)}
            .join(QLatin1Char('\n'));
    case IdRole:
        return run.id;
    case Qt::ToolTipRole:
        return toolTip(run); // with the whole layout, "DP2 × PP1 × TP1"
    case Qt::CheckStateRole:
        if (index.column() == Name) {
            return m_checked.contains(run.id) ? Qt::Checked : Qt::Unchecked;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Loss || index.column() == Accuracy || index.column() == Duration) {
            return int(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::FontRole:
        if (run.id == m_shown && !m_shown.isEmpty()) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

bool RunTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.column() != Name || role != Qt::CheckStateRole ||
        !m_placeholder.isEmpty() || index.row() >= m_runs.size()) {
        return false;
    }
    setOverlay(m_runs[index.row()].id,
               value.value<Qt::CheckState>() == Qt::Checked || value.toInt() == Qt::Checked);
    return true;
}

Qt::ItemFlags RunTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    if (!m_placeholder.isEmpty()) {
        return Qt::ItemIsEnabled;
    }
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Name) {
        f |= Qt::ItemIsUserCheckable;
    }
    return f;
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Name");
        case Layout:
            return tr("Layout");
        case State:
            return tr("State");
        case Loss:
            return tr("Loss");
        case Accuracy:
            return tr("Acc.");
        case Started:
            return tr("Started");
        case Duration:
            return tr("Duration");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Name:
            return tr("The run's name (its id when it has none); check a run to overlay its "
                      "curves on the chart");
        case Layout:
            return tr("Data-parallel replicas (DP) × pipeline stages (PP) × tensor-parallel width "
                      "(TP); factors of 1 are left out");
        case Loss:
            return tr("The last train loss the run reported");
        case Accuracy:
            return tr("The last test accuracy the run reported (0–1)");
        case Started:
            return tr("When it started running (local time)");
        case Duration:
            return tr("How long it ran (m:ss or h:mm:ss)");
        default:
            return {};
        }
    }
    return {};
}

} // namespace tessera
