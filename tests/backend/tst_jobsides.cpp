// One job, one side of the cluster: local workers (loopback) or machines reached over the
// network, never both (jobsides.h).
#include "backend/jobs/jobsides.h"

#include <QTest>

using namespace tessera;

namespace {

WorkerNode node(const QString& name, const QString& address, int slots, int gpus = 0) {
    WorkerNode n;
    n.name = name;
    n.address = address;
    n.slots = slots;
    n.cudaDevices = gpus;
    return n;
}

QStringList names(const QList<WorkerNode>& nodes) {
    QStringList out;
    for (const WorkerNode& n : nodes) {
        out << n.name;
    }
    return out;
}

} // namespace

class TestJobSides : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loopbackAddresses() {
        QVERIFY(isLoopbackAddress("127.0.0.1:7070"));
        QVERIFY(isLoopbackAddress("127.0.0.2:7070"));
        QVERIFY(isLoopbackAddress("localhost:7070"));
        QVERIFY(isLoopbackAddress("[::1]:7070"));
        QVERIFY(!isLoopbackAddress("198.18.1.11:7070"));
        QVERIFY(!isLoopbackAddress("gpu-a:7070"));
        QVERIFY(!isLoopbackAddress("[2001:db8::1]:7070"));
    }

    void oneSideIsKeptWhole() {
        const QList<WorkerNode> all = {node("local-1", "127.0.0.1:1", 2),
                                       node("local-2", "127.0.0.1:2", 2)};
        QCOMPARE(names(*oneSideOfTheCluster(all, 4, "")), names(all));
    }

    void theFirstSideWhenItFits() {
        const QList<WorkerNode> ready = {node("local-1", "127.0.0.1:1", 2),
                                         node("gpu-a", "198.18.1.11:7070", 8, 8),
                                         node("local-2", "127.0.0.1:2", 2)};
        QCOMPARE(names(*oneSideOfTheCluster(ready, 4, "")), (QStringList{"local-1", "local-2"}));
        // Five ranks do not fit on the local side: the rented machine takes them all.
        QCOMPARE(names(*oneSideOfTheCluster(ready, 5, "")), (QStringList{"gpu-a"}));
        // GPU ranks: only the rented machine has GPUs.
        QCOMPARE(names(*oneSideOfTheCluster(ready, 2, "cuda")), (QStringList{"gpu-a"}));
    }

    void neitherSideAloneIsRefused() {
        const QList<WorkerNode> ready = {node("local-1", "127.0.0.1:1", 2),
                                         node("gpu-a", "198.18.1.11:7070", 2)};
        auto side = oneSideOfTheCluster(ready, 4, "");
        QVERIFY(!side);
        QCOMPARE(side.error().code, ErrorCode::Unavailable);
        const QString m = QString::fromStdString(side.error().message);
        QVERIFY2(m.contains("needs 4 ranks") && m.contains("local workers have 2 slots") &&
                     m.contains("network 2") && m.contains("cannot span both"),
                 qPrintable(m));
    }

    void aMixedDrawingIsRefused() {
        QVERIFY(mixedSidesProblem({node("local-1", "127.0.0.1:1", 2)}).isEmpty());
        const QString m = mixedSidesProblem(
            {node("local-1", "127.0.0.1:1", 2), node("gpu-a", "198.18.1.11:7070", 2)});
        QVERIFY2(m.contains("'local-1'") && m.contains("'gpu-a'") && m.contains("redraw"),
                 qPrintable(m));
    }
};

QTEST_GUILESS_MAIN(TestJobSides)
#include "tst_jobsides.moc"
