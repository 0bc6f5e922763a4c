// Random horizontal flip: decisions depend only on (seed, epoch, sample index), about half the
// images flip, a flipped image is its mirror, and a second flip restores it.
#include "worker/train/augment.h"

#include <QTest>

#include <numeric>
#include <vector>

using namespace tessera::train;

class TestAugment : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void drawsAreLayoutIndependentAndFair();
    void flipMirrorsRows();
};

void TestAugment::drawsAreLayoutIndependentAndFair() {
    int flipped = 0;
    for (int i = 0; i < 10000; ++i) {
        const bool a = flipDrawn(42, 3, i);
        QCOMPARE(flipDrawn(42, 3, i), a); // same key, same draw, on any rank
        flipped += a ? 1 : 0;
    }
    QVERIFY2(flipped > 4800 && flipped < 5200, qPrintable(QString::number(flipped)));
    int differ = 0; // another epoch or seed draws differently
    for (int i = 0; i < 1000; ++i) {
        differ += flipDrawn(42, 3, i) != flipDrawn(42, 4, i) ? 1 : 0;
        differ += flipDrawn(42, 3, i) != flipDrawn(43, 3, i) ? 1 : 0;
    }
    QVERIFY2(differ > 800, qPrintable(QString::number(differ)));
}

void TestAugment::flipMirrorsRows() {
    constexpr int side = 28;
    std::vector<int> indices(64);
    std::iota(indices.begin(), indices.end(), 100);
    std::vector<float> images(indices.size() * side * side);
    std::iota(images.begin(), images.end(), 0.0f);
    const std::vector<float> original = images;
    randomHorizontalFlip(images.data(), indices.data(), int(indices.size()), side, 7, 1);
    int flipped = 0;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const bool f = flipDrawn(7, 1, indices[i]);
        flipped += f ? 1 : 0;
        for (int r = 0; r < side; ++r) {
            for (int c = 0; c < side; ++c) {
                const std::size_t at = (i * side + r) * side;
                QCOMPARE(images[at + c], original[at + (f ? side - 1 - c : c)]);
            }
        }
    }
    QVERIFY(flipped > 0 && flipped < int(indices.size()));
    randomHorizontalFlip(images.data(), indices.data(), int(indices.size()), side, 7, 1);
    QVERIFY(images == original);
}

QTEST_GUILESS_MAIN(TestAugment)
#include "test_augment.moc"
