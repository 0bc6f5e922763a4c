// The line above the monitor's charts that says which run they show.
#pragma once

#include "app/monitor/runsummary.h"

#include <QWidget>

namespace tessera {

/// One bold line, "Showing job-… · name · DP2 × PP1 × TP1 · running", elided at the right when
/// narrow (the whole text is the tooltip); "No run shown" before the first run. Its minimum
/// width is small: it never widens the window.
class RunHeading : public QWidget {
    Q_OBJECT
public:
    explicit RunHeading(QWidget* parent = nullptr);

    /// Shows `run` (RunText::headingText); an empty id shows the "no run" text.
    void setRun(const RunSummary& run);
    /// Shows only the run's id, before more is known about it.
    void setRunId(const QString& id);
    /// The whole text.
    QString text() const { return m_text; }
    /// What is painted at the current width (the text, or its elided form).
    QString shownText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void setText(const QString& text);

    QString m_text;
};

} // namespace tessera
