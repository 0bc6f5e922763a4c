// Unit test of the trainer's datasets: the character-level text dataset (UTF-8 validation,
// vocabulary, windows, splits, encode/decode, errors) and Fashion-MNIST behind Dataset.
#include "worker/train/dataset.h"
#include "worker/train/fashion_mnist.h"
#include "worker/train/text_dataset.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;
using namespace tessera::train;

namespace {

std::string writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        return {};
    }
    return path.toStdString();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestDatasets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void multibyteText() {
        QTemporaryDir dir;
        // 13 characters, 17 bytes ("é", "ö" 2 bytes, "✓" 3 bytes), repeated to 130 characters.
        QByteArray text;
        for (int i = 0; i < 10; ++i) {
            text += "héllo wörld ✓";
        }
        const std::string path = writeFile(dir, "t.txt", text);
        auto d = TextDataset::load(path, 4);
        QVERIFY2(d.has_value(), d ? "" : d.error().message.c_str());
        const TextDataset& ds = **d;
        QCOMPARE(ds.characters(), 130);
        QCOMPARE(ds.trainCharacters(), 117); // floor(0.9 · 130)
        // Sorted distinct code points: ' ' d h l o r w é ö ✓.
        const std::vector<char32_t> vocab = {U' ', U'd', U'h', U'l', U'o',
                                             U'r', U'w', U'é', U'ö', U'✓'};
        QVERIFY(ds.vocabulary() == vocab);
        QCOMPARE(ds.classes(), 10);
        QCOMPARE(ds.inputSize(), 4);
        QCOMPARE(ds.rowsPerSample(), 4);
        QCOMPARE(ds.size(Split::Train), (117 - 1) / 4);
        QCOMPARE(ds.size(Split::Test), (13 - 1) / 4);
        QCOMPARE(QString::fromStdString(ds.name()), "text:" + QString::fromStdString(path));

        // Train sample 1 = characters 4..8 ("o wö"), labels shifted by one (" wör").
        const int idx[] = {1, 0};
        std::vector<float> x(8), y(8);
        ds.fill(Split::Train, idx, 2, x.data(), y.data());
        auto str = [&](const float* ids) {
            std::vector<int> v(ids, ids + 4);
            return QString::fromStdString(ds.decode(v));
        };
        QCOMPARE(str(x.data()), QStringLiteral("o wö"));
        QCOMPARE(str(y.data()), QStringLiteral(" wör"));
        QCOMPARE(str(x.data() + 4), QStringLiteral("héll"));
        QCOMPARE(str(y.data() + 4), QStringLiteral("éllo"));
        // Test sample 0 starts at character 117 = index 0 of the 10th repetition ("héllo...").
        const int t0 = 0;
        ds.fill(Split::Test, &t0, 1, x.data(), y.data());
        QCOMPARE(str(x.data()), QString::fromUtf8("héllo wörld ✓").mid(117 % 13, 4));

        auto ids = ds.encode("wörld ✓");
        QVERIFY(ids.has_value());
        QCOMPARE(QString::fromStdString(ds.decode(*ids)), QStringLiteral("wörld ✓"));
        auto missing = ds.encode("x");
        QVERIFY(!missing.has_value());
        QVERIFY(contains(missing.error().message, "U+0078"));
        const std::vector<int> bad = {99};
        QCOMPARE(QString::fromStdString(ds.decode(bad)), QString(QChar(0xFFFD)));
    }

    void windowsCoverTrainSplitOnce() {
        std::string text;
        for (int i = 0; i < 1000; ++i) {
            text += char('a' + i % 26);
        }
        auto d = TextDataset::fromText(text, 8, "mem");
        QVERIFY(d.has_value());
        const auto& ds = **d;
        QCOMPARE(ds.size(Split::Train), (900 - 1) / 8);
        // Consecutive windows share exactly one character: sample i's last label is sample
        // i+1's first input.
        std::vector<float> x(16), y(16);
        const int idx[] = {3, 4};
        ds.fill(Split::Train, idx, 2, x.data(), y.data());
        QCOMPARE(y[7], x[8]);
        QCOMPARE(int(x[0]), int((3 * 8) % 26)); // 'a' + 24 → id 24 (vocab = a..z)
        // The last train window ends inside the train split.
        const int last = int(ds.size(Split::Train)) - 1;
        QVERIFY(std::int64_t(last) * 8 + 8 < ds.trainCharacters());
    }

    void badUtf8_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("offset");
        QByteArray good(200, 'a');
        QTest::newRow("stray continuation") << good + QByteArray("\x80") << 200;
        QTest::newRow("truncated 2-byte at end") << good + QByteArray("\xC3") << 200;
        QTest::newRow("overlong slash") << QByteArray("ab\xC0\xAF") + good << 2;
        QTest::newRow("surrogate") << QByteArray("abc\xED\xA0\x80") + good << 3;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") + good << 0;
        QTest::newRow("bad continuation") << QByteArray("a\xE2\x9Cz") + good << 1;
        QTest::newRow("0xFF byte") << good + QByteArray("\xFF") + good << 200;
    }

    void badUtf8() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, offset);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "bad.txt", bytes);
        auto d = TextDataset::load(path, 4);
        QVERIFY(!d.has_value());
        QCOMPARE(d.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(contains(d.error().message, path), d.error().message.c_str());
        QVERIFY2(contains(d.error().message, "byte offset " + std::to_string(offset)),
                 d.error().message.c_str());
    }

    void unusableFiles() {
        QTemporaryDir dir;
        auto missing = TextDataset::load(dir.filePath("nope.txt").toStdString(), 4);
        QVERIFY(!missing.has_value());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(contains(missing.error().message, "nope.txt"));
        QVERIFY(contains(missing.error().message, "dataset.path"));

        const std::string empty = writeFile(dir, "empty.txt", {});
        auto e = TextDataset::load(empty, 4);
        QVERIFY(!e.has_value());
        QVERIFY(contains(e.error().message, "empty"));

        // 49 characters with context 4 need 50.
        const std::string shortFile = writeFile(dir, "short.txt", QByteArray(49, 'x'));
        auto s = TextDataset::load(shortFile, 4);
        QVERIFY(!s.has_value());
        QCOMPARE(s.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(contains(s.error().message, "short.txt") &&
                     contains(s.error().message, "at least 50") &&
                     contains(s.error().message, "smaller model.context"),
                 s.error().message.c_str());
        QVERIFY(TextDataset::fromText(std::string(50, 'x'), 4, "mem").has_value());
        QVERIFY(!TextDataset::fromText("abc", 0, "mem").has_value());
    }

    void factory() {
        auto noPath = openDataset("text", "", 8);
        QVERIFY(!noPath.has_value());
        QVERIFY(contains(noPath.error().message, "dataset.path"));
        auto unknown = openDataset("cifar", "", 8);
        QVERIFY(!unknown.has_value());
        QVERIFY(contains(unknown.error().message, "cifar"));
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "a.txt", QByteArray(300, 'q'));
        auto text = openDataset("text", path, 8);
        QVERIFY(text.has_value());
        QCOMPARE((*text)->classes(), 1);
    }

    void fashionMnist() {
        const std::string dirPath = TESSERA_FASHION_MNIST_DIR;
        if (!QFile::exists(QString::fromStdString(dirPath) + "/train-images-idx3-ubyte.gz")) {
            QSKIP("Fashion-MNIST not installed (Debian package dataset-fashion-mnist)");
        }
        auto d = openDataset("fashion-mnist", dirPath, 0);
        QVERIFY2(d.has_value(), d ? "" : d.error().message.c_str());
        const Dataset& ds = **d;
        QCOMPARE(ds.trainSize(), 60000);
        QCOMPARE(ds.testSize(), 10000);
        QCOMPARE(ds.inputSize(), 784);
        QCOMPARE(ds.rowsPerSample(), 1);
        QCOMPARE(ds.classes(), 10);
        // Same values as the loader's own gather().
        auto raw = loadFashionMnist(dirPath);
        QVERIFY(raw.has_value());
        const int idx[] = {5, 59999, 0};
        std::vector<float> x(3 * 784), y(3), x2(3 * 784);
        std::vector<int> y2(3);
        ds.fill(Split::Train, idx, 3, x.data(), y.data());
        raw->train.gather(idx, 3, x2.data(), y2.data());
        QVERIFY(x == x2);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(y[std::size_t(i)], float(y2[std::size_t(i)]));
        }
    }
};

QTEST_GUILESS_MAIN(TestDatasets)
#include "test_datasets.moc"
