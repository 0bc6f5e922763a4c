// BundleStore's housekeeping: leftovers of uploads cut short are swept, and past its limit the
// cache evicts the least recently used bundles — never one used recently or the one kept.
#include "worker/daemon/bundles/bundle_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <utime.h>

using tessera::daemon::BundleStore;

namespace {
std::string sha(char c) {
    return std::string(64, c);
}

/// A bundle folder with one file of `bytes`, last used `ageHours` ago.
bool makeBundle(const QString& root, const std::string& sha, qint64 bytes, int ageHours) {
    const QString dir = root + "/bundles/" + QString::fromStdString(sha);
    QFile f(dir + "/train.py");
    if (!QDir().mkpath(dir) || !f.open(QIODevice::WriteOnly) || !f.resize(bytes)) {
        return false;
    }
    f.close();
    const time_t when = time(nullptr) - time_t(ageHours) * 3600;
    utimbuf t{when, when};
    return ::utime(dir.toLocal8Bit().constData(), &t) == 0;
}
} // namespace

class TestBundleStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void leftoversOfCutUploadsAreSwept() {
        QTemporaryDir tmp;
        QVERIFY(makeBundle(tmp.path(), sha('a'), 10, 0));
        const QString root = tmp.filePath("bundles/");
        QFile(root + "." + QString::fromStdString(sha('b')) + ".tar.Ab12Cd")
            .open(QIODevice::WriteOnly);
        QVERIFY(QDir().mkpath(root + "." + QString::fromStdString(sha('c')) + ".unpack.Zz9"));
        QFile(root + "notes.txt").open(QIODevice::WriteOnly); // not the cache's: left alone
        BundleStore store(tmp.path().toStdString());
        QCOMPARE(store.sweepPartial(), 2);
        QCOMPARE(QDir(root).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{QString::fromStdString(sha('a')), "notes.txt"}));
    }

    // 4 bundles of 1 MB against a 2.5 MB limit: the two least recently used of those older than
    // a day go, the recent one and the kept one stay even though one is the oldest.
    void evictsLeastRecentlyUsedPastTheLimit() {
        QTemporaryDir tmp;
        QVERIFY(makeBundle(tmp.path(), sha('1'), 1000000, 100)); // oldest, but `keep`
        QVERIFY(makeBundle(tmp.path(), sha('2'), 1000000, 90));
        QVERIFY(makeBundle(tmp.path(), sha('3'), 1000000, 80));
        QVERIFY(makeBundle(tmp.path(), sha('4'), 1000000, 1)); // used an hour ago
        BundleStore store(tmp.path().toStdString(), {2500000, std::chrono::hours(24)});
        const auto removed = store.evict(sha('1'));
        QCOMPARE(removed, (std::vector<std::string>{sha('2'), sha('3')}));
        QVERIFY(store.has(sha('1')) && store.has(sha('4')));
        QVERIFY(!store.has(sha('2')) && !store.has(sha('3')));
        QVERIFY(store.evict(sha('1')).empty()); // within the limit now
        // Nothing more may go: over the limit, yet all recent or kept.
        QVERIFY(makeBundle(tmp.path(), sha('5'), 1000000, 2));
        QVERIFY(store.evict(sha('1')).empty());
        QVERIFY(store.has(sha('5')));
    }

    void touchMakesABundleRecent() {
        QTemporaryDir tmp;
        QVERIFY(makeBundle(tmp.path(), sha('a'), 1000000, 50));
        QVERIFY(makeBundle(tmp.path(), sha('b'), 1000000, 60));
        BundleStore store(tmp.path().toStdString(), {1500000, std::chrono::hours(24)});
        store.touch(sha('b')); // a launch asked for it
        QCOMPARE(store.evict(std::string()), (std::vector<std::string>{sha('a')}));
        QVERIFY(store.has(sha('b')));
        store.touch(std::string("not a sha")); // ignored
    }

    void noLimitKeepsEverything() {
        QTemporaryDir tmp;
        QVERIFY(makeBundle(tmp.path(), sha('a'), 1000000, 500));
        BundleStore store(tmp.path().toStdString(), {0, std::chrono::hours(0)});
        QVERIFY(store.evict(std::string()).empty());
        QVERIFY(store.has(sha('a')));
    }
};

QTEST_GUILESS_MAIN(TestBundleStore)
#include "tst_bundle_store.moc"
