// CSV and PNG export of charts (see chartexport.h).
#include "app/monitor/chartexport.h"

#include "app/monitor/chartlegend.h"
#include "app/monitor/customplot.h"
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

namespace tessera {

namespace {

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n'))) {
        return s;
    }
    QString quoted = s;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

/// Asks for a file name and writes the PNG (`png`) or the CSV; a failure goes to a message box.
void exportWithDialog(QCustomPlot* plot, const QString& fileBase, bool png,
                      const std::function<QString()>& csv) {
    const QString path = QFileDialog::getSaveFileName(
        plot,
        png ? QCoreApplication::translate("tessera::ChartExport", "Export chart")
            : QCoreApplication::translate("tessera::ChartExport", "Export chart data"),
        fileBase + (png ? QStringLiteral(".png") : QStringLiteral(".csv")),
        png ? QCoreApplication::translate("tessera::ChartExport", "PNG images (*.png)")
            : QCoreApplication::translate("tessera::ChartExport", "CSV files (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    const QString error = png ? savePlotPng(plot, path) : writeTextFile(path, csv());
    if (!error.isEmpty()) {
        QMessageBox::warning(
            plot, QCoreApplication::translate("tessera::ChartExport", "Export failed"), error);
    }
}

} // namespace

QString graphsToCsv(const QList<const QCPGraph*>& graphs) {
    QList<QPair<QString, const QCPAbstractPlottable*>> series;
    for (const QCPGraph* g : graphs) {
        series.append({ChartLegend::fullName(g), g}); // a shortened legend name in full
    }
    return seriesToCsv(series, QStringLiteral("step"));
}

QString seriesToCsv(const QList<QPair<QString, const QCPAbstractPlottable*>>& series,
                    const QString& keyName) {
    QString out = QStringLiteral("series,%1,value\n").arg(csvField(keyName));
    for (const auto& [label, plottable] : series) {
        // interface1D() is not const in QCustomPlot, though it only reads.
        QCPPlottableInterface1D* data = const_cast<QCPAbstractPlottable*>(plottable)->interface1D();
        if (data == nullptr) {
            continue;
        }
        const QString name = csvField(label);
        for (int i = 0; i < data->dataCount(); ++i) {
            out += name + QLatin1Char(',') + QString::number(data->dataMainKey(i), 'g', 17) +
                   QLatin1Char(',') + QString::number(data->dataMainValue(i), 'g', 17) +
                   QLatin1Char('\n');
        }
    }
    return out;
}

void addExportMenu(QCustomPlot* plot, const QString& fileBase, std::function<QString()> csv) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot,
                     [plot, fileBase, csv = std::move(csv)](const QPoint& pos) {
                         QMenu menu(plot);
                         QAction* png = menu.addAction(QCoreApplication::translate(
                             "tessera::ChartExport", "Export chart as PNG…"));
                         menu.addAction(QCoreApplication::translate("tessera::ChartExport",
                                                                    "Export data as CSV…"));
                         if (QAction* chosen = menu.exec(plot->mapToGlobal(pos))) {
                             exportWithDialog(plot, fileBase, chosen == png, csv);
                         }
                     });
}

QString writeTextFile(const QString& path, const QString& text) {
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    }
    return {};
}

QString savePlotPng(QCustomPlot* plot, const QString& path) {
    if (!plot->savePng(path)) {
        const QFileInfo dir(QFileInfo(path).absolutePath());
        return QStringLiteral("cannot write %1: %2")
            .arg(path, dir.isDir() && dir.isWritable() ? QStringLiteral("the image could not be "
                                                                        "saved")
                                                       : QStringLiteral("the folder does not "
                                                                        "exist or is read-only"));
    }
    return {};
}

} // namespace tessera
