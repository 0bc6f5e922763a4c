// Which run the charts show (see runheading.h).
#include "app/monitor/runheading.h"

#include <QPainter>

namespace tessera {

namespace {
constexpr int kMargin = 4; // px left and right of the text
}

RunHeading::RunHeading(QWidget* parent) : QWidget(parent) {
    QFont bold = font();
    bold.setBold(true);
    setFont(bold);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setRunId(QString());
}

void RunHeading::setRun(const RunSummary& run) {
    if (run.id.isEmpty()) {
        setRunId(QString());
    } else {
        setText(tr("Showing %1").arg(RunText::headingText(run)));
    }
}

void RunHeading::setRunId(const QString& id) {
    setText(id.isEmpty() ? tr("No run shown: launch a job, or double-click a run in Runs")
                         : tr("Showing %1").arg(id));
}

void RunHeading::setText(const QString& text) {
    m_text = text;
    setToolTip(text);
    setAccessibleName(text);
    updateGeometry();
    update();
}

QString RunHeading::shownText() const {
    return fontMetrics().elidedText(m_text, Qt::ElideRight, std::max(0, width() - 2 * kMargin));
}

QSize RunHeading::sizeHint() const {
    return {fontMetrics().horizontalAdvance(m_text) + 2 * kMargin, fontMetrics().height() + 4};
}

QSize RunHeading::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * 8, fontMetrics().height() + 4};
}

void RunHeading::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(rect().adjusted(kMargin, 0, -kMargin, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     shownText());
}

} // namespace tessera
