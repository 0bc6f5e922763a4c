// The designer's second row: sequence length, precision, recompute, SP and FlashAttention are
// undoable edits of the layout file, the planner's estimate follows them, and the ones the
// engine does not run are disabled for a built-in model.
#include "app/designer/layoutcontrols.h"
#include "app/designer/plandocument.h"
#include "app/designer/trainingcontrols.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace tessera;
using namespace tessera::designer;

class TestTrainingControls : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void editsTheDocumentAndUndo();
    void estimateFollowsTheControls();
    void builtinModelDisablesWhatTheEngineLacks();
    void microBatchSizeIsShown();
};

namespace {

v1::PlanFile llamaPlan() {
    QFile f(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/llama-2-7b.json"));
    v1::PlanFile plan;
    if (f.open(QIODevice::ReadOnly)) {
        plan.set_hf_config_json(f.readAll().toStdString());
    }
    v1::PlanNode* node = plan.add_nodes();
    node->set_name("node0");
    node->set_device("h100-sxm");
    node->set_devices(8);
    plan.mutable_layout()->set_data_parallel(1);
    plan.mutable_layout()->set_tensor_parallel(8);
    plan.mutable_settings()->set_global_batch(8);
    return plan;
}

} // namespace

void TestTrainingControls::editsTheDocumentAndUndo() {
    PlanDocument doc;
    doc.reset(llamaPlan());
    TrainingControls controls(&doc);
    controls.recompute()->setCurrentIndex(controls.recompute()->findData(QStringLiteral("full")));
    QCOMPARE(doc.file().settings().recompute(), std::string("full"));
    controls.sequenceParallel()->setChecked(true);
    QVERIFY(doc.file().settings().sequence_parallel());
    controls.flashAttention()->setCurrentIndex(
        controls.flashAttention()->findData(QStringLiteral("off")));
    QCOMPARE(doc.file().settings().flash_attention(), std::string("off"));
    controls.precision()->setCurrentIndex(controls.precision()->findData(QStringLiteral("fp8")));
    QCOMPARE(doc.file().settings().precision(), std::string("fp8"));
    controls.sequenceLength()->setValue(2048);
    QCOMPARE(doc.file().seq_len(), 2048);
    QCOMPARE(doc.model()->seqLen, 2048); // the model is rebuilt at the new length
    QCOMPARE(doc.undoStack()->count(), 5);
    doc.undoStack()->undo();
    QCOMPARE(doc.file().seq_len(), 0);
    QCOMPARE(controls.sequenceLength()->value(), 0); // the control follows the document
    doc.undoStack()->undo();
    QCOMPARE(doc.file().settings().precision(), std::string());
    QCOMPARE(controls.precision()->currentData().toString(), QString());
}

void TestTrainingControls::estimateFollowsTheControls() {
    PlanDocument doc;
    doc.reset(llamaPlan());
    TrainingControls controls(&doc);
    const auto estimate = [&] {
        return planner::estimate(*doc.model(), doc.cluster(), doc.layout(), doc.options());
    };
    const auto withFlash = estimate();
    QVERIFY(withFlash.has_value());
    controls.flashAttention()->setCurrentIndex(
        controls.flashAttention()->findData(QStringLiteral("off")));
    const auto without = estimate();
    QVERIFY(without.has_value());
    // Without FlashAttention the 5·a·s² bytes of scores per layer come back.
    QVERIFY(without->devices[0].activations > 2 * withFlash->devices[0].activations);
}

void TestTrainingControls::builtinModelDisablesWhatTheEngineLacks() {
    PlanDocument doc;
    v1::PlanFile plan = llamaPlan();
    plan.clear_hf_config_json();
    plan.mutable_model()->set_family("mlp");
    plan.mutable_model()->add_hidden(32);
    doc.reset(plan);
    TrainingControls controls(&doc);
    QVERIFY(!controls.recompute()->isEnabled());
    QVERIFY(!controls.sequenceParallel()->isEnabled());
    QVERIFY(!controls.flashAttention()->isEnabled());
    QVERIFY(!controls.sequenceLength()->isEnabled());
    QVERIFY(controls.precision()->isEnabled());
    doc.reset(llamaPlan());
    QVERIFY(controls.recompute()->isEnabled());
}

void TestTrainingControls::microBatchSizeIsShown() {
    PlanDocument doc;
    v1::PlanFile plan = llamaPlan();
    plan.mutable_layout()->set_tensor_parallel(1);
    plan.mutable_layout()->set_data_parallel(2);
    plan.mutable_layout()->set_micro_batches(2);
    doc.reset(plan);
    LayoutControls controls(&doc);
    auto* size = controls.findChild<QLabel*>(QStringLiteral("microSizeLabel"));
    QVERIFY(size);
    QCOMPARE(size->text(), QStringLiteral("×2")); // 8 / (2 × 2)
    QVERIFY(size->styleSheet().isEmpty());
    controls.microBatches()->setValue(3);
    QCOMPARE(size->text(), QStringLiteral("×1.33"));
    QVERIFY(size->styleSheet().contains(QLatin1String("#c62828"))); // not whole: red
}

QTEST_MAIN(TestTrainingControls)
#include "tst_trainingcontrols.moc"
