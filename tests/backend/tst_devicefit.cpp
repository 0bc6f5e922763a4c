// Device-aware autoscaling: the need of a job (layout.device, the planner's per-device memory),
// which ready nodes and offers fit it, and that the autoscaler rents only offers that fit and
// refuses with the offers that do not and why. Scripted providers; no machines are started.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/planner/planner.h"
#include "backend/provision/devicefit.h"
#include "tests/support/scriptedprovider.h"
#include "worker/common/spec_io.h"

#include <QTest>

using namespace tessera;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// The Fashion-MNIST MLP example with `ranks` data-parallel ranks on `device`.
v1::JobSpec mlpJob(int ranks, const QString& device) {
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    if (!spec) {
        qFatal("example spec: %s", spec.error().message.c_str());
    }
    spec->mutable_layout()->set_data_parallel(ranks);
    spec->mutable_layout()->clear_stages();
    spec->mutable_layout()->set_tensor_parallel(1);
    spec->mutable_layout()->set_device(device.toStdString());
    return *spec;
}

WorkerNode node(int slots, int gpus, double gpuGiB, double ramGiB) {
    WorkerNode n;
    n.name = QStringLiteral("n");
    n.state = NodeState::Ready;
    n.slots = slots;
    n.cudaDevices = gpus;
    n.gpuMemoryBytes = quint64(gpuGiB * kGiB);
    n.memoryBytes = quint64(ramGiB * kGiB);
    return n;
}

} // namespace

class TstDeviceFit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void needComesFromTheLayoutAndThePlanner() {
        const v1::JobSpec gpu = mlpJob(2, QStringLiteral("cuda"));
        const DeviceNeed need = deviceNeedOf(gpu);
        QCOMPARE(need.kind, QStringLiteral("cuda"));
        const auto planned = planner::peakDeviceMemory(gpu);
        QVERIFY(planned.has_value());
        QVERIFY(*planned > 0);
        QCOMPARE(need.memoryBytes, *planned);
        QVERIFY(need.memoryNote.isEmpty());
        QVERIFY2(need.describe().startsWith(QStringLiteral("GPU(s) with ≥ ")),
                 qPrintable(need.describe()));
        // Twice the hidden width: more weights, gradients and momentum per rank.
        v1::JobSpec wider = gpu;
        for (int i = 0; i < wider.model().hidden_size(); ++i) {
            wider.mutable_model()->set_hidden(i, wider.model().hidden(i) * 2);
        }
        QVERIFY(deviceNeedOf(wider).memoryBytes > need.memoryBytes);
        // A user command: kind from the layout, memory unknown, and the note says why.
        v1::JobSpec command = gpu;
        command.mutable_model()->Clear();
        command.mutable_model()->add_command("/bin/true");
        const DeviceNeed unknown = deviceNeedOf(command);
        QCOMPARE(unknown.memoryBytes, 0.0);
        QVERIFY2(unknown.memoryNote.contains(QLatin1String("user command")),
                 qPrintable(unknown.memoryNote));
        QCOMPARE(unknown.describe(), QStringLiteral("GPU(s)"));
    }

    void nodeSlots_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("needGiB");
        QTest::addColumn<WorkerNode>("worker");
        QTest::addColumn<int>("slots");
        QTest::newRow("cuda on cpu node") << "cuda" << 1.0 << node(4, 0, 0, 64) << 0;
        QTest::newRow("cuda: a rank per gpu") << "cuda" << 1.0 << node(16, 8, 80, 512) << 8;
        QTest::newRow("cuda: gpu too small") << "cuda" << 40.0 << node(8, 8, 24, 512) << 0;
        QTest::newRow("cuda: memory unknown") << "cuda" << 40.0 << node(8, 8, 0, 512) << 8;
        QTest::newRow("cpu on cpu node") << "cpu" << 1.0 << node(4, 0, 0, 64) << 4;
        QTest::newRow("cpu: ram too small") << "cpu" << 20.0 << node(4, 0, 0, 64) << 0;
        QTest::newRow("cpu on gpu node uses ram") << "cpu" << 1.0 << node(4, 2, 80, 64) << 4;
        QTest::newRow("any on cpu node") << "" << 1.0 << node(4, 0, 0, 64) << 4;
        QTest::newRow("any on gpu node") << "" << 1.0 << node(4, 4, 80, 64) << 4;
    }
    void nodeSlots() {
        QFETCH(QString, kind);
        QFETCH(double, needGiB);
        QFETCH(WorkerNode, worker);
        QFETCH(int, slots);
        QCOMPARE(fittingSlots(worker, DeviceNeed{kind, needGiB * kGiB, {}}), slots);
    }

    void rentsOnlyOffersThatFit_data() {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("rented"); // provider whose offers were rented; "" = refused
        QTest::addColumn<QStringList>("said");
        // Offers: CPU nodes (4 slots, $0.40/h = $0.10 per slot), one-GPU nodes with half the
        // need ($0.50/h) and one-GPU nodes with twice the need ($2.00/h).
        QTest::newRow("gpu layout rents the gpus that fit")
            << "cuda"
            << "big" << QStringList{"renting 2 node(s)", "GPU(s) with ≥ "};
        QTest::newRow("cpu layout rents cpu nodes") << "cpu"
                                                    << "scripted" << QStringList{"CPU slot(s)"};
        QTest::newRow("any device: cheapest per slot")
            << ""
            << "scripted" << QStringList{"renting 1 node(s)"};
        QTest::newRow("gpu layout, no gpu fits")
            << "cuda-none-fits"
            << ""
            << QStringList{"needs 2 more GPU(s) with ≥ ", "and the offers that fit have 0",
                           "box-0: CPU only", "small-box-0: NVIDIA L4 has "};
    }
    void rentsOnlyOffersThatFit() {
        QFETCH(QString, device);
        QFETCH(QString, rented);
        QFETCH(QStringList, said);
        const bool noneFits = device == QLatin1String("cuda-none-fits");
        const v1::JobSpec job = mlpJob(2, noneFits ? QStringLiteral("cuda") : device);
        const double need = deviceNeedOf(job).memoryBytes;
        QVERIFY(need > 0);
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        test::ScriptedProvider cpu({0.4, 0.4}, false, 4);
        test::ScriptedProvider small({0.5, 0.5}, false);
        small.makeGpu(QStringLiteral("small"), QStringLiteral("NVIDIA L4"), 1, quint64(need / 2));
        test::ScriptedProvider big({2.0, 2.0}, false);
        big.makeGpu(QStringLiteral("big"), QStringLiteral("NVIDIA H100"), 1, quint64(need * 2));
        QList<Provider*> providers{&cpu, &small};
        if (!noneFits) {
            providers << &big;
        }
        Autoscaler scaler(&registry, &jobs, providers);
        scaler.setPolicy({true, 0, 0, 8, 60});
        auto r = scaler.submit(job);
        const QString text =
            scaler.decisions().isEmpty() ? QString() : scaler.decisions().first().text;
        for (const QString& s : said) {
            QVERIFY2(text.contains(s), qPrintable(text));
        }
        if (rented.isEmpty()) {
            QVERIFY(!r.has_value());
            QVERIFY(cpu.leases().isEmpty() && small.leases().isEmpty() && big.leases().isEmpty());
            return;
        }
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QVERIFY(r->startsWith(QLatin1String("wait-")));
        for (const test::ScriptedProvider* p : {&cpu, &small, &big}) {
            QCOMPARE(p->leases().isEmpty(), p->id() != rented);
        }
    }

    void controllerRefusesGpuLayoutWithoutGpus() {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        auto r = jobs.submit(mlpJob(2, QStringLiteral("cuda")));
        QVERIFY(!r.has_value());
        QVERIFY2(QString::fromStdString(r.error().message)
                     .contains(QLatin1String("layout.device cuda) and needs 2 of them")),
                 r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TstDeviceFit)
#include "tst_devicefit.moc"
