// Relaunch markers on the loss chart (see recoverymarkers.h).
#include "app/monitor/recoverymarkers.h"

#include "app/monitor/customplot.h"

#include <QCoreApplication>
#include <QStringList>

namespace tessera {

namespace {
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::RecoveryMarkers)
};
constexpr int kCauseChars = 48; ///< of the cause in the label; the log pane has all of it
} // namespace

void RecoveryMarkers::add(qint64 step, int attempt, const QString& cause) {
    Marker m;
    m.step = step;
    const double x = static_cast<double>(step);
    m.line = new QCPItemStraightLine(m_plot);
    m.line->point1->setType(QCPItemPosition::ptPlotCoords);
    m.line->point2->setType(QCPItemPosition::ptPlotCoords);
    m.line->point1->setCoords(x, 0.0);
    m.line->point2->setCoords(x, 1.0);
    m.line->setPen(QPen(QColor(214, 39, 40), 1.2, Qt::DashLine));
    m.label = new QCPItemText(m_plot);
    m.label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m.label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m.label->position->setCoords(x, 0.02 + 0.08 * (m_markers.size() % 4)); // apart if close
    m.label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m.label->setColor(QColor(214, 39, 40));
    const QString shortCause =
        cause.size() > kCauseChars ? cause.left(kCauseChars) + QStringLiteral("…") : cause;
    m.label->setText(Text::tr("↻ attempt %1\n%2").arg(QString::number(attempt), shortCause));
    m.label->setPadding(QMargins(3, 0, 0, 0));
    m_markers.append(m);
}

void RecoveryMarkers::clear() {
    for (const Marker& m : std::as_const(m_markers)) {
        m_plot->removeItem(m.line);
        m_plot->removeItem(m.label);
    }
    m_markers.clear();
}

QList<qint64> RecoveryMarkers::steps() const {
    QList<qint64> out;
    for (const Marker& m : m_markers) {
        out << m.step;
    }
    return out;
}

QStringList RecoveryMarkers::labels() const {
    QStringList out;
    for (const Marker& m : m_markers) {
        out << m.label->text();
    }
    return out;
}

} // namespace tessera
