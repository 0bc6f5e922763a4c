// Tests of ClusterTableModel over a ClusterView fed with a server's snapshots (as WatchCluster
// brings them; no server needed): structure checked by QAbstractItemModelTester, rows follow
// the snapshots; ClusterView's own diff (added / changed / removed, nothing for an unchanged
// node); the panel's status line and log say why a node is unreachable, once per spell.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "backend/client/clusterview.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/jobtypes.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

using tessera::ClusterTableModel;
using tessera::NodeState;
using tessera::client::ClusterView;
namespace bv1 = tessera::backend::v1;

namespace {

/// A server's cluster, changed node by node and sent whole to the view, as WatchCluster does.
struct FakeCluster {
    ClusterView view;
    QList<bv1::NodeInfo> nodes;

    void add(const QString& name, int slots = 1, quint64 memory = 0) {
        bv1::NodeInfo n;
        n.set_name(name.toStdString());
        n.set_address("127.0.0.1:9");
        n.set_state("connecting");
        n.set_slots(slots);
        n.set_cores(4);
        n.set_memory_bytes(memory);
        n.set_provider("manual");
        nodes << n;
        send();
    }
    void set(const QString& name, const char* state, const char* error = "") {
        for (bv1::NodeInfo& n : nodes) {
            if (n.name() == name.toStdString()) {
                n.set_state(state);
                n.set_last_error(error);
            }
        }
        send();
    }
    void remove(const QString& name) {
        nodes.removeIf([&](const bv1::NodeInfo& n) { return n.name() == name.toStdString(); });
        send();
    }
    void send() {
        bv1::ClusterSnapshot s;
        for (const bv1::NodeInfo& n : std::as_const(nodes)) {
            *s.add_nodes() = n;
        }
        view.apply(s);
    }
};

} // namespace

class TestClusterTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void emptyCluster();
    void followsAddChangeRemove();
    void anUnchangedSnapshotSaysNothing();
    void displaysColumns_data();
    void displaysColumns();
    void unreachableNodeShowsError();
    void readySlotsCountsOnlyReadyNodes();
    void panelSaysWhyOnceInTheLog();

private:
    FakeCluster* m_cluster = nullptr;
    ClusterTableModel* m_model = nullptr;
    QAbstractItemModelTester* m_tester = nullptr;
};

void TestClusterTableModel::init() {
    tessera::registerBackendMetaTypes();
    m_cluster = new FakeCluster;
    m_model = new ClusterTableModel(&m_cluster->view);
    m_tester = new QAbstractItemModelTester(m_model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestClusterTableModel::cleanup() {
    delete m_tester;
    delete m_model;
    delete m_cluster;
}

void TestClusterTableModel::emptyCluster() {
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
    m_cluster->add(QStringLiteral("a"));
    m_cluster->add(QStringLiteral("b"));
    m_cluster->add(QStringLiteral("c"));
    QCOMPARE(inserted.count(), 3);
    QCOMPARE(m_model->rowCount(), 3);
    QCOMPARE(m_model->index(1, ClusterTableModel::Name).data().toString(), QStringLiteral("b"));

    m_cluster->set(QStringLiteral("b"), "stopped");
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_model->index(1, ClusterTableModel::State).data().toString(),
             QStringLiteral("stopped"));
    QCOMPARE(m_model->index(1, ClusterTableModel::State).data(Qt::UserRole).toInt(),
             int(NodeState::Stopped));

    m_cluster->remove(QStringLiteral("b"));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->index(0, ClusterTableModel::Name).data().toString(), QStringLiteral("a"));
    QCOMPARE(m_model->index(1, ClusterTableModel::Name).data().toString(), QStringLiteral("c"));
    QCOMPARE(m_cluster->view.node(QStringLiteral("c"))->name, QStringLiteral("c"));
    QVERIFY(!m_cluster->view.node(QStringLiteral("b")));
}

void TestClusterTableModel::anUnchangedSnapshotSaysNothing() {
    m_cluster->add(QStringLiteral("a"));
    QSignalSpy added(&m_cluster->view, &ClusterView::nodeAdded);
    QSignalSpy changed(&m_cluster->view, &ClusterView::nodeChanged);
    QSignalSpy removed(&m_cluster->view, &ClusterView::nodeRemoved);
    QSignalSpy applied(&m_cluster->view, &ClusterView::changed);
    m_cluster->send(); // the same cluster again (a lease's cost moved, say)
    QCOMPARE(added.count() + changed.count() + removed.count(), 0);
    QCOMPARE(applied.count(), 1);
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
    m_cluster->add(QStringLiteral("w1"), 2, memory);
    QCOMPARE(m_model->index(0, column).data().toString(), text);
}

void TestClusterTableModel::unreachableNodeShowsError() {
    m_cluster->add(QStringLiteral("dead"));
    m_cluster->set(QStringLiteral("dead"), "unreachable", "no answer from 127.0.0.1:9");
    QCOMPARE(m_model->index(0, ClusterTableModel::State).data().toString(),
             QStringLiteral("unreachable"));
    const QString tip = m_model->index(0, ClusterTableModel::Name).data(Qt::ToolTipRole).toString();
    QCOMPARE(tip, QStringLiteral("no answer from 127.0.0.1:9"));
    // …and in its Problem column, where it is seen without hovering.
    QCOMPARE(m_model->index(0, ClusterTableModel::Problem).data().toString(), tip);
    QCOMPARE(m_model->readyCount(), 0);
}

void TestClusterTableModel::readySlotsCountsOnlyReadyNodes() {
    m_cluster->add(QStringLiteral("a"), 2);
    m_cluster->add(QStringLiteral("b"), 3);
    m_cluster->add(QStringLiteral("c"), 5);
    m_cluster->set(QStringLiteral("a"), "ready");
    m_cluster->set(QStringLiteral("b"), "unreachable", "gone");
    m_cluster->set(QStringLiteral("c"), "ready");
    QCOMPARE(m_model->readyCount(), 2);
    QCOMPARE(m_model->readySlots(), 7);
    QCOMPARE(m_cluster->view.readyNodes().size(), 2);
}

// The panel's status line says why a node is unreachable (where a person sees it without
// hovering over the table), and the log pane gets it once per unreachable spell, not per
// snapshot.
void TestClusterTableModel::panelSaysWhyOnceInTheLog() {
    tessera::ClusterRegistry registry;
    tessera::LocalWorkers local(&registry);
    tessera::ClusterPanel panel(&m_cluster->view, &local);
    QSignalSpy said(&panel, &tessera::ClusterPanel::message);
    m_cluster->add(QStringLiteral("dead"));
    auto* status = panel.findChild<QLabel*>(QStringLiteral("clusterStatus"));
    QVERIFY(status);
    for (const char* why : {"no answer from 127.0.0.1:9", "connection refused at 127.0.0.1:9"}) {
        m_cluster->set(QStringLiteral("dead"), "unreachable", why);
        QCOMPARE(status->text(), QStringLiteral("dead is unreachable: ") + QLatin1String(why));
    }
    QCOMPARE(said.count(), 1);
    m_cluster->set(QStringLiteral("dead"), "ready");
    QCOMPARE(status->text(), QStringLiteral("dead answers again."));
}

QTEST_MAIN(TestClusterTableModel)
#include "tst_clustertablemodel.moc"
