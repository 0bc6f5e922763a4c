// Unit test of checkpoint shards and manifests: round trip, truncated and modified files,
// interrupted writes (no manifest, leftover temp files) and layout mismatches.
#include "worker/train/checkpoint.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tessera;
using namespace tessera::train;

namespace {

RankCheckpoint sample(int rank, std::int64_t step) {
    RankCheckpoint c;
    c.rank = rank;
    c.layout = "gpt dp2 pp2 tp1 stage" + std::to_string(rank % 2);
    c.step = step;
    c.position = {2, 17, 17 * 64};
    c.rngState = "123 456 789";
    CheckpointSection params{"params", {}};
    for (int i = 0; i < 1000; ++i) {
        params.data.push_back(float(i) * 0.25f - float(rank));
    }
    c.sections = {params, {"exp_avg", {1.0f, 2.0f}}, {"empty", {}}};
    return c;
}

/// Writes every rank's shard and the manifest of `step`, as the trainer does.
void writeStep(const std::string& dir, std::int64_t step, int ranks) {
    for (int r = 0; r < ranks; ++r) {
        auto w = writeRankCheckpoint(dir, sample(r, step));
        QVERIFY2(w.has_value(), w ? "" : w.error().message.c_str());
    }
    CheckpointManifest m{"gpt dp2 pp2 tp1", ranks, step, {2, 17, 17 * 64}};
    auto w = writeCheckpointManifest(dir, m);
    QVERIFY2(w.has_value(), w ? "" : w.error().message.c_str());
}

QString shardPath(const std::string& dir, std::int64_t step, int rank) {
    return QString::fromStdString(checkpointStepDir(dir, step)) +
           QStringLiteral("/rank-%1.bin").arg(rank);
}

} // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTrip() {
        QTemporaryDir tmp;
        const std::string dir = tmp.filePath("ckpt").toStdString();
        writeStep(dir, 40, 2);
        for (int r = 0; r < 2; ++r) {
            const RankCheckpoint want = sample(r, 40);
            auto got = readRankCheckpoint(checkpointStepDir(dir, 40), r, want.layout);
            QVERIFY2(got.has_value(), got ? "" : got.error().message.c_str());
            QCOMPARE(got->rank, r);
            QCOMPARE(got->layout, want.layout);
            QCOMPARE(got->step, 40);
            QVERIFY(got->position == want.position);
            QCOMPARE(got->rngState, want.rngState);
            QCOMPARE(int(got->sections.size()), 3);
            QVERIFY(got->find("params")->data == want.sections[0].data);
            QVERIFY(got->find("exp_avg")->data == want.sections[1].data);
            QVERIFY(got->find("empty")->data.empty());
            QVERIFY(got->find("nope") == nullptr);
        }
        auto m = readCheckpointManifest(checkpointStepDir(dir, 40));
        QVERIFY(m.has_value());
        QCOMPARE(m->layout, std::string("gpt dp2 pp2 tp1"));
        QCOMPARE(m->worldSize, 2);
        QCOMPARE(m->step, 40);
        QVERIFY((m->position == DataPosition{2, 17, 17 * 64}));
        // No temp files left behind.
        const QStringList files = QDir(QString::fromStdString(checkpointStepDir(dir, 40)))
                                      .entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, QStringList({"manifest.json", "rank-0.bin", "rank-1.bin"}));
    }

    void layoutWithQuotesAndNewlines() {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        CheckpointManifest m{"odd \"layout\"\n\\ tab\t", 1, 3, {}};
        QVERIFY(writeCheckpointManifest(dir, m).has_value());
        auto back = readCheckpointManifest(checkpointStepDir(dir, 3));
        QVERIFY2(back.has_value(), back ? "" : back.error().message.c_str());
        QCOMPARE(back->layout, m.layout);
    }

    void corruptShards_data() {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << "truncate";
        QTest::newRow("flipped byte in data") << "flip-data";
        QTest::newRow("flipped byte in header") << "flip-header";
        QTest::newRow("not a checkpoint") << "garbage";
        QTest::newRow("empty") << "empty";
    }

    void corruptShards() {
        QFETCH(QString, damage);
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeStep(dir, 5, 1);
        const QString path = shardPath(dir, 5, 0);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        if (damage == "truncate") {
            bytes.chop(bytes.size() / 3);
        } else if (damage == "flip-data") {
            bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x10);
        } else if (damage == "flip-header") {
            bytes[20] = char(bytes[20] ^ 0x01); // inside the step field
        } else if (damage == "garbage") {
            bytes = "hello";
        } else {
            bytes.clear();
        }
        f.resize(0);
        f.seek(0);
        f.write(bytes);
        f.close();
        auto got = readRankCheckpoint(checkpointStepDir(dir, 5), 0);
        QVERIFY(!got.has_value());
        QCOMPARE(got.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(got.error().message.find("corrupt or partial checkpoint") != std::string::npos &&
                     got.error().message.find(path.toStdString()) != std::string::npos,
                 got.error().message.c_str());
    }

    void missingShardAndWrongRank() {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeStep(dir, 5, 1);
        auto missing = readRankCheckpoint(checkpointStepDir(dir, 5), 3);
        QVERIFY(!missing.has_value());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(missing.error().message.find("rank-3.bin") != std::string::npos);
        // A shard copied under another rank's name is refused.
        QVERIFY(QFile::copy(shardPath(dir, 5, 0), shardPath(dir, 5, 1)));
        auto wrong = readRankCheckpoint(checkpointStepDir(dir, 5), 1);
        QVERIFY(!wrong.has_value());
        QVERIFY(wrong.error().message.find("holds rank 0") != std::string::npos);
    }

    void layoutMismatch() {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeStep(dir, 5, 1);
        auto got = readRankCheckpoint(checkpointStepDir(dir, 5), 0, "vit dp4");
        QVERIFY(!got.has_value());
        QCOMPARE(got.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(got.error().message.find("gpt dp2 pp2 tp1 stage0") != std::string::npos &&
                     got.error().message.find("vit dp4") != std::string::npos,
                 got.error().message.c_str());
        QVERIFY(checkLayoutMatches("x", "a", "a").has_value());
        QVERIFY(!checkLayoutMatches("x", "a", "b").has_value());
    }

    void latestSkipsIncompleteSteps() {
        QTemporaryDir tmp;
        const std::string dir = tmp.filePath("ckpt").toStdString();
        auto none = latestCheckpoint(dir); // folder does not exist yet
        QVERIFY(none.has_value() && !none->has_value());
        writeStep(dir, 10, 2);
        writeStep(dir, 20, 2);
        // step 30: shards written, manifest not (the job died before rank 0 wrote it).
        QVERIFY(writeRankCheckpoint(dir, sample(0, 30)).has_value());
        // step 40: a manifest cut short by hand (a crash mid-write without the atomic rename).
        QDir().mkpath(QString::fromStdString(checkpointStepDir(dir, 40)));
        QFile bad(QString::fromStdString(checkpointStepDir(dir, 40)) + "/manifest.json");
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"tessera-checkp");
        bad.close();
        // step 50: only a leftover temp manifest (crash before the rename).
        QDir().mkpath(QString::fromStdString(checkpointStepDir(dir, 50)));
        QFile tmpManifest(QString::fromStdString(checkpointStepDir(dir, 50)) +
                          "/manifest.json.tmp.4242");
        QVERIFY(tmpManifest.open(QIODevice::WriteOnly));
        tmpManifest.write("{}");
        tmpManifest.close();
        // Unrelated entries.
        QDir().mkpath(tmp.filePath("ckpt/step-x"));
        QFile(tmp.filePath("ckpt/step-99")).open(QIODevice::WriteOnly); // a file, not a folder

        auto latest = latestCheckpoint(dir);
        QVERIFY(latest.has_value() && latest->has_value());
        QCOMPARE(**latest, checkpointStepDir(dir, 20));
        auto resolved = resolveCheckpoint(dir);
        QVERIFY(resolved.has_value());
        QCOMPARE(*resolved, checkpointStepDir(dir, 20));
        auto direct = resolveCheckpoint(checkpointStepDir(dir, 10));
        QVERIFY(direct.has_value());
        QCOMPARE(*direct, checkpointStepDir(dir, 10));
        auto broken = resolveCheckpoint(checkpointStepDir(dir, 40));
        QVERIFY(!broken.has_value());
        auto empty = resolveCheckpoint(tmp.filePath("nothing").toStdString());
        QVERIFY(!empty.has_value());
        QCOMPARE(empty.error().code, ErrorCode::NotFound);
    }

    void leftoverTempShardIgnored() {
        // A crash after writing rank-0.bin.tmp.N but before the rename leaves the old shard.
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        writeStep(dir, 7, 1);
        QFile leftover(shardPath(dir, 7, 0) + ".tmp.999");
        QVERIFY(leftover.open(QIODevice::WriteOnly));
        leftover.write("partial");
        leftover.close();
        auto got = readRankCheckpoint(checkpointStepDir(dir, 7), 0);
        QVERIFY(got.has_value());
        QVERIFY(got->find("params")->data == sample(0, 7).sections[0].data);
        // Rewriting the same step replaces the shard atomically.
        RankCheckpoint again = sample(0, 7);
        again.rngState = "new";
        QVERIFY(writeRankCheckpoint(dir, again).has_value());
        QCOMPARE(readRankCheckpoint(checkpointStepDir(dir, 7), 0)->rngState, std::string("new"));
    }

    void unwritableFolder() {
        QTemporaryDir tmp;
        QFile blocker(tmp.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        auto w = writeRankCheckpoint(tmp.filePath("file/sub").toStdString(), sample(0, 1));
        QVERIFY(!w.has_value());
        QCOMPARE(w.error().code, ErrorCode::Io);
        QVERIFY(w.error().message.find("file/sub") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "test_checkpoint.moc"
