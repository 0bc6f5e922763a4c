// Op-timeline records → Gantt boxes (see measuredtimeline.h).
#include "app/monitor/measuredtimeline.h"

#include "backend/core/jobtypes.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

constexpr int kKeptSteps = 3;     // the newest steps kept (one may still be arriving)
constexpr int kMaxStages = 1024;  // a larger stage number is a broken record, not a row to draw
constexpr int kMaxMicro = 100000; // likewise for micro_batches

bool finiteValue(const QHash<QString, double>& values, const QString& key, double* out) {
    const auto it = values.constFind(key);
    if (it == values.cend() || !std::isfinite(it.value())) {
        return false;
    }
    *out = it.value();
    return true;
}

} // namespace

void MeasuredTimeline::setStages(int stages) {
    m_stages = std::max(0, stages);
}

void MeasuredTimeline::clear() {
    m_steps.clear();
    m_ignored.clear();
    m_maxStage = -1;
}

bool MeasuredTimeline::addPoint(const MetricPoint& point) {
    double marker = 0;
    if (!finiteValue(point.values, QStringLiteral("timeline"), &marker) || marker != 1.0) {
        return false;
    }
    double stage = -1, anchor = 0;
    if (!finiteValue(point.values, QStringLiteral("stage"), &stage)) {
        m_ignored[point.step] << tr("a record of rank %1 names no stage (ignored)").arg(point.rank);
    } else if (stage < 0 || stage >= (m_stages > 0 ? m_stages : kMaxStages)) {
        m_ignored[point.step] << tr("a record of rank %1 for stage %2, which the layout does not "
                                    "have (ignored)")
                                     .arg(point.rank)
                                     .arg(stage);
    } else if (!finiteValue(point.values, QStringLiteral("anchor_us"), &anchor)) {
        m_ignored[point.step] << tr("the record of stage %1 has no anchor_us (ignored)").arg(stage);
    } else {
        m_steps[point.step].insert(int(stage), Record{point.rank, anchor, point.values});
        m_maxStage = std::max(m_maxStage, int(stage));
    }
    while (m_steps.size() > kKeptSteps) {
        m_steps.erase(m_steps.begin());
    }
    while (m_ignored.size() > kKeptSteps || (!m_ignored.isEmpty() && !m_steps.isEmpty() &&
                                             m_ignored.firstKey() < m_steps.firstKey())) {
        m_ignored.erase(m_ignored.begin());
    }
    return true;
}

int MeasuredTimeline::stages() const {
    return m_stages > 0 ? m_stages : m_maxStage + 1;
}

bool MeasuredTimeline::complete(qint64 step) const {
    const auto it = m_steps.constFind(step);
    return it != m_steps.cend() && it->size() >= stages();
}

qint64 MeasuredTimeline::shownStep() const {
    for (auto it = m_steps.cend(); it != m_steps.cbegin();) {
        --it;
        if (complete(it.key())) {
            return it.key();
        }
    }
    if (!m_steps.isEmpty()) {
        return m_steps.lastKey();
    }
    return m_ignored.isEmpty() ? -1 : m_ignored.lastKey();
}

int MeasuredTimeline::reportedStages() const {
    return int(m_steps.value(shownStep()).size());
}

void MeasuredTimeline::opsOf(const Record& record, int stage, double offsetUs,
                             std::vector<GanttBox>* boxes, QStringList* problems) const {
    // f<m>, b<m>, w<m> (ZB-H1's weight gradient), with c<c> for model chunk c > 0.
    static const QRegularExpression startKey(QStringLiteral("^([fbw])(\\d+)(c(\\d+))?_start_us$"));
    int found = 0, broken = 0;
    for (auto it = record.values.cbegin(); it != record.values.cend(); ++it) {
        const QRegularExpressionMatch m = startKey.match(it.key());
        if (!m.hasMatch()) {
            continue;
        }
        const QString letter = m.captured(1);
        const int micro = m.captured(2).toInt();
        const int chunk = m.captured(4).isEmpty() ? 0 : m.captured(4).toInt();
        const QString endKey = letter + m.captured(2) + m.captured(3) + QStringLiteral("_end_us");
        double end = 0;
        if (!std::isfinite(it.value()) || !finiteValue(record.values, endKey, &end) ||
            end < it.value()) {
            ++broken;
            continue;
        }
        ++found;
        const bool weight = letter == QLatin1String("w");
        boxes->push_back({stage, micro, letter != QLatin1String("f"),
                          (offsetUs + it.value()) * 1e-6, (offsetUs + end) * 1e-6, chunk, weight});
    }
    double micro = 0;
    if (!finiteValue(record.values, QStringLiteral("micro_batches"), &micro) || micro < 1 ||
        micro > kMaxMicro) {
        problems->append(tr("stage %1: the record has no micro_batches").arg(stage));
        return;
    }
    double chunks = 1, weights = 0;
    if (!finiteValue(record.values, QStringLiteral("chunks"), &chunks) || chunks < 1 ||
        chunks > kMaxStages) {
        chunks = 1;
    }
    finiteValue(record.values, QStringLiteral("weight_grads"), &weights);
    const int ops = (weights == 1.0 ? 3 : 2) * int(micro) * int(chunks);
    if (found < ops || broken > 0) {
        problems->append(tr("stage %1: %2 of %3 forward/backward ops missing or invalid")
                             .arg(stage)
                             .arg(std::max(ops - found, broken))
                             .arg(ops));
    }
}

std::vector<GanttBox> MeasuredTimeline::boxes() const {
    std::vector<GanttBox> out;
    const auto it = m_steps.constFind(shownStep());
    if (it == m_steps.cend() || it->isEmpty()) {
        return out;
    }
    double earliest = it->cbegin()->anchorUs;
    for (const Record& r : *it) {
        earliest = std::min(earliest, r.anchorUs);
    }
    QStringList ignored;
    for (auto s = it->cbegin(); s != it->cend(); ++s) {
        opsOf(*s, s.key(), s->anchorUs - earliest, &out, &ignored);
    }
    std::sort(out.begin(), out.end(), [](const GanttBox& a, const GanttBox& b) {
        return a.stage != b.stage ? a.stage < b.stage : a.start < b.start;
    });
    return out;
}

QStringList MeasuredTimeline::problems() const {
    const qint64 step = shownStep();
    if (step < 0) {
        return {};
    }
    QStringList out = m_ignored.value(step);
    const QMap<int, Record> records = m_steps.value(step);
    for (int s = 0; s < stages(); ++s) {
        if (!records.contains(s)) {
            out << tr("stage %1 sent no timeline for step %2").arg(s).arg(step);
        }
    }
    std::vector<GanttBox> unused;
    for (auto it = records.cbegin(); it != records.cend(); ++it) {
        opsOf(*it, it.key(), 0, &unused, &out);
    }
    if (!m_steps.isEmpty() && m_steps.lastKey() > step) {
        out << tr("step %1 is incomplete so far (%2 of %3 stages)")
                   .arg(m_steps.lastKey())
                   .arg(m_steps.last().size())
                   .arg(stages());
    }
    return out;
}

} // namespace tessera
