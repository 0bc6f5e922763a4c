// LogRankFilter: items carry the rank as data; choosing one sets the pane's filter.
#include "app/monitor/logrankfilter.h"

#include "app/monitor/logpane.h"

namespace tessera {

LogRankFilter::LogRankFilter(LogPane* pane, QWidget* parent) : QComboBox(parent), m_pane(pane) {
    setObjectName(QStringLiteral("logRankFilter"));
    setToolTip(tr("Show the output of one rank only (state changes and app messages stay)"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    addItem(tr("All ranks"), LogPane::kAllRanks);
    for (int rank : pane->ranksSeen()) {
        addRank(rank);
    }
    connect(pane, &LogPane::rankSeen, this, &LogRankFilter::addRank);
    connect(this, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) {
            m_pane->setRankFilter(itemData(index).toInt());
        }
    });
}

bool LogRankFilter::choose(int rank) {
    const int index = findData(rank);
    if (index < 0) {
        return false;
    }
    setCurrentIndex(index);
    return true;
}

void LogRankFilter::addRank(int rank) {
    if (findData(rank) >= 0) {
        return;
    }
    const QString label =
        rank == LogPane::kNoRank ? tr("No rank (launcher, Tessera)") : tr("Rank %1").arg(rank);
    // Ascending after "All ranks", "No rank" last.
    int at = count();
    for (int i = 1; i < count(); ++i) {
        const int other = itemData(i).toInt();
        if (rank != LogPane::kNoRank && (other == LogPane::kNoRank || other > rank)) {
            at = i;
            break;
        }
    }
    insertItem(at, label, rank);
}

} // namespace tessera
