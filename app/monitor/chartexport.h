// Chart data as CSV and charts as PNG files, for any QCustomPlot.
#pragma once

#include <QList>
#include <QString>

class QCPGraph;
class QCustomPlot;

namespace tessera {

/// The graphs' points as CSV text: header "series,step,value", then one line per point in graph
/// order and key order; series names quoted when they hold a comma or quote (RFC 4180); values
/// with 17 significant digits (doubles round-trip). Empty graphs add no line.
QString graphsToCsv(const QList<const QCPGraph*>& graphs);

/// Writes `text` to `path` atomically (QSaveFile). Returns "" or "cannot write <path>: <why>".
QString writeTextFile(const QString& path, const QString& text);

/// Saves `plot` as a PNG of its current size. Returns "" or "cannot write <path>: ...".
QString savePlotPng(QCustomPlot* plot, const QString& path);

} // namespace tessera
