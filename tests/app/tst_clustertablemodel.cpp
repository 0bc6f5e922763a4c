// Tests of ClusterTableModel over a real ClusterRegistry (workers that do not answer, so no
// daemon is needed): structure checked by QAbstractItemModelTester, rows follow the registry.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/jobtypes.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

using tessera::ClusterRegistry;
using tessera::ClusterTableModel;
using tessera::NodeState;
using tessera::WorkerNode;

namespace {
// Port 9 (discard) on loopback: nothing listens there, so a probe fails fast.
WorkerNode node(const QString& name, int slots = 1, quint64 memory = 0) {
    WorkerNode n;
    n.name = name;
    n.address = QStringLiteral("127.0.0.1:9");
    n.token = QStringLiteral("t");
    n.slots = slots;
    n.cores = 4;
    n.memoryBytes = memory;
    n.provider = QStringLiteral("manual");
    return n;
}
} // namespace

class TestClusterTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void emptyRegistry();
    void followsAddChangeRemove();
    void displaysColumns_data();
    void displaysColumns();
    void unreachableNodeShowsError();
    void readySlotsCountsOnlyReadyNodes();
    void panelSaysWhyOnceInTheLog();

private:
    ClusterRegistry* m_registry = nullptr;
    ClusterTableModel* m_model = nullptr;
    QAbstractItemModelTester* m_tester = nullptr;
};

void TestClusterTableModel::init() {
    tessera::registerBackendMetaTypes();
    m_registry = new ClusterRegistry;
    m_registry->setProbeInterval(0);
    m_registry->setProbeTimeout(1000);
    m_model = new ClusterTableModel(m_registry);
    m_tester = new QAbstractItemModelTester(m_model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestClusterTableModel::cleanup() {
    delete m_tester;
    delete m_model;
    delete m_registry;
}

void TestClusterTableModel::emptyRegistry() {
    QCOMPARE(m_model->rowCount(), 0);
    QCOMPARE(m_model->columnCount(), int(ClusterTableModel::ColumnCount));
    QCOMPARE(m_model->headerData(ClusterTableModel::Name, Qt::Horizontal).toString(),
             QStringLiteral("Name"));
    QCOMPARE(m_model->headerData(ClusterTableModel::Memory, Qt::Horizontal).toString(),
             QStringLiteral("Memory"));
    QCOMPARE(m_model->readyCount(), 0);
}

void TestClusterTableModel::followsAddChangeRemove() {
    QSignalSpy inserted(m_model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(m_model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    m_registry->addNode(node(QStringLiteral("a")));
    m_registry->addNode(node(QStringLiteral("b")));
    m_registry->addNode(node(QStringLiteral("c")));
    QCOMPARE(inserted.count(), 3);
    QCOMPARE(m_model->rowCount(), 3);
    QCOMPARE(m_model->index(1, ClusterTableModel::Name).data().toString(), QStringLiteral("b"));

    m_registry->setNodeState(QStringLiteral("b"), NodeState::Stopped);
    QVERIFY(changed.count() >= 1);
    QCOMPARE(m_model->index(1, ClusterTableModel::State).data().toString(),
             QStringLiteral("stopped"));
    QCOMPARE(m_model->index(1, ClusterTableModel::State).data(Qt::UserRole).toInt(),
             int(NodeState::Stopped));

    m_registry->removeNode(QStringLiteral("b"));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->index(0, ClusterTableModel::Name).data().toString(), QStringLiteral("a"));
    QCOMPARE(m_model->index(1, ClusterTableModel::Name).data().toString(), QStringLiteral("c"));

    // Replacing a node keeps its row.
    m_registry->addNode(node(QStringLiteral("a"), 3));
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->index(0, ClusterTableModel::Slots).data().toInt(), 3);

    m_registry->removeNode(QStringLiteral("unknown"));
    QCOMPARE(m_model->rowCount(), 2);
}

void TestClusterTableModel::displaysColumns_data() {
    QTest::addColumn<int>("column");
    QTest::addColumn<quint64>("memory");
    QTest::addColumn<QString>("text");
    QTest::newRow("name") << int(ClusterTableModel::Name) << quint64(0) << "w1";
    QTest::newRow("address") << int(ClusterTableModel::Address) << quint64(0) << "127.0.0.1:9";
    QTest::newRow("state") << int(ClusterTableModel::State) << quint64(0) << "connecting";
    QTest::newRow("slots") << int(ClusterTableModel::Slots) << quint64(0) << "2";
    QTest::newRow("cores") << int(ClusterTableModel::Cores) << quint64(0) << "4";
    QTest::newRow("memory unknown") << int(ClusterTableModel::Memory) << quint64(0) << "–";
    QTest::newRow("memory 1 GiB") << int(ClusterTableModel::Memory) << (quint64(1) << 30)
                                  << "1.0 GiB";
    QTest::newRow("memory 15.5 GiB")
        << int(ClusterTableModel::Memory) << (quint64(31) << 29) << "15.5 GiB";
}

void TestClusterTableModel::displaysColumns() {
    QFETCH(int, column);
    QFETCH(quint64, memory);
    QFETCH(QString, text);
    m_registry->addNode(node(QStringLiteral("w1"), 2, memory));
    // Checked before the (failing) probe answers: the registry shows the node as given.
    QCOMPARE(m_model->index(0, column).data().toString(), text);
}

void TestClusterTableModel::unreachableNodeShowsError() {
    m_registry->addNode(node(QStringLiteral("dead")));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0, ClusterTableModel::State).data().toString(),
                              QStringLiteral("unreachable"), 10000);
    const QString tip = m_model->index(0, ClusterTableModel::Name).data(Qt::ToolTipRole).toString();
    QVERIFY2(!tip.isEmpty(), "an unreachable node explains why in its tool tip");
    // …and in its Problem column, where it is seen without hovering.
    QCOMPARE(m_model->index(0, ClusterTableModel::Problem).data().toString(), tip);
    QCOMPARE(m_model->readyCount(), 0);
}

void TestClusterTableModel::readySlotsCountsOnlyReadyNodes() {
    m_registry->addNode(node(QStringLiteral("a"), 2));
    m_registry->addNode(node(QStringLiteral("b"), 3));
    m_registry->addNode(node(QStringLiteral("c"), 5));
    // Let the probes fail first so they cannot overwrite the states set below.
    QTRY_COMPARE_WITH_TIMEOUT(m_registry->node(QStringLiteral("c"))->state, NodeState::Unreachable,
                              10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_registry->node(QStringLiteral("a"))->state, NodeState::Unreachable,
                              10000);
    m_registry->setNodeState(QStringLiteral("a"), NodeState::Ready);
    m_registry->setNodeState(QStringLiteral("c"), NodeState::Ready);
    QCOMPARE(m_model->readyCount(), 2);
    QCOMPARE(m_model->readySlots(), 7);
}

// The panel's status line says why a node is unreachable (where a person sees it without
// hovering over the table), and the log pane gets it once per unreachable spell, not per probe.
void TestClusterTableModel::panelSaysWhyOnceInTheLog() {
    tessera::LocalWorkers local(m_registry);
    tessera::ClusterPanel panel(m_registry, &local);
    QSignalSpy said(&panel, &tessera::ClusterPanel::message);
    m_registry->setProbeInterval(100);
    m_registry->addNode(node(QStringLiteral("dead")));
    auto* status = panel.findChild<QLabel*>(QStringLiteral("clusterStatus"));
    QVERIFY(status);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(QLatin1String("dead is unreachable: ")),
                             10000);
    QVERIFY2(status->text().contains(QLatin1String("127.0.0.1:9")), qPrintable(status->text()));
    // Several more failed probes (nothing to wait for: a negative check, 1 s).
    QTest::qWait(1000);
    QCOMPARE(said.count(), 1);
}

QTEST_MAIN(TestClusterTableModel)
#include "tst_clustertablemodel.moc"
