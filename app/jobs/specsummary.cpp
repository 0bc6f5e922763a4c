// Read-only, human-readable summary of a job spec for the job panel.
#include "specsummary.h"

#include "spec_io.h"

#include <QStringList>
#include <algorithm>

namespace tessera {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

QString SpecSummary::text(const v1::JobSpec& spec) {
    QStringList lines;
    lines << tr("Name: %1").arg(spec.name().empty() ? tr("(unnamed)") : qs(spec.name()));

    const v1::ModelSpec& model = spec.model();
    if (model.command_size() > 0) {
        QStringList argv;
        for (const std::string& a : model.command())
            argv << qs(a);
        lines << tr("Command: %1").arg(argv.join(QLatin1Char(' ')));
    } else {
        QStringList widths{QStringLiteral("784")};
        for (int h : model.hidden())
            widths << QString::number(h);
        widths << QStringLiteral("10");
        lines << tr("Model: %1 %2")
                     .arg(qs(model.family()).toUpper(), widths.join(QStringLiteral(" → ")));
    }
    lines << tr("Dataset: %1 (%2)").arg(qs(spec.dataset().name()), qs(datasetDir(spec)));

    const v1::TrainingSpec& t = spec.training();
    QString length = tr("%1 epoch(s)").arg(t.epochs());
    if (t.max_steps() > 0)
        length += tr(", at most %1 steps").arg(t.max_steps());
    lines << tr("Training: %1, global batch %2").arg(length).arg(t.global_batch());
    lines << tr("Optimizer: %1, learning rate %2, momentum %3, weight decay %4")
                 .arg(qs(t.optimizer()))
                 .arg(t.learning_rate())
                 .arg(t.momentum())
                 .arg(t.weight_decay());
    lines << tr("Seed %1, metrics every %2 step(s)").arg(t.seed()).arg(std::max(1, t.log_every()));

    const v1::Layout& l = spec.layout();
    lines << tr("Layout: data parallel %1, tensor parallel %2, %3 pipeline stage(s)")
                 .arg(l.data_parallel())
                 .arg(std::max(1, l.tensor_parallel()))
                 .arg(std::max(1, l.stages_size()));
    lines << tr("World size: %1 rank(s)").arg(worldSize(l));
    return lines.join(QLatin1Char('\n'));
}

} // namespace tessera
