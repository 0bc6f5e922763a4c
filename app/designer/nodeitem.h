// One node box on the designer's canvas: its title (name, device count and kind, price) and,
// as its tooltip, what the layout runs on it. At small zoom the title is left out (the tooltip
// still tells), so a cluster of hundreds of nodes reads as bands of stage-coloured devices.
#pragma once

#include <QGraphicsRectItem>
#include <QString>

namespace tessera::designer {

/// A node's box; its DeviceItems are its children.
class NodeItem : public QGraphicsRectItem {
public:
    NodeItem(int index, const QString& title, QGraphicsItem* parent = nullptr);

    int index() const { return m_index; }
    const QString& title() const { return m_title; }
    /// Tooltip text: the title plus what runs here ("ranks 8–15 · stage 1 · TP group 1").
    void setSummary(const QString& summary);

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int m_index;
    QString m_title;
};

} // namespace tessera::designer
