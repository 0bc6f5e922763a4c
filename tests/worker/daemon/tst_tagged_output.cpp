// TaggedOutput: mpirun --tag-output pieces, cut anywhere and interleaved between ranks, come out
// as each rank's whole lines; text that only looks like a tag stays text.
#include "worker/daemon/output/tagged_output.h"

#include <QTest>

#include <random>
#include <string>
#include <utility>
#include <vector>

using tessera::daemon::TaggedOutput;

namespace {

using Lines = std::vector<std::pair<int, std::string>>;

/// Feeds `chunks` in order (stream "stdout", lines up to `maxLine` bytes) and finishes.
Lines split(const std::vector<std::string>& chunks, std::size_t maxLine = 1 << 20) {
    Lines out;
    TaggedOutput demux("stdout", maxLine,
                       [&out](int rank, const std::string& line) { out.emplace_back(rank, line); });
    for (const std::string& c : chunks) {
        demux.feed(c);
    }
    demux.finish();
    return out;
}

std::string tag(int rank) {
    return "[1," + std::to_string(rank) + "]<stdout>:";
}

} // namespace

class TestTaggedOutput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void untaggedTextIsMpirunsOwn() {
        const Lines got = split({"mpirun noticed that process rank 1 exited\nsecond line\n"});
        QCOMPARE(got,
                 (Lines{{-1, "mpirun noticed that process rank 1 exited"}, {-1, "second line"}}));
    }

    void linesCutByOtherRanksArePutTogether() {
        // The pattern Open MPI really writes (4 ranks, 700-byte records): a piece of rank 0 ends
        // inside its line, rank 1's piece comes, then the rest of rank 0's line, tagged again.
        const Lines got = split({tag(0) + "@tessera {\"step\":5,\"pad\":\"xx" + tag(1) +
                                 "@tessera {\"step\":0}\n" + tag(1) + "@tessera {\"step\":1}\n" +
                                 tag(0) + "yy\"}\n"});
        QCOMPARE(got, (Lines{{1, "@tessera {\"step\":0}"},
                             {1, "@tessera {\"step\":1}"},
                             {0, "@tessera {\"step\":5,\"pad\":\"xxyy\"}"}}));
    }

    void tagsCutBetweenReadsStillCount() {
        const std::string stream = tag(12) + "hello\n" + tag(3) + "world\n";
        std::vector<std::string> bytes;
        for (char c : stream) {
            bytes.emplace_back(1, c);
        }
        QCOMPARE(split(bytes), (Lines{{12, "hello"}, {3, "world"}}));
    }

    void lookAlikesAreText_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("bracket") << QStringLiteral("a [b] c");
        QTest::newRow("no rank") << QStringLiteral("[1,]<stdout>:x");
        QTest::newRow("letters") << QStringLiteral("[1,x]<stdout>:x");
        QTest::newRow("other stream") << QStringLiteral("[1,2]<stderr>:x");
        QTest::newRow("no colon") << QStringLiteral("[1,2]<stdout>x");
        QTest::newRow("ten digits") << QStringLiteral("[1,1234567890]<stdout>:x");
        QTest::newRow("nested") << QStringLiteral("[[[1,2]<stdou");
    }
    void lookAlikesAreText() {
        QFETCH(QString, text);
        const std::string t = text.toStdString();
        QCOMPARE(split({tag(4) + t + "\n"}), (Lines{{4, t}}));
    }

    void aTagInsideALookAlikeCounts() {
        // "x[" then a real tag: the '[' is mpirun's text, the tag starts rank 2's line.
        QCOMPARE(split({"x[" + tag(2) + "y\n"}), (Lines{{2, "y"}, {-1, "x["}}));
    }

    void longLinesComeInPieces() {
        QCOMPARE(split({tag(0) + std::string(10, 'a') + "\n"}, 4),
                 (Lines{{0, "aaaa"}, {0, "aaaa"}, {0, "aa"}}));
    }

    void finishPassesUnfinishedLinesOn() {
        QCOMPARE(split({tag(1) + "partial", tag(0) + "other"}),
                 (Lines{{0, "other"}, {1, "partial"}}));
        QCOMPARE(split({"[1,2]<std"}), (Lines{{-1, "[1,2]<std"}}));
    }

    void randomPiecesOfManyRanks() {
        // Four ranks each print 300 lines; their output is cut into random pieces that are
        // interleaved at random, each piece (and each line in it) tagged as mpirun does.
        std::mt19937 random(7);
        const int ranks = 4, perRank = 300;
        std::vector<std::string> pending(ranks);
        std::vector<int> printed(ranks, 0);
        std::vector<std::string> chunks;
        std::string out;
        const auto emitPiece = [&](int r, std::size_t n) {
            std::string piece = pending[r].substr(0, n);
            pending[r].erase(0, n);
            std::string tagged = tag(r);
            for (std::size_t i = 0; i < piece.size(); ++i) {
                tagged += piece[i];
                if (piece[i] == '\n' && i + 1 < piece.size()) {
                    tagged += tag(r);
                }
            }
            out += tagged;
        };
        while (true) {
            const int r = int(random() % ranks);
            if (printed[r] < perRank && random() % 2) {
                pending[r] += "@tessera {\"step\":" + std::to_string(printed[r]) +
                              ",\"rank\":" + std::to_string(r) + ",\"pad\":\"" +
                              std::string(random() % 900, 'x') + "\"}\n";
                ++printed[r];
            }
            if (!pending[r].empty()) {
                emitPiece(r, 1 + random() % pending[r].size());
            }
            bool done = true;
            for (int k = 0; k < ranks; ++k) {
                done = done && printed[k] == perRank && pending[k].empty();
            }
            if (done) {
                break;
            }
        }
        // … and read back in reads of random sizes.
        for (std::size_t at = 0; at < out.size();) {
            const std::size_t n = std::min<std::size_t>(out.size() - at, 1 + random() % 5000);
            chunks.push_back(out.substr(at, n));
            at += n;
        }
        std::vector<int> next(ranks, 0);
        for (const auto& [rank, line] : split(chunks)) {
            QVERIFY(rank >= 0 && rank < ranks);
            const std::string want = "@tessera {\"step\":" + std::to_string(next[rank]) +
                                     ",\"rank\":" + std::to_string(rank) + ",\"pad\":\"";
            QVERIFY2(line.rfind(want, 0) == 0 && line.back() == '}', line.substr(0, 80).c_str());
            ++next[rank];
        }
        QCOMPARE(next, std::vector<int>(ranks, perRank));
    }
};

QTEST_GUILESS_MAIN(TestTaggedOutput)
#include "tst_tagged_output.moc"
