// Unit test of TensorBoard's file framing (worker/common): CRC-32C against RFC 3720's vectors,
// the mask of TFRecord files, and frames written and read back whole, cut, corrupt or too long.
#include "worker/common/crc32c.h"
#include "worker/common/tfrecord.h"

#include <QTest>

#include <random>

using namespace tessera;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string bytes(std::initializer_list<int> values) {
    std::string s;
    for (int v : values) {
        s.push_back(static_cast<char>(v));
    }
    return s;
}

std::string randomBytes(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::string s(n, '\0');
    for (char& c : s) {
        c = static_cast<char>(gen() & 0xFFu);
    }
    return s;
}

} // namespace

class TestTfRecord : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // RFC 3720 §B.4 (iSCSI's CRC32C examples) and the customary check value of "123456789".
    void crc32cVectors_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<quint32>("crc");
        QTest::newRow("123456789") << std::string("123456789") << quint32(0xE3069283);
        QTest::newRow("32 zero bytes") << std::string(32, '\0') << quint32(0x8A9136AA);
        QTest::newRow("32 0xFF bytes") << std::string(32, '\xFF') << quint32(0x62A8AB43);
        std::string up, down;
        for (int i = 0; i < 32; ++i) {
            up.push_back(static_cast<char>(i));
            down.push_back(static_cast<char>(31 - i));
        }
        QTest::newRow("0 to 31") << up << quint32(0x46DD794E);
        QTest::newRow("31 to 0") << down << quint32(0x113FDB5C);
        // An iSCSI read command PDU (RFC 3720 B.4, the last example).
        QTest::newRow("iSCSI read PDU")
            << bytes({0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
                      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
                      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
            << quint32(0xD9963A56);
        QTest::newRow("empty") << std::string() << quint32(0);
    }
    void crc32cVectors() {
        QFETCH(std::string, input);
        QFETCH(quint32, crc);
        QCOMPARE(quint32(crc32c(input)), crc);
    }

    void crc32cContinues() {
        const std::string data = randomBytes(1000, 7);
        for (std::size_t cut : {std::size_t(0), std::size_t(1), std::size_t(333), data.size()}) {
            const std::string_view a = std::string_view(data).substr(0, cut);
            const std::string_view b = std::string_view(data).substr(cut);
            QCOMPARE(crc32c(b, crc32c(a)), crc32c(data));
        }
    }

    // TensorFlow's Mask(): rotate right by 15, add 0xa282ead8 (mod 2^32).
    void maskRotatesRightThenAdds() {
        QCOMPARE(maskCrc32c(0), 0xA282EAD8u);
        QCOMPARE(maskCrc32c(1u << 15), 1u + 0xA282EAD8u);
        QCOMPARE(maskCrc32c(1u), (1u << 17) + 0xA282EAD8u);
        QCOMPARE(maskCrc32c(0xFFFFFFFFu), 0xFFFFFFFFu + 0xA282EAD8u); // wraps
    }

    void frameLayout() {
        const std::string data = "hello";
        const std::string f = tfRecordFrame(data);
        QCOMPARE(f.size(), kTfRecordHeaderBytes + data.size() + kTfRecordFooterBytes);
        QCOMPARE(QByteArray::fromStdString(f.substr(0, 8)),
                 QByteArray::fromStdString(bytes({5, 0, 0, 0, 0, 0, 0, 0})));
        const auto le32 = [&](std::size_t at) {
            std::uint32_t v = 0;
            for (int i = 0; i < 4; ++i) {
                v |= std::uint32_t(static_cast<unsigned char>(f[at + std::size_t(i)])) << (8 * i);
            }
            return v;
        };
        QCOMPARE(le32(8), maskCrc32c(crc32c(f.substr(0, 8))));
        QCOMPARE(f.substr(12, 5), data);
        QCOMPARE(le32(17), maskCrc32c(crc32c(data)));
    }

    void roundTrip_data() {
        QTest::addColumn<std::string>("data");
        QTest::newRow("empty") << std::string();
        QTest::newRow("one byte") << std::string("x");
        QTest::newRow("nul bytes") << std::string(5, '\0');
        QTest::newRow("random 70000") << randomBytes(70000, 3);
    }
    void roundTrip() {
        QFETCH(std::string, data);
        const std::string two = tfRecordFrame(data) + tfRecordFrame("next");
        const TfRecordRead r = readTfRecord(two, 1 << 20);
        QCOMPARE(int(r.kind), int(TfRecordRead::Kind::Record));
        QCOMPARE(r.data, std::string_view(data));
        QCOMPARE(r.frameBytes, quint64(data.size() + 16));
        const TfRecordRead next =
            readTfRecord(std::string_view(two).substr(std::size_t(r.frameBytes)), 1 << 20);
        QCOMPARE(int(next.kind), int(TfRecordRead::Kind::Record));
        QCOMPARE(next.data, std::string_view("next"));
    }

    // Every strict prefix of a record (a writer caught mid-write) is Incomplete, never corrupt.
    void everyCutIsIncomplete() {
        const std::string f = tfRecordFrame("a record cut anywhere");
        for (std::size_t n = 0; n < f.size(); ++n) {
            const TfRecordRead r = readTfRecord(std::string_view(f).substr(0, n), 1 << 20);
            QVERIFY2(r.kind == TfRecordRead::Kind::Incomplete, qPrintable(QString::number(n)));
        }
    }

    void corruptData() {
        std::string f = tfRecordFrame("payload");
        f[14] ^= 0x01;
        const TfRecordRead r = readTfRecord(f, 1 << 20);
        QCOMPARE(int(r.kind), int(TfRecordRead::Kind::BadData));
        QCOMPARE(r.frameBytes, quint64(f.size())); // the next record's place is known
        f = tfRecordFrame("payload");
        f[f.size() - 1] ^= 0x40; // the stored CRC itself
        QCOMPARE(int(readTfRecord(f, 1 << 20).kind), int(TfRecordRead::Kind::BadData));
    }

    void corruptLength() {
        for (std::size_t at : {std::size_t(0), std::size_t(7), std::size_t(8), std::size_t(11)}) {
            std::string f = tfRecordFrame("payload");
            f[at] ^= 0x10;
            QCOMPARE(int(readTfRecord(f, 1 << 20).kind), int(TfRecordRead::Kind::BadLength));
            // Decided on the header alone: no need to wait for a body of the claimed length.
            QCOMPARE(int(readTfRecord(std::string_view(f).substr(0, 12), 1 << 20).kind),
                     int(TfRecordRead::Kind::BadLength));
        }
    }

    // A length over the limit is refused from its header: nothing of it is waited for.
    void tooLongFromTheHeader() {
        const std::string f = tfRecordFrame(std::string(100, 'z'));
        const TfRecordRead r = readTfRecord(std::string_view(f).substr(0, 12), 99);
        QCOMPARE(int(r.kind), int(TfRecordRead::Kind::TooLong));
        QCOMPARE(r.length, quint64(100));
        QCOMPARE(r.frameBytes, quint64(116));
        QCOMPARE(int(readTfRecord(f, 100).kind), int(TfRecordRead::Kind::Record));
    }

    // A length whose frame would pass 2^64 saturates instead of wrapping.
    void hugeLengthSaturates() {
        std::string header(8, '\xFF');
        const std::uint32_t crc = maskCrc32c(crc32c(header));
        for (int i = 0; i < 4; ++i) {
            header.push_back(static_cast<char>((crc >> (8 * i)) & 0xFFu));
        }
        const TfRecordRead r = readTfRecord(header, 1 << 20);
        QCOMPARE(int(r.kind), int(TfRecordRead::Kind::TooLong));
        QCOMPARE(r.frameBytes, std::numeric_limits<quint64>::max());
    }

    // Random bytes frame nothing: their "length" has a CRC that does not match.
    void randomBytesAreNotARecord() {
        for (unsigned seed = 1; seed <= 50; ++seed) {
            const std::string junk = randomBytes(64, seed);
            QCOMPARE(int(readTfRecord(junk, 1 << 20).kind), int(TfRecordRead::Kind::BadLength));
        }
    }
};

QTEST_APPLESS_MAIN(TestTfRecord)
#include "tst_tfrecord.moc"
