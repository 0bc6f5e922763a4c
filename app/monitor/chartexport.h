// Chart data as CSV and charts as PNG files, for any QCustomPlot.
#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <functional>

class QCPAbstractPlottable;
class QCPGraph;
class QCustomPlot;

namespace tessera {

/// The graphs' points as CSV text: header "series,step,value", then one line per point in graph
/// order and key order, under each graph's ChartLegend::fullName; series names quoted when they
/// hold a comma or quote (RFC 4180); values with 17 significant digits (doubles round-trip). Empty
/// graphs add no line.
QString graphsToCsv(const QList<const QCPGraph*>& graphs);

/// The same for any one-dimensional plottables (graphs, bars) under names of their own: header
/// "series,<keyName>,value", then (name, key, value) per data point in the given order.
QString seriesToCsv(const QList<QPair<QString, const QCPAbstractPlottable*>>& series,
                    const QString& keyName);

/// Gives `plot` a right-click menu with "Export chart as PNG…" and "Export data as CSV…" (the text
/// from `csv`, called when chosen); the file dialogs suggest names starting with `fileBase`. A
/// failure is shown in a message box naming the file and why.
void addExportMenu(QCustomPlot* plot, const QString& fileBase, std::function<QString()> csv);

/// Writes `text` to `path` atomically (QSaveFile). Returns "" or "cannot write <path>: <why>".
QString writeTextFile(const QString& path, const QString& text);

/// Saves `plot` as a PNG of its current size. Returns "" or "cannot write <path>: ...".
QString savePlotPng(QCustomPlot* plot, const QString& path);

} // namespace tessera
