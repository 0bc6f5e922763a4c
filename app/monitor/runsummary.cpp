// Texts of a run for the Runs table and the monitor's heading (see runsummary.h).
#include "app/monitor/runsummary.h"

#include "worker/common/spec_io.h"

#include "tessera/v1/job.pb.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace tessera {

qint64 RunSummary::durationMs(qint64 nowMs) const {
    if (startMs <= 0) {
        return -1;
    }
    return std::max<qint64>(0, (finishMs > 0 ? finishMs : nowMs) - startMs);
}

RunSummary RunText::summarize(const JobRecord& job) {
    RunSummary run;
    if (auto spec = parseJobSpec(job.specJson.toStdString(), job.id.toStdString())) {
        run = summarize(job.id, *spec, job.state);
    }
    run.id = job.id;
    run.name = job.name;
    run.state = job.state;
    run.finalLoss = job.lastLoss;
    run.finalAccuracy = job.testAccuracy;
    run.startMs = job.startedMs > 0 ? job.startedMs : job.submittedMs;
    run.finishMs = job.finishedMs;
    if (job.startedMs <= 0 && job.finishedMs > 0) {
        run.finishMs = 0; // never ran: no duration
    }
    return run;
}

RunSummary RunText::summarize(const QString& id, const v1::JobSpec& spec, JobState state) {
    RunSummary run;
    run.id = id;
    run.name = QString::fromStdString(spec.name());
    run.layout = layoutText(spec);
    run.shortLayout = shortLayoutText(spec);
    run.state = state;
    return run;
}

namespace {
struct Degrees {
    int dp = 1, pp = 1, tp = 1;
};
Degrees degrees(const v1::JobSpec& spec) {
    const v1::Layout& layout = spec.layout();
    int placed = 0;
    for (const auto& slot : spec.placement().slots()) {
        placed += slot.ranks();
    }
    Degrees d;
    d.pp = pipelineRanks(layout);
    d.tp = std::max(1, layout.tensor_parallel());
    d.dp = layout.data_parallel();
    if (d.dp <= 0) { // an empty layout: data parallel over every placed rank
        d.dp = placed > 0 && layout.stages_size() == 0 && d.tp == 1 ? placed : 1;
    }
    return d;
}
} // namespace

QString RunText::layoutText(const v1::JobSpec& spec) {
    const Degrees d = degrees(spec);
    return QStringLiteral("DP%1 × PP%2 × TP%3").arg(d.dp).arg(d.pp).arg(d.tp);
}

QString RunText::shortLayoutText(const v1::JobSpec& spec) {
    const Degrees d = degrees(spec);
    QStringList parts;
    if (d.dp > 1) {
        parts << QStringLiteral("DP%1").arg(d.dp);
    }
    if (d.pp > 1) {
        parts << QStringLiteral("PP%1").arg(d.pp);
    }
    if (d.tp > 1) {
        parts << QStringLiteral("TP%1").arg(d.tp);
    }
    return parts.isEmpty() ? QStringLiteral("DP1") : parts.join(QStringLiteral(" × "));
}

QString RunText::stateText(JobState state) {
    return jobStateText(state); // translated in the context tessera::StateText
}

QString RunText::durationText(qint64 ms) {
    if (ms < 0) {
        return QStringLiteral("–");
    }
    const qint64 s = ms / 1000;
    if (s < 60) {
        return tr("%1 s").arg(s);
    }
    const QLatin1Char zero('0');
    if (s < 3600) {
        return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, zero);
    }
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg(s / 60 % 60, 2, 10, zero)
        .arg(s % 60, 2, 10, zero);
}

QString RunText::numberText(double value) {
    return std::isnan(value) ? QStringLiteral("–") : QLocale().toString(value, 'g', 4);
}

QString RunText::dateTimeText(qint64 ms) {
    if (ms <= 0) {
        return QStringLiteral("–");
    }
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
}

QString RunText::headingText(const RunSummary& run) {
    QStringList parts{run.id};
    if (!run.name.isEmpty()) {
        parts << run.name;
    }
    if (!run.layout.isEmpty()) {
        parts << run.layout;
    }
    parts << stateText(run.state);
    return parts.join(QStringLiteral(" · "));
}

QString RunText::legendLabel(const RunSummary& run, int maxChars) {
    QString when;
    if (run.startMs > 0) {
        when = QDateTime::fromMSecsSinceEpoch(run.startMs).toString(QStringLiteral("MM-dd hh:mm"));
    }
    QString label = when.isEmpty() ? run.title() : when + QLatin1Char(' ') + run.title();
    if (maxChars > 1 && label.size() > maxChars) {
        label = label.left(maxChars - 1).trimmed() + QChar(0x2026); // "…"
    }
    return label;
}

} // namespace tessera
