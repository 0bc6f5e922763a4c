// CSV and PNG export of charts (see chartexport.h).
#include "chartexport.h"

#include <QFileInfo>
#include <QSaveFile>
#include <qcustomplot.h>

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

} // namespace

QString graphsToCsv(const QList<const QCPGraph*>& graphs) {
    QString out = QStringLiteral("series,step,value\n");
    for (const QCPGraph* g : graphs) {
        const QString name = csvField(g->name());
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            out += name + QLatin1Char(',') + QString::number(it->key, 'g', 17) + QLatin1Char(',') +
                   QString::number(it->value, 'g', 17) + QLatin1Char('\n');
        }
    }
    return out;
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
