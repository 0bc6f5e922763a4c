// Per-device utilisation and memory of the nodes a job runs on, against time: one line per
// device, coloured by node, with the ranks, stages and layers each device holds in its tooltip.
#pragma once

#include "app/monitor/devicesample.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;

namespace tessera {

/// Two stacked panes sharing the time axis (time since the job started, mm:ss): utilisation
/// in % (0..100) above, memory used in GiB (2^30 bytes) below. Series are grouped by node: the
/// devices of one node share its colour (GPUs solid, the node's CPU dashed) and sit next to each
/// other in devices(); the legend names each node once. Hovering a line shows deviceText().
/// Samples are kept in QCustomPlot's data containers (adaptive sampling); the plot redraws on a
/// 500 ms timer, never per sample.
class UtilizationChart : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationChart(QWidget* parent = nullptr);

    /// Follows `jobId`: clears every series and the roles. `startMs` (Unix ms) is time 0 of the
    /// axis; 0 = the first sample's time.
    void showJob(const QString& jobId, qint64 startMs = 0);
    QString jobId() const { return m_jobId; }
    /// What each device does in the job, by DeviceSample::key(), e.g. {"local-0/CPU": "rank 0:
    /// stage 0 (layers 0–3), dp 0, tp 0"}; shown in the tooltips. Devices without an entry say
    /// that they hold no rank.
    void setDeviceRoles(const QMap<QString, QString>& roles) { m_roles = roles; }
    /// Orders and colours the nodes as listed (placement order); others follow as they appear.
    /// Call after showJob().
    void setNodeOrder(const QStringList& nodes);
    /// Appends readings of the followed job's nodes (out-of-order times are kept sorted).
    /// Ignored while no job is followed.
    void addSamples(const QList<tessera::DeviceSample>& samples);
    /// Redraws now (tests, screenshots).
    void replotNow();
    /// Every series as CSV ("series,seconds,value"; series "<node>/<device> utilization %" and
    /// "... memory GiB" in display order), what the right-click Export writes.
    QString csv() const;

    /// Series keys in display order (nodes in setNodeOrder's order, others as they appeared; CPU,
    /// then GPUs by index).
    QStringList devices() const { return m_order; }
    /// Tooltip of a device: name and model, its latest readings, and its role; "" if unknown.
    QString deviceText(const QString& key) const;
    /// The device whose line passes within 8 px of plot pixel `pos`, or "".
    QString deviceAt(const QPoint& pos) const;
    QCPGraph* utilizationGraph(const QString& key) const;
    QCPGraph* memoryGraph(const QString& key) const;
    QCustomPlot* plot() const { return m_plot; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Series {
        QCPGraph* utilization = nullptr;
        QCPGraph* memory = nullptr;
        DeviceSample latest;
    };
    Series& seriesFor(const DeviceSample& sample);
    void insertInOrder(const DeviceSample& sample);
    /// Display order: node (setNodeOrder, then first appearance), CPU, then GPUs by index.
    bool before(const DeviceSample& a, const DeviceSample& b) const;
    void rebuildLegend();
    void rescale();

    QCustomPlot* m_plot;
    QCPAxisRect* m_memoryRect;
    QString m_jobId;
    qint64 m_startMs = 0;
    double m_memoryTopGiB = 0; ///< most memory any device used so far (not rescanned per replot)
    QHash<QString, Series> m_series;
    QStringList m_order;
    QStringList m_nodes; ///< setNodeOrder's, then in order of appearance: their colour index
    QMap<QString, QString> m_roles;
    bool m_dirty = false;
};

} // namespace tessera
