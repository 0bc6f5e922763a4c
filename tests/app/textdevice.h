// A paint device for tst_untranslated that keeps the text painted on it instead of pixels: what
// custom widgets, charts and the designer's canvas draw, to check that it is translated.
#pragma once

#include <QPaintDevice>
#include <QPaintEngine>
#include <QSize>
#include <QStringList>

#include <map>

namespace tessera::test {

/// A `size` device (96 dpi, device pixel ratio 1) that records drawn text and drops the rest.
class TextDevice : public QPaintDevice {
public:
    explicit TextDevice(QSize size) : m_size(size) {}
    QPaintEngine* paintEngine() const override { return &m_engine; }
    /// The text painted so far, one string a line from top to bottom: the items on one baseline
    /// joined with a space in x order (a font fallback can split a line into several items).
    QStringList lines() const { return m_engine.lines(); }

protected:
    int metric(PaintDeviceMetric m) const override;

private:
    /// The engine behind the device: keeps drawTextItem()'s text at its device position.
    class Engine : public QPaintEngine {
    public:
        Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
        bool begin(QPaintDevice*) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState&) override {}
        void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
        void drawImage(const QRectF&, const QImage&, const QRectF&,
                       Qt::ImageConversionFlags) override {}
        void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
        void drawPath(const QPainterPath&) override {}
        void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
        void drawLines(const QLineF*, int) override {}
        void drawRects(const QRectF*, int) override {}
        void drawEllipse(const QRectF&) override {}
        void drawPoints(const QPointF*, int) override {}
        void drawTextItem(const QPointF& p, const QTextItem& item) override;
        Type type() const override { return QPaintEngine::User; }
        QStringList lines() const;

    private:
        std::map<int, std::multimap<double, QString>> m_items; ///< y → x → text
    };

    QSize m_size;
    mutable Engine m_engine;
};

} // namespace tessera::test
