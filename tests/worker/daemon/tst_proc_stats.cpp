// Unit test of the /proc parsers behind telemetry: CPU busy share, memory and network rates
// computed from two canned snapshots, and errors for text that is not what Linux writes.
#include "worker/daemon/telemetry/proc_stats.h"

#include <QTest>

using namespace tessera::daemon;

namespace {

const char* kStatBefore = "cpu  1000 0 500 8000 500 0 0 0 0 0\n"
                          "cpu0 500 0 250 4000 250 0 0 0 0 0\n"
                          "cpu1 500 0 250 4000 250 0 0 0 0 0\n"
                          "intr 123456 0 0\n"
                          "ctxt 999\n"
                          "btime 1700000000\n";
// 1.5 s later on 2 cores: cpu0 busy 750 of 850 ticks, cpu1 250 of 650, together 1000 of 1500.
const char* kStatAfter = "cpu  1600 100 700 8500 500 50 50 0 0 0\n"
                         "cpu0 1000 100 300 4100 250 50 50 0 0 0\n"
                         "cpu1 600 0 400 4400 250 0 0 0 0 0\n"
                         "intr 123999 0 0\n";

const char* kNetDev =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
    "drop fifo colls carrier compressed\n"
    "    lo: 9999999     100    0    0    0     0          0         0  9999999     100    0    "
    "0    0     0       0          0\n"
    "  eth0:1000000    2000    0    0    0     0          0         0   500000    1000    0    0 "
    "   0     0       0          0\n"
    "   ib0: 7 1 0 0 0 0 0 0 9 1 0 0 0 0 0 0\n";

} // namespace

class TestProcStats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cpuFromTwoSnapshots() {
        const auto before = parseProcStat(kStatBefore);
        const auto after = parseProcStat(kStatAfter);
        QVERIFY2(before, before ? "" : before.error().message.c_str());
        QVERIFY2(after, after ? "" : after.error().message.c_str());
        QCOMPARE(before->cores.size(), size_t(2));
        QCOMPARE(after->cores.size(), size_t(2));
        QCOMPARE(before->all.busy, uint64_t(1500));
        QCOMPARE(before->all.total, uint64_t(10000));
        QCOMPARE(busyPercent(before->all, after->all), 100.0 * 1000 / 1500);
        QCOMPARE(busyPercent(before->cores[0], after->cores[0]), 100.0 * 750 / 850);
        QCOMPARE(busyPercent(before->cores[1], after->cores[1]), 100.0 * 250 / 650);
    }

    void busyShare_data() {
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");
        QTest::addColumn<double>("percent");
        QTest::newRow("guest is inside user, not added")
            << QByteArray("cpu 100 0 0 900 0 0 0 0 0 0")
            << QByteArray("cpu 200 0 0 1000 0 0 0 0 100 0") << 50.0;
        QTest::newRow("iowait counts as idle")
            << QByteArray("cpu 0 0 0 0 0 0 0 0") << QByteArray("cpu 100 0 0 100 200 0 0 0") << 25.0;
        QTest::newRow("irq, softirq and steal count as busy")
            << QByteArray("cpu 0 0 0 0 0 0 0 0") << QByteArray("cpu 0 0 0 100 0 50 25 25") << 50.0;
        QTest::newRow("old kernel with 4 fields")
            << QByteArray("cpu 10 0 10 80") << QByteArray("cpu 20 0 20 160") << 20.0;
        QTest::newRow("no tick passed")
            << QByteArray("cpu 10 0 10 80") << QByteArray("cpu 10 0 10 80") << 0.0;
        QTest::newRow("counters went back (CPU replugged)")
            << QByteArray("cpu 500 0 0 500") << QByteArray("cpu 10 0 0 20") << 0.0;
        QTest::newRow("all busy") << QByteArray("cpu 0 0 0 0") << QByteArray("cpu 70 10 20 0")
                                  << 100.0;
    }
    void busyShare() {
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        QFETCH(double, percent);
        const auto b = parseProcStat(before.toStdString());
        const auto a = parseProcStat(after.toStdString());
        QVERIFY(b && a);
        QCOMPARE(busyPercent(b->all, a->all), percent);
    }

    void badProcStat_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("named");
        QTest::newRow("empty") << QByteArray("") << "no 'cpu' line";
        QTest::newRow("only cores") << QByteArray("cpu0 1 2 3 4\n") << "no 'cpu' line";
        QTest::newRow("too few fields") << QByteArray("cpu 1 2 3\n") << "cpu 1 2 3";
        QTest::newRow("not a number") << QByteArray("cpu 1 2 x 4\n") << "cpu 1 2 x 4";
    }
    void badProcStat() {
        QFETCH(QByteArray, text);
        QFETCH(QString, named);
        const auto r = parseProcStat(text.toStdString());
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().message).contains(named),
                 r.error().message.c_str());
    }

    void memory() {
        const auto m = parseMeminfo("MemTotal:        8048576 kB\n"
                                    "MemFree:          512000 kB\n"
                                    "MemAvailable:    6048576 kB\n"
                                    "Buffers:          100000 kB\n"
                                    "Cached:          2000000 kB\n"
                                    "SwapTotal:             0 kB\n");
        QVERIFY(m);
        QCOMPARE(m->totalBytes, uint64_t(8048576) * 1024);
        QCOMPARE(m->usedBytes(), uint64_t(2000000) * 1024);
    }

    void memoryWithoutMemAvailable() {
        // Kernels before 3.14: available = MemFree + Buffers + Cached.
        const auto m = parseMeminfo("MemTotal: 8048576 kB\nMemFree: 512000 kB\n"
                                    "Buffers: 100000 kB\nCached: 2000000 kB\n");
        QVERIFY(m);
        QCOMPARE(m->usedBytes(), uint64_t(8048576 - 512000 - 100000 - 2000000) * 1024);
    }

    void memoryWithoutTotalIsAnError() {
        const auto m = parseMeminfo("MemFree: 512000 kB\n");
        QVERIFY(!m);
        QVERIFY(QString::fromStdString(m.error().message).contains("MemTotal"));
    }

    void loadAverage() {
        const auto l = parseLoadavg("0.52 1.58 12.59 1/467 12345\n");
        QVERIFY(l);
        QCOMPARE(l->m1, 0.52);
        QCOMPARE(l->m5, 1.58);
        QCOMPARE(l->m15, 12.59);
        QVERIFY(!parseLoadavg("0.52 abc\n"));
        QVERIFY(!parseLoadavg(""));
    }

    void networkFromTwoSnapshots() {
        const auto before = parseNetDev(kNetDev);
        QVERIFY2(before, before ? "" : before.error().message.c_str());
        QCOMPARE(before->size(), size_t(2)); // lo left out
        QCOMPARE((*before)[0].name, std::string("eth0"));
        QCOMPARE((*before)[0].rxBytes, uint64_t(1000000));
        QCOMPARE((*before)[0].txBytes, uint64_t(500000));
        QCOMPARE((*before)[1].name, std::string("ib0"));
        QCOMPARE((*before)[1].rxBytes, uint64_t(7));
        QCOMPARE((*before)[1].txBytes, uint64_t(9));

        std::string later = kNetDev;
        later.replace(later.find("eth0:1000000"), 12, "eth0:3000000");
        later.replace(later.find("   500000 "), 10, "  1500000 ");
        const auto after = parseNetDev(later);
        QVERIFY(after);
        // 2 MB received and 1 MB sent in 2 s.
        QCOMPARE(ratePerSecond((*before)[0].rxBytes, (*after)[0].rxBytes, 2.0), 1e6);
        QCOMPARE(ratePerSecond((*before)[0].txBytes, (*after)[0].txBytes, 2.0), 5e5);
    }

    void rates_data() {
        QTest::addColumn<qulonglong>("before");
        QTest::addColumn<qulonglong>("after");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("rate");
        QTest::newRow("steady") << 100ull << 1100ull << 0.5 << 2000.0;
        QTest::newRow("counter reset") << 5000ull << 10ull << 1.0 << 0.0;
        QTest::newRow("no time passed") << 100ull << 200ull << 0.0 << 0.0;
    }
    void rates() {
        QFETCH(qulonglong, before);
        QFETCH(qulonglong, after);
        QFETCH(double, seconds);
        QFETCH(double, rate);
        QCOMPARE(ratePerSecond(before, after, seconds), rate);
    }

    void badNetDev() {
        const auto r = parseNetDev("  eth0: 1 2 3\n");
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().message).contains("eth0: 1 2 3"),
                 r.error().message.c_str());
    }

    void readsTheRealFiles() {
        // The machine running the test is Linux: its own files parse.
        for (const char* path : {"/proc/stat", "/proc/meminfo", "/proc/loadavg", "/proc/net/dev"}) {
            const auto text = readProcFile(path);
            QVERIFY2(text, path);
        }
        QVERIFY(parseProcStat(*readProcFile("/proc/stat")));
        QVERIFY(parseMeminfo(*readProcFile("/proc/meminfo")));
        QVERIFY(parseLoadavg(*readProcFile("/proc/loadavg")));
        QVERIFY(parseNetDev(*readProcFile("/proc/net/dev")));
        const auto missing = readProcFile("/proc/no-such-file");
        QVERIFY(!missing);
        QVERIFY(QString::fromStdString(missing.error().message).contains("/proc/no-such-file"));
    }
};

QTEST_GUILESS_MAIN(TestProcStats)
#include "tst_proc_stats.moc"
