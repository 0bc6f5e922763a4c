// TESSERA_LAYOUT_FILE of a user program (worker/daemon/jobs/user_program.h layoutFileJson): the
// ranks of every stage — every model chunk under the interleaved schedule — in the order
// rank = ((dp·PP + stage)·CP + cp)·TP + tp, and the degrees a program reads back.
#include "worker/daemon/jobs/user_program.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tessera;
using namespace tessera::daemon;

namespace {

/// A user program's launch over `world` ranks (one peer holding them all).
v1::LaunchJobRequest request(const v1::Layout& layout, int world) {
    v1::LaunchJobRequest r;
    r.mutable_spec()->set_job_id("job-layout");
    r.mutable_spec()->mutable_model()->add_command("/bin/true");
    *r.mutable_spec()->mutable_layout() = layout;
    auto* peer = r.add_peers();
    peer->set_slots(world);
    return r;
}

void addChunks(v1::Layout& l, std::initializer_list<std::pair<int, int>> ranges) {
    for (auto [first, last] : ranges) {
        auto* s = l.add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
    }
}

QJsonObject parse(const Result<std::string>& json) {
    return json ? QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object()
                : QJsonObject();
}

QList<int> ranksOf(const QJsonObject& stage) {
    QList<int> out;
    for (const QJsonValue v : stage.value("ranks").toArray()) {
        out << v.toInt();
    }
    return out;
}

} // namespace

class TestLayoutFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// DP 2 × PP 2 (2 chunks each) × CP 2 × TP 1 = 8 ranks: chunk j on stage j mod 2.
    void interleavedChunksWithContextParallel() {
        v1::Layout l;
        l.set_data_parallel(2);
        l.set_context_parallel(2);
        l.set_expert_parallel(4);
        l.set_virtual_stages(2);
        l.set_schedule(v1::PIPELINE_SCHEDULE_INTERLEAVED);
        addChunks(l, {{0, 2}, {3, 5}, {6, 8}, {9, 11}});
        const Result<std::string> json = layoutFileJson(request(l, 8));
        QVERIFY2(json.has_value(), json ? "" : json.error().message.c_str());
        const QJsonObject o = parse(json);
        QCOMPARE(o.value("worldSize").toInt(), 8);
        QCOMPARE(o.value("pipelineParallel").toInt(), 2);
        QCOMPARE(o.value("virtualStages").toInt(), 2);
        QCOMPARE(o.value("contextParallel").toInt(), 2);
        QCOMPARE(o.value("expertParallel").toInt(), 4);
        QCOMPARE(o.value("schedule").toString(), QStringLiteral("interleaved"));
        const QJsonArray stages = o.value("stages").toArray();
        QCOMPARE(stages.size(), 4);
        // Stage 0: dp 0 → ranks 0, 1 (cp 0, 1); dp 1 → ((1·2 + 0)·2 + cp) = 4, 5.
        QCOMPARE(stages[0].toObject().value("stage").toInt(), 0);
        QCOMPARE(ranksOf(stages[0].toObject()), (QList<int>{0, 1, 4, 5}));
        QCOMPARE(stages[1].toObject().value("stage").toInt(), 1);
        QCOMPARE(ranksOf(stages[1].toObject()), (QList<int>{2, 3, 6, 7}));
        QCOMPARE(stages[2].toObject().value("stage").toInt(), 0); // chunk 2 back on stage 0
        QCOMPARE(stages[2].toObject().value("firstLayer").toInt(), 6);
        QCOMPARE(ranksOf(stages[2].toObject()), (QList<int>{0, 1, 4, 5}));
        QVERIFY(o.value("rankOrder").toString().contains("contextParallel + cp"));
    }

    /// The peers must hold DP × PP × CP × TP ranks: CP counts, virtual stages do not.
    void worldCountsContextNotChunks() {
        v1::Layout l;
        l.set_data_parallel(1);
        l.set_context_parallel(2);
        l.set_virtual_stages(2);
        l.set_schedule(v1::PIPELINE_SCHEDULE_INTERLEAVED);
        addChunks(l, {{0, 1}, {2, 3}, {4, 5}, {6, 7}});
        QVERIFY(layoutFileJson(request(l, 4)).has_value());
        const Result<std::string> wrong = layoutFileJson(request(l, 8));
        QVERIFY(!wrong.has_value());
        QVERIFY2(wrong.error().message.find("CP 2") != std::string::npos,
                 wrong.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLayoutFile)
#include "tst_layout_file.moc"
