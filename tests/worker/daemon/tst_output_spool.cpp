// OutputSpool: reads come back in order and whole, what was read leaves the disk, and a folder
// it cannot use is named in the error.
#include "worker/daemon/output/output_spool.h"

#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <sys/stat.h>
#include <unistd.h>

using tessera::daemon::OutputSpool;

class TestOutputSpool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsWhatWasAppendedInOrder() {
        QTemporaryDir dir;
        auto spool = OutputSpool::create(dir.path().toStdString());
        QVERIFY2(spool, spool ? "" : spool.error().message.c_str());
        char buf[16];
        QCOMPARE(spool->read(buf, sizeof buf), ssize_t(0)); // nothing yet: not an error
        QCOMPARE(::write(spool->fd(), "hello ", 6), ssize_t(6));
        QCOMPARE(::write(spool->fd(), "world", 5), ssize_t(5));
        std::string got;
        for (ssize_t n; (n = spool->read(buf, 4)) > 0;) {
            got.append(buf, size_t(n));
        }
        QCOMPARE(got, std::string("hello world"));
        QCOMPARE(spool->consumed(), off_t(11));
    }

    // Every kPunchEvery bytes read are punched out: after 8 MiB written and read, the file holds
    // at most one interval on disk.
    void whatWasReadLeavesTheDisk() {
        QTemporaryDir dir;
        auto spool = OutputSpool::create(dir.path().toStdString());
        QVERIFY(spool);
        const std::string block(65536, 'x');
        std::string buf(65536, '\0');
        for (int i = 0; i < 128; ++i) {
            QCOMPARE(::write(spool->fd(), block.data(), block.size()), ssize_t(block.size()));
            QCOMPARE(spool->read(buf.data(), buf.size()), ssize_t(buf.size()));
        }
        struct stat st {};
        QCOMPARE(::fstat(spool->fd(), &st), 0);
        QCOMPARE(st.st_size, off_t(8) << 20);
        if (st.st_blocks * 512 >= st.st_size) {
            QSKIP("this file system keeps punched ranges (no FALLOC_FL_PUNCH_HOLE here)");
        }
        QVERIFY2(st.st_blocks * 512 <= OutputSpool::kPunchEvery,
                 (std::to_string(st.st_blocks * 512) + " bytes still on disk").c_str());
    }

    // The spool is in memory, not in the folder: a full (or missing) disk cannot make the
    // child's writes fail and its output be cut (issue 45).
    void theOutputIsNotOnTheDisk() {
        auto spool = OutputSpool::create("/no/such/folder");
        QVERIFY2(spool, spool ? "" : spool.error().message.c_str());
        const std::string block(1 << 20, 'y');
        QCOMPARE(::write(spool->fd(), block.data(), block.size()), ssize_t(block.size()));
        std::string buf(1 << 20, '\0');
        QCOMPARE(spool->read(buf.data(), buf.size()), ssize_t(buf.size()));
        QCOMPARE(buf, block);
        char link[64] = {};
        const std::string self = "/proc/self/fd/" + std::to_string(spool->fd());
        QVERIFY(::readlink(self.c_str(), link, sizeof link - 1) > 0);
        QVERIFY2(std::string(link).rfind("/memfd:", 0) == 0, link);
    }
};

QTEST_GUILESS_MAIN(TestOutputSpool)
#include "tst_output_spool.moc"
