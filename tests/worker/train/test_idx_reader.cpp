// Unit test of the IDX .gz reader and the Fashion-MNIST loader: the real Debian files, and
// missing / truncated / garbled / wrong-kind files that must give an Error naming the file.
#include "worker/train/fashion_mnist.h"
#include "worker/train/idx_file.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <cmath>
#include <filesystem>

using namespace tessera;
using namespace tessera::train;

namespace {

const QString kDataDir = QStringLiteral(TESSERA_FASHION_MNIST_DIR);
const std::string kHint = "install the Debian package dataset-fashion-mnist";

bool haveDataset() {
    return QFile::exists(kDataDir + "/train-images-idx3-ubyte.gz") &&
           QFile::exists(kDataDir + "/t10k-labels-idx1-ubyte.gz");
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeRaw(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool writeGz(const QString& path, const QByteArray& bytes) {
    gzFile f = gzopen(path.toLocal8Bit().constData(), "wb");
    if (f == nullptr) {
        return false;
    }
    const int n = gzwrite(f, bytes.constData(), unsigned(bytes.size()));
    return gzclose(f) == Z_OK && n == bytes.size();
}

QByteArray be32(quint32 v) {
    QByteArray b(4, '\0');
    b[0] = char(v >> 24);
    b[1] = char(v >> 16);
    b[2] = char(v >> 8);
    b[3] = char(v);
    return b;
}

} // namespace

class TestIdxReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void realFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<quint32>("magic");
        QTest::addColumn<int>("count");
        QTest::newRow("train images") << "train-images-idx3-ubyte.gz" << kIdxImagesMagic << 60000;
        QTest::newRow("train labels") << "train-labels-idx1-ubyte.gz" << kIdxLabelsMagic << 60000;
        QTest::newRow("test images") << "t10k-images-idx3-ubyte.gz" << kIdxImagesMagic << 10000;
        QTest::newRow("test labels") << "t10k-labels-idx1-ubyte.gz" << kIdxLabelsMagic << 10000;
    }

    void realFiles() {
        if (!haveDataset()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        QFETCH(QString, file);
        QFETCH(quint32, magic);
        QFETCH(int, count);
        auto idx = readIdxFile((kDataDir + "/" + file).toStdString(), magic, kHint);
        QVERIFY2(idx.has_value(), idx ? "" : idx.error().message.c_str());
        QCOMPARE(int(idx->dims.at(0)), count);
        if (magic == kIdxImagesMagic) {
            QCOMPARE(idx->dims.size(), std::size_t(3));
            QCOMPARE(int(idx->dims[1]), 28);
            QCOMPARE(int(idx->dims[2]), 28);
            QCOMPARE(idx->data.size(), std::size_t(count) * 28 * 28);
        } else {
            QCOMPARE(idx->dims.size(), std::size_t(1));
            QCOMPARE(idx->data.size(), std::size_t(count));
            std::vector<int> perClass(10, 0);
            for (auto l : idx->data) {
                QVERIFY(l < 10);
                ++perClass[l];
            }
            for (int c = 0; c < 10; ++c) { // Fashion-MNIST is balanced
                QCOMPARE(perClass[std::size_t(c)], count / 10);
            }
        }
    }

    void loaderNormalisesPixels() {
        if (!haveDataset()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        auto data = loadFashionMnist(kDataDir.toStdString());
        QVERIFY2(data.has_value(), data ? "" : data.error().message.c_str());
        QCOMPARE(data->train.count, 60000);
        QCOMPARE(data->test.count, 10000);
        QCOMPARE(data->train.features(), 784);
        // Gathering the whole training set must give mean ≈ 0 and std ≈ 1 (train statistics).
        const int n = 2000;
        std::vector<int> idx(static_cast<std::size_t>(n));
        std::vector<float> x(std::size_t(n) * 784);
        std::vector<int> y(static_cast<std::size_t>(n));
        double sum = 0.0;
        double sq = 0.0;
        for (int start = 0; start < 60000; start += n) {
            for (int i = 0; i < n; ++i) {
                idx[std::size_t(i)] = start + i;
            }
            data->train.gather(idx.data(), n, x.data(), y.data());
            for (float v : x) {
                sum += v;
                sq += double(v) * v;
            }
        }
        const double count = 60000.0 * 784.0;
        const double mean = sum / count;
        const double sd = std::sqrt(sq / count - mean * mean);
        QVERIFY2(std::abs(mean) < 0.01, qPrintable(QString("mean %1").arg(mean)));
        QVERIFY2(std::abs(sd - 1.0) < 0.01, qPrintable(QString("std %1").arg(sd)));
        QCOMPARE(y[0], int(data->train.labels[58000]));
    }

    void badFiles_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("detail");
        QTest::newRow("missing") << "missing" << int(ErrorCode::NotFound) << "missing";
        QTest::newRow("empty") << "empty" << int(ErrorCode::InvalidArgument) << "magic";
        QTest::newRow("garbled bytes") << "garbled" << int(ErrorCode::InvalidArgument) << "magic";
        QTest::newRow("wrong kind")
            << "labels-as-images" << int(ErrorCode::InvalidArgument) << "0x00000801";
        QTest::newRow("short data") << "short" << int(ErrorCode::InvalidArgument) << "truncated";
        QTest::newRow("trailing data") << "long" << int(ErrorCode::InvalidArgument) << "trailing";
        QTest::newRow("absurd dims") << "dims" << int(ErrorCode::InvalidArgument) << "dimension";
        QTest::newRow("truncated gzip") << "cut-gz" << int(ErrorCode::InvalidArgument) << "";
        QTest::newRow("corrupt gzip")
            << "flipped-gz" << int(ErrorCode::InvalidArgument) << "corrupt";
    }

    void badFiles() {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QFETCH(QString, detail);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("train-images-idx3-ubyte.gz");
        // A valid 2×28×28 images payload to damage.
        QByteArray good = be32(kIdxImagesMagic) + be32(2) + be32(28) + be32(28);
        good += QByteArray(2 * 28 * 28, char(7));
        if (kind == "empty") {
            QVERIFY(writeGz(path, QByteArray()));
        } else if (kind == "garbled") {
            QByteArray junk;
            for (int i = 0; i < 5000; ++i) {
                junk += char((i * 7919 + 13) % 251);
            }
            QVERIFY(writeRaw(path, junk));
        } else if (kind == "labels-as-images") {
            QVERIFY(writeGz(path, be32(kIdxLabelsMagic) + be32(3) + QByteArray(3, '\1')));
        } else if (kind == "short") {
            QVERIFY(writeGz(path, good.left(good.size() - 100)));
        } else if (kind == "long") {
            QVERIFY(writeGz(path, good + QByteArray(10, '\0')));
        } else if (kind == "dims") {
            QVERIFY(writeGz(path, be32(kIdxImagesMagic) + be32(0) + be32(28) + be32(28)));
        } else if (kind == "cut-gz" || kind == "flipped-gz") {
            QVERIFY(writeGz(path, good));
            QByteArray gz = readAll(path);
            QVERIFY(gz.size() > 40);
            if (kind == "cut-gz") {
                gz.truncate(gz.size() / 2);
            } else {
                for (qsizetype i = 12; i < gz.size() - 8; i += 3) {
                    gz[i] = char(gz[i] ^ 0x5a);
                }
            }
            QVERIFY(writeRaw(path, gz));
        }
        auto idx = readIdxFile(path.toStdString(), kIdxImagesMagic, kHint);
        QVERIFY(!idx.has_value());
        const QString msg = QString::fromStdString(idx.error().message);
        QCOMPARE(int(idx.error().code), code);
        QVERIFY2(msg.contains(path), qPrintable(msg));
        QVERIFY2(msg.contains("dataset-fashion-mnist"), qPrintable(msg));
        QVERIFY2(msg.contains(detail), qPrintable(msg));

        // The loader reports the same file when it sits among otherwise missing files.
        auto data = loadFashionMnist(dir.path().toStdString());
        QVERIFY(!data.has_value());
        QVERIFY2(QString::fromStdString(data.error().message).contains(path),
                 data.error().message.c_str());
    }

    void labelOutOfRange() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString images = dir.filePath("i.gz");
        const QString labels = dir.filePath("l.gz");
        QVERIFY(writeGz(images, be32(kIdxImagesMagic) + be32(2) + be32(28) + be32(28) +
                                    QByteArray(2 * 784, '\0')));
        QVERIFY(writeGz(labels, be32(kIdxLabelsMagic) + be32(2) + QByteArray("\x03\x0c", 2)));
        auto split = loadImageSplit(images.toStdString(), labels.toStdString());
        QVERIFY(!split.has_value());
        const QString msg = QString::fromStdString(split.error().message);
        QVERIFY2(msg.contains(labels) && msg.contains("label 12"), qPrintable(msg));
    }
};

QTEST_GUILESS_MAIN(TestIdxReader)
#include "test_idx_reader.moc"
