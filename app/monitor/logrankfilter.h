// The Log dock's rank chooser: "All ranks", "Rank 0", "Rank 1", …, "No rank (launcher)".
#pragma once

#include <QComboBox>

namespace tessera {

class LogPane;

/// A combo box over a LogPane: lists the ranks that printed lines as they appear (ascending,
/// after "All ranks"; "No rank" for mpirun's, torchrun's and Tessera's own lines) and narrows
/// the pane to the chosen one. objectName "logRankFilter".
class LogRankFilter : public QComboBox {
    Q_OBJECT
public:
    explicit LogRankFilter(LogPane* pane, QWidget* parent = nullptr);

    /// Chooses `rank` (LogPane::kAllRanks, kNoRank or a rank seen); false if it is not listed.
    bool choose(int rank);

private:
    void addRank(int rank);
    LogPane* m_pane;
};

} // namespace tessera
