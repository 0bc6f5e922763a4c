// The layout outline (see layoutoutline.h).
#include "app/designer/layoutoutline.h"

#include "app/designer/drawnlayout.h"
#include "app/designer/plandocument.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QRegularExpression>
#include <QTimer>

namespace tessera::designer {

namespace {
enum Kind { StageRow = 1, ReplicaRow, RankRow };
constexpr int kKindRole = Qt::UserRole + 1, kIndexRole = Qt::UserRole + 2;
} // namespace

LayoutOutline::LayoutOutline(PlanDocument* document, QWidget* parent)
    : QTreeWidget(parent), m_document(document) {
    setObjectName(QStringLiteral("layoutOutline"));
    setColumnCount(2);
    setHeaderLabels({tr("Stage / replica / rank"), tr("Layers / device")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    setUniformRowHeights(true);
    setToolTip(tr("The layout as an outline: F2 on a stage edits its layers (e.g. 3-5), F2 on a "
                  "rank types its device's number, Delete removes a stage"));
    connect(this, &QTreeWidget::itemChanged, this, &LayoutOutline::onItemChanged);
    connect(m_document, &PlanDocument::changed, this, &LayoutOutline::refresh);
    refresh();
}

QStringList LayoutOutline::deviceNames() const {
    QStringList names;
    for (const planner::PlanNode& n : m_document->cluster().nodes) {
        for (int d = 0; d < n.devices; ++d) {
            names << QStringLiteral("%1 #%2").arg(QString::fromStdString(n.name)).arg(d);
        }
    }
    return names;
}

void LayoutOutline::refresh() {
    m_filling = true;
    // Keep the expanded stages and the current row across the rebuild.
    QList<int> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i) {
        if (topLevelItem(i)->isExpanded()) {
            expanded << i;
        }
    }
    const QModelIndex current = currentIndex();
    const int currentRow = current.isValid() && !current.parent().isValid() ? current.row() : -1;
    clear();
    const int devices = m_document->cluster().deviceCount();
    const DrawnLayout drawn =
        DrawnLayout::read(m_document->file(), m_document->layerCount(), devices);
    const QStringList names = deviceNames();
    for (int s = 0; s < int(drawn.stages.size()); ++s) {
        const DrawnStage& st = drawn.stages[std::size_t(s)];
        auto* stage = new QTreeWidgetItem(this);
        stage->setText(0, tr("Stage %1").arg(s));
        QString layers = QStringLiteral("%1-%2").arg(st.first).arg(st.last);
        for (const auto& [first, last] : st.laterChunks) { // interleaved: not editable as a range
            layers += QStringLiteral(", %1-%2").arg(first).arg(last);
        }
        stage->setText(1, layers);
        stage->setData(0, kKindRole, StageRow);
        stage->setData(0, kIndexRole, s);
        if (st.laterChunks.empty()) {
            stage->setFlags(stage->flags() | Qt::ItemIsEditable);
        }
        for (int p = 0; p < drawn.dp; ++p) {
            auto* replica = new QTreeWidgetItem(stage);
            replica->setText(0, tr("DP replica %1").arg(p));
            replica->setData(0, kKindRole, ReplicaRow);
            for (int t = 0; t < drawn.tp; ++t) {
                const int rank = drawn.rankOf(s, p, t);
                const int device = st.devices[std::size_t(p * drawn.tp + t)];
                auto* item = new QTreeWidgetItem(replica);
                item->setText(0, tr("TP %1 · rank %2").arg(t).arg(rank));
                item->setText(
                    1, device < 0 ? tr("no device")
                                  : QStringLiteral("%1 (%2)").arg(device).arg(names.value(device)));
                item->setData(0, kKindRole, RankRow);
                item->setData(0, kIndexRole, rank);
                item->setFlags(item->flags() | Qt::ItemIsEditable);
            }
        }
        stage->setExpanded(expanded.contains(s) || drawn.stages.size() * drawn.dp * drawn.tp <= 16);
    }
    if (currentRow >= 0 && currentRow < topLevelItemCount()) {
        setCurrentItem(topLevelItem(currentRow));
    }
    m_filling = false;
    // Qt 6.4's reset repaints only the rows whose selection changed when the rebuild follows a
    // key press (seen under X11: rows of a removed stage stayed on screen): repaint them all.
    viewport()->update();
}

bool LayoutOutline::setStageLayers(int stage, const QString& range, QString* why) {
    const QRegularExpression form(QStringLiteral("^\\s*(\\d+)\\s*(?:[-–‥.]+\\s*(\\d+))?\\s*$"));
    const QRegularExpressionMatch m = form.match(range);
    const int devices = m_document->cluster().deviceCount();
    const DrawnLayout drawn =
        DrawnLayout::read(m_document->file(), m_document->layerCount(), devices);
    QString reason;
    if (!m.hasMatch()) {
        reason = tr("Stage %1: '%2' is not a layer range; write it as 3-5").arg(stage).arg(range);
    } else if (stage < 0 || stage >= int(drawn.stages.size())) {
        reason = tr("There is no stage %1.").arg(stage);
    } else {
        const int first = m.captured(1).toInt();
        const int last = m.captured(2).isEmpty() ? first : m.captured(2).toInt();
        const int layers = m_document->layerCount();
        if (first >= layers || last >= layers) {
            reason = tr("Stage %1: the model has layers 0-%2.").arg(stage).arg(layers - 1);
        } else {
            const DropOutcome drop =
                dropLayers(m_document->file(), layers, devices,
                           drawn.stages[std::size_t(stage)].devices.front(), first, last);
            reason = drop.refusal;
            if (reason.isEmpty()) {
                m_document->edit(drop.plan, tr("Stage %1 holds layers %2").arg(stage).arg(range));
                return true;
            }
        }
    }
    if (why) {
        *why = reason;
    }
    Q_EMIT refused(reason);
    refresh();
    return false;
}

bool LayoutOutline::setRankDevice(int rank, int device, QString* why) {
    const int devices = m_document->cluster().deviceCount();
    if (device < 0 || device >= devices || rank < 0 ||
        rank >= int(m_document->rankDevices().size())) {
        const QString reason = tr("Rank %1: device %2 is not one of the %3 devices (0-%4).")
                                   .arg(rank)
                                   .arg(device)
                                   .arg(devices)
                                   .arg(devices - 1);
        if (why) {
            *why = reason;
        }
        Q_EMIT refused(reason);
        refresh();
        return false;
    }
    m_document->edit(moveRank(m_document->file(), m_document->layerCount(), devices, rank, device),
                     tr("Run rank %1 on device %2").arg(rank).arg(device));
    return true;
}

bool LayoutOutline::removeStage(int stage) {
    const v1::PlanFile next = removeDrawnStage(m_document->file(), m_document->layerCount(),
                                               m_document->cluster().deviceCount(), stage);
    if (next.SerializeAsString() == m_document->file().SerializeAsString()) {
        return false;
    }
    m_document->edit(next, tr("Remove stage %1").arg(stage));
    return true;
}

void LayoutOutline::onItemChanged(QTreeWidgetItem* item, int column) {
    if (m_filling || column != 1) {
        return;
    }
    const int kind = item->data(0, kKindRole).toInt(), index = item->data(0, kIndexRole).toInt();
    const QString text = item->text(1);
    // After the tree is done with the item: the edit rebuilds the tree (and deletes the item).
    QTimer::singleShot(0, this, [this, kind, index, text] {
        if (kind == StageRow) {
            setStageLayers(index, text);
        } else if (kind == RankRow) {
            bool ok = false;
            const int device = text.section(QLatin1Char(' '), 0, 0).toInt(&ok);
            setRankDevice(index, ok ? device : -1);
        }
    });
}

void LayoutOutline::keyPressEvent(QKeyEvent* event) {
    QTreeWidgetItem* item = currentItem();
    if (item && event->key() == Qt::Key_Delete && item->data(0, kKindRole).toInt() == StageRow) {
        // After the key event: the edit rebuilds the tree under the current item, and a rebuild
        // inside the view's own key handling left rows of the removed stage painted.
        const int stage = item->data(0, kIndexRole).toInt();
        QTimer::singleShot(0, this, [this, stage] { removeStage(stage); });
        event->accept();
        return;
    }
    if (item && event->key() == Qt::Key_F2) {
        editItem(item, 1); // the editable column, whichever column is current
        return;
    }
    QTreeWidget::keyPressEvent(event);
}

} // namespace tessera::designer
