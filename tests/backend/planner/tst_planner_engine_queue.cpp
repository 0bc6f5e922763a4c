// The planner's ZB-H1 weight-gradient queue of each built-in layer (PlanLayer::deferredWhole and
// deferredSplit, model_import.cpp) against what tessera-train's layers keep
// (Layer::deferredFloats, worker/train/nn): the same floats per sample for the MLP, ViT and GPT
// families at TP 1 and TP 2, so that the designer's ZB-H1 memory is the engine's.
#include "backend/planner/planner.h"
#include "tests/support/thread_communicator.h"
#include "worker/common/model_desc.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/nn/model.h"

#include <QTest>

using namespace tessera;
using namespace tessera::train;

class TestPlannerEngineQueue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameFloatsAsTheEngine_data();
    void sameFloatsAsTheEngine();
};

void TestPlannerEngineQueue::sameFloatsAsTheEngine_data() {
    QTest::addColumn<v1::ModelSpec>("spec");
    QTest::addColumn<int>("tp");
    v1::ModelSpec mlp;
    mlp.set_family("mlp");
    mlp.add_hidden(64), mlp.add_hidden(32);
    v1::ModelSpec vit;
    vit.set_family("vit");
    vit.set_blocks(2), vit.set_dim(32), vit.set_heads(4), vit.set_patch(7);
    v1::ModelSpec gpt;
    gpt.set_family("gpt");
    gpt.set_blocks(2), gpt.set_dim(32), gpt.set_heads(4), gpt.set_context(16);
    for (int tp : {1, 2}) {
        QTest::addRow("mlp tp%d", tp) << mlp << tp;
        QTest::addRow("vit tp%d", tp) << vit << tp;
        QTest::addRow("gpt tp%d", tp) << gpt << tp;
    }
}

void TestPlannerEngineQueue::sameFloatsAsTheEngine() {
    QFETCH(v1::ModelSpec, spec);
    QFETCH(int, tp);
    const auto desc = describeModel(spec);
    QVERIFY2(desc.has_value(), desc ? "" : desc.error().message.c_str());
    const auto model = planner::modelFromSpec(spec, 0);
    QVERIFY2(model.has_value(), model ? "" : model.error().message.c_str());
    const int n = int(desc->layers.size());
    QCOMPARE(int(model->layers.size()), n);
    CpuOps ops;
    // Rank 0 of a TP group; the layers are only built, never run.
    const auto group = test::ThreadCommunicator::makeGroup(tp);
    const auto layers =
        buildLayers(spec, *desc, 0, n - 1, ops, TpContext{group.front().get(), 0, tp});
    QVERIFY2(layers.has_value(), layers ? "" : layers.error().message.c_str());
    double total = 0;
    for (int i = 0; i < n; ++i) {
        const planner::PlanLayer& l = model->layers[std::size_t(i)];
        const double planned = l.deferredWhole + l.deferredSplit / tp;
        const double engine = double((*layers)[std::size_t(i)]->deferredFloats());
        QVERIFY2(planned == engine, qPrintable(QStringLiteral("%1: planner %2, engine %3")
                                                   .arg(QString::fromStdString(l.name))
                                                   .arg(planned)
                                                   .arg(engine)));
        total += engine;
    }
    QVERIFY(total > 0); // every family has linear parts
}

QTEST_GUILESS_MAIN(TestPlannerEngineQueue)
#include "tst_planner_engine_queue.moc"
