// Table model of the history's runs for the Runs dock: name (with an overlay check box), layout,
// state, final loss and accuracy, start and duration.
#pragma once

#include "app/monitor/runsummary.h"

#include <QAbstractTableModel>
#include <QList>
#include <QSet>

#include <functional>

class QTimer;

namespace tessera {

/// One row per RunSummary, in the order given (newest first from MetricStore::jobs()).
/// DisplayRole gives text in the user's locale; SortRole a value that sorts as a person expects
/// (numbers as numbers, NaN last, dates by time); FilterRole (column Name) the text a filter
/// matches: name, id, layout and state. The Name column is checkable: checking a row asks for its
/// overlay (overlayToggled); the check marks survive setRuns(). The row of shownRun() is bold.
/// Durations of unfinished runs are refreshed once a second.
class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Layout, State, Loss, Accuracy, Started, Duration, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, FilterRole, IdRole };

    explicit RunTableModel(QObject* parent = nullptr);

    /// Replaces the rows (a reset); keeps the check marks of runs still listed.
    void setRuns(const QList<tessera::RunSummary>& runs);
    /// Shows `text` as the one row (no database, an error); setRuns() replaces it.
    void setPlaceholder(const QString& text);
    const QList<RunSummary>& runs() const { return m_runs; }
    /// The row of run `id`, or −1.
    int rowOf(const QString& id) const;
    /// The run shown in the charts (bold); "" for none.
    void setShownRun(const QString& id);
    QString shownRun() const { return m_shown; }
    /// Checks or unchecks run `id` (what clicking its check box does); emits overlayToggled.
    void setOverlay(const QString& id, bool on);
    bool isOverlaid(const QString& id) const { return m_checked.contains(id); }
    /// The clock for durations of unfinished runs (tests); default
    /// QDateTime::currentMSecsSinceEpoch.
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// The person checked (`on`) or unchecked run `id`'s overlay box.
    void overlayToggled(QString id, bool on);

private:
    QVariant display(const RunSummary& run, int column) const;
    QVariant sortValue(const RunSummary& run, int column) const;
    QString toolTip(const RunSummary& run) const;

    QList<RunSummary> m_runs;
    QString m_placeholder;
    QSet<QString> m_checked;
    QString m_shown;
    std::function<qint64()> m_now;
    QTimer* m_tick;
};

} // namespace tessera
