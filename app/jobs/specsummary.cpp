// Read-only, human-readable summary of a job spec for the job panel.
#include "app/jobs/specsummary.h"

#include "worker/common/model_desc.h"
#include "worker/common/spec_io.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>

namespace tessera {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString mlpShape(const v1::ModelSpec& model) {
    QStringList widths{QStringLiteral("784")};
    for (int h : model.hidden()) {
        widths << QString::number(h);
    }
    widths << QStringLiteral("10");
    return widths.join(QStringLiteral(" → "));
}
} // namespace

QString SpecSummary::modelLine(const v1::ModelSpec& model) {
    if (model.command_size() > 0) {
        QStringList argv;
        for (const std::string& a : model.command()) {
            argv << qs(a);
        }
        return tr("Command: %1").arg(argv.join(QLatin1Char(' ')));
    }
    QString shape;
    if (model.family() == "mlp") {
        shape = mlpShape(model);
    } else if (model.family() == "vit") {
        shape = tr("%1 blocks, width %2, %3 heads, %4×%4 patches")
                    .arg(model.blocks())
                    .arg(model.dim())
                    .arg(model.heads())
                    .arg(model.patch());
    } else {
        shape = tr("%1 blocks, width %2, %3 heads, context %4")
                    .arg(model.blocks())
                    .arg(model.dim())
                    .arg(model.heads())
                    .arg(model.context());
    }
    QString line = tr("Model: %1 %2").arg(qs(model.family()).toUpper(), shape);
    if (const auto desc = describeModel(model)) {
        line += tr(" — %1 layers, %2 parameters")
                    .arg(desc->layers.size())
                    .arg(QLocale().toString(qlonglong(desc->params())));
    }
    return line;
}

QString SpecSummary::optimizerLine(const v1::TrainingSpec& t) {
    const QString name = t.optimizer().empty() ? QStringLiteral("sgd") : qs(t.optimizer());
    QString line = name == QLatin1String("adamw")
                       ? tr("Optimizer: adamw, learning rate %1, weight decay %2")
                             .arg(QLocale().toString(t.learning_rate()))
                             .arg(QLocale().toString(t.weight_decay()))
                       : tr("Optimizer: %1, learning rate %2, momentum %3, weight decay %4")
                             .arg(name)
                             .arg(QLocale().toString(t.learning_rate()))
                             .arg(QLocale().toString(t.momentum()))
                             .arg(QLocale().toString(t.weight_decay()));
    if (t.lr_schedule() == "cosine") {
        line += tr(", cosine schedule");
    }
    if (t.warmup_steps() > 0) {
        line += tr(", %1 warm-up steps").arg(t.warmup_steps());
    }
    if (t.grad_clip() > 0) {
        line += tr(", gradient norm clipped to %1").arg(QLocale().toString(t.grad_clip()));
    }
    return line;
}

QString SpecSummary::layoutLine(const v1::Layout& l) {
    QString line = tr("Layout: data parallel %1, tensor parallel %2, %3 pipeline stage(s)")
                       .arg(l.data_parallel())
                       .arg(std::max(1, l.tensor_parallel()))
                       .arg(pipelineRanks(l));
    if (l.stages_size() > 1) {
        QStringList ranges;
        for (const auto& s : l.stages()) {
            ranges << QStringLiteral("%1–%2").arg(s.first_layer()).arg(s.last_layer());
        }
        const QString schedule =
            l.schedule() == v1::PIPELINE_SCHEDULE_GPIPE   ? QStringLiteral("GPipe")
            : l.schedule() == v1::PIPELINE_SCHEDULE_ZB_H1 ? QStringLiteral("ZB-H1")
            : l.schedule() == v1::PIPELINE_SCHEDULE_INTERLEAVED
                ? QStringLiteral("interleaved 1F1B, V = %1").arg(std::max(1, l.virtual_stages()))
                : QStringLiteral("1F1B");
        line += tr(" (layers %1; %2 micro-batches, %3)")
                    .arg(ranges.join(QStringLiteral(", ")))
                    .arg(std::max(1, l.micro_batches()))
                    .arg(schedule);
    }
    if (l.zero_stage() == 1) {
        line += tr(", ZeRO-1");
    }
    return line;
}

QString SpecSummary::text(const v1::JobSpec& spec) {
    QStringList lines;
    lines << tr("Name: %1").arg(spec.name().empty() ? tr("(unnamed)") : qs(spec.name()));
    lines << modelLine(spec.model());
    lines << tr("Dataset: %1 (%2)").arg(qs(spec.dataset().name()), qs(datasetDir(spec)));

    const v1::TrainingSpec& t = spec.training();
    QString length = tr("%1 epoch(s)").arg(t.epochs());
    if (t.max_steps() > 0) {
        length += tr(", at most %1 steps").arg(t.max_steps());
    }
    lines << tr("Training: %1, global batch %2").arg(length).arg(t.global_batch());
    lines << optimizerLine(t);
    lines << tr("Seed %1, metrics every %2 step(s)").arg(t.seed()).arg(std::max(1, t.log_every()));
    lines << layoutLine(spec.layout());
    lines << tr("World size: %1 rank(s)").arg(worldSize(spec.layout()));
    return lines.join(QLatin1Char('\n'));
}

} // namespace tessera
