// Spec files the backend refuses before any worker is involved: each error names the field or
// file and says what to do (parseJobSpec + validateJobSpec, as JobController::submit uses them).
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestSpecValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rejected_data();
    void rejected();
    void exampleSpecIsValid();
    void parallelLayoutsAccepted_data();
    void parallelLayoutsAccepted();
    void everyExampleIsValid();
    void loadRefusesFoldersAndHugeFiles();
    void relativeDatasetPathIsResolvedAgainstTheSpec();
    void recoveryAccepted();
    void interleavedUserProgramAccepted();
};

void TestSpecValidation::recoveryAccepted() {
    const QList<QPair<const char*, double>> accepted = {
        {R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":1},
             "recovery":{"hangTimeoutS":120,"onNodeLoss":"fail","maxRestarts":0}})",
         120.0},
        {R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":1},
             "checkpoint":{"dir":"/shared/ckpt","everySteps":50},
             "recovery":{"hangTimeoutS":120,"onNodeLoss":"replace","maxRestarts":100}})",
         120.0},
        {R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":1},
             "checkpoint":{"disabled":true},"recovery":{"maxRestarts":2}})",
         0.0},
        {R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":1},
             "checkpoint":{"dir":"/shared/ckpt"},
             "recovery":{"onNodeLoss":"shrink","maxRestarts":1,"hangTimeoutS":30}})",
         30.0}};
    for (const auto& [json, hang] : accepted) {
        Result<v1::JobSpec> spec = parseJobSpec(json, "spec.json");
        QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
        Result<void> ok = validateJobSpec(*spec);
        QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
        QCOMPARE(spec->recovery().hang_timeout_s(), hang);
    }
}

/// A user program (Megatron-LM, say) may run interleaved 1F1B: 4 model chunks with 2 virtual
/// stages are 2 pipeline ranks, so DP 3 needs 6 ranks, not 12.
void TestSpecValidation::interleavedUserProgramAccepted() {
    const std::string json =
        R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":3,"virtualStages":2,
        "schedule":"PIPELINE_SCHEDULE_INTERLEAVED","stages":[{"firstLayer":0,"lastLayer":1},
        {"firstLayer":2,"lastLayer":3},{"firstLayer":4,"lastLayer":5},
        {"firstLayer":6,"lastLayer":7}]}})";
    Result<v1::JobSpec> spec = parseJobSpec(json, "spec.json");
    QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
    Result<void> ok = validateJobSpec(*spec);
    QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
    QCOMPARE(pipelineRanks(spec->layout()), 2);
    QCOMPARE(worldSize(spec->layout()), 6);
}

void TestSpecValidation::rejected_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("mentions");
    const QString training =
        QStringLiteral("\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":0.05}");
    const QString model = QStringLiteral("\"model\":{\"family\":\"mlp\",\"hidden\":[16]}");
    QTest::newRow("unknown field")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1},\"colour\":\"red\"}")
               .arg(model, training)
        << QStringLiteral("colour");
    QTest::newRow("missing dataset path")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1},\"dataset\":{\"name\":"
                          "\"fashion-mnist\",\"path\":\"/nonexistent/fmnist\"}}")
               .arg(model, training)
        << QStringLiteral("/nonexistent/fmnist");
    QTest::newRow("unknown device")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"device\":\"tpu\"}}")
               .arg(model, training)
        << QStringLiteral("layout.device is \"tpu\": use \"cuda\", \"cpu\"");
    QTest::newRow("zero ranks")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":0}}").arg(model, training)
        << QStringLiteral("rank");
    QTest::newRow("global batch not divisible")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":65,\"learningRate\":"
                          "0.05},\"layout\":{\"dataParallel\":2}}")
               .arg(model)
        << QStringLiteral("globalBatch");
    QTest::newRow("unknown model family")
        << QStringLiteral("{\"model\":{\"family\":\"resnet\"},%1,\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("resnet");
    QTest::newRow("momentum NaN")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"momentum\":\"NaN\"},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("momentum");
    QTest::newRow("learning rate infinite")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "\"Infinity\"},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("learningRate");
    const QString gpt = QStringLiteral(
        "\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":2,\"heads\":4,\"context\":16},"
        "\"dataset\":{\"name\":\"text\",\"path\":\"/usr/share/common-licenses/GPL-3\"}");
    // GPT layers: 0 embedding, 1 block0, 2 block1, 3 ln_f, 4 head.
    QTest::newRow("heads not divisible by tensor parallel")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"tensorParallel\":3}}")
               .arg(gpt, training)
        << QStringLiteral("not divisible by layout.tensorParallel 3");
    QTest::newRow("empty stage")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"stages\":[{\"firstLayer\":0,"
                          "\"lastLayer\":2},{\"firstLayer\":3,\"lastLayer\":2},{\"firstLayer\":3,"
                          "\"lastLayer\":4}]}}")
               .arg(gpt, training)
        << QStringLiteral("stages[1] is empty");
    QTest::newRow("layer in no stage")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"stages\":[{\"firstLayer\":0,"
                          "\"lastLayer\":1},{\"firstLayer\":3,\"lastLayer\":4}]}}")
               .arg(gpt, training)
        << QStringLiteral("layer 2 (block1) is in no stage");
    QTest::newRow("last layer in no stage")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"stages\":[{\"firstLayer\":0,"
                          "\"lastLayer\":1},{\"firstLayer\":2,\"lastLayer\":3}]}}")
               .arg(gpt, training)
        << QStringLiteral("layer 4 (head) is in no stage");
    QTest::newRow("layer in two stages")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"stages\":[{\"firstLayer\":0,"
                          "\"lastLayer\":2},{\"firstLayer\":2,\"lastLayer\":4}]}}")
               .arg(gpt, training)
        << QStringLiteral("layer 2 (block1) is in two stages");
    QTest::newRow("stage outside the model")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"stages\":[{\"firstLayer\":0,"
                          "\"lastLayer\":9}]}}")
               .arg(gpt, training)
        << QStringLiteral("outside the model");
    QTest::newRow("micro-batches do not divide the batch")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":2,\"microBatches\":5,"
                          "\"stages\":[{\"firstLayer\":0,\"lastLayer\":1},{\"firstLayer\":2,"
                          "\"lastLayer\":4}]}}")
               .arg(gpt, training)
        << QStringLiteral("microBatches (5)");
    QTest::newRow("ZeRO stage 2") << QStringLiteral(
                                         "{%1,%2,\"layout\":{\"dataParallel\":2,\"zeroStage\":2}}")
                                         .arg(model, training)
                                  << QStringLiteral("zeroStage");
    QTest::newRow("gpt without a text file")
        << QStringLiteral("{\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":1,\"heads\":4,"
                          "\"context\":8},\"dataset\":{\"name\":\"text\"},%1,\"layout\":{"
                          "\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("dataset.path");
    QTest::newRow("gpt text file missing")
        << QStringLiteral("{\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":1,\"heads\":4,"
                          "\"context\":8},\"dataset\":{\"name\":\"text\",\"path\":"
                          "\"/nonexistent/book.txt\"},%1,\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("/nonexistent/book.txt");
    QTest::newRow("gpt on images")
        << QStringLiteral("{\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":1,\"heads\":4,"
                          "\"context\":8},\"dataset\":{\"name\":\"fashion-mnist\"},%1,"
                          "\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("text");
    QTest::newRow("world size overflowing 32 bits")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":65536,"
                          "\"learningRate\":0.05},\"layout\":{\"dataParallel\":65536,"
                          "\"tensorParallel\":65536}}")
               .arg(model)
        << QStringLiteral("more than 65536 ranks");
    QTest::newRow("negative logEvery")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"logEvery\":-5},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("logEvery");
    QTest::newRow("two billion sample characters")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"sampleChars\":2000000000},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("at most 100000");
    QTest::newRow("random flips of text")
        << QStringLiteral("{\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":1,\"heads\":4,"
                          "\"context\":8},\"dataset\":{\"name\":\"text\",\"path\":"
                          "\"/usr/share/common-licenses/GPL-3\",\"randomFlip\":true},%1,"
                          "\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("randomFlip");
    QTest::newRow("vit patch does not divide 28")
        << QStringLiteral("{\"model\":{\"family\":\"vit\",\"dim\":32,\"blocks\":1,\"heads\":4,"
                          "\"patch\":5},%1,\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("patch");
    QTest::newRow("dim not divisible by heads")
        << QStringLiteral("{\"model\":{\"family\":\"vit\",\"dim\":30,\"blocks\":1,\"heads\":4,"
                          "\"patch\":7},%1,\"layout\":{\"dataParallel\":1}}")
               .arg(training)
        << QStringLiteral("heads");
    QTest::newRow("adamw beta2 of 1.5")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"optimizer\":\"adamw\",\"beta2\":1.5},\"layout\":{"
                          "\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("beta2");
    QTest::newRow("unknown learning-rate schedule")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"lrSchedule\":\"linear\"},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("lrSchedule");
    QTest::newRow("unknown optimizer")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05,\"optimizer\":\"lion\"},\"layout\":{\"dataParallel\":1}}")
               .arg(model)
        << QStringLiteral("adamw");
    QTest::newRow("malformed json") << QStringLiteral("{\"name\": ") << QStringLiteral("spec.json");
    QTest::newRow("unknown launcher")
        << QStringLiteral("{\"model\":{\"command\":[\"python3\",\"t.py\"],\"launcher\":\"srun\"},"
                          "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("\"mpirun\"");
    QTest::newRow("launcher on a built-in family")
        << QStringLiteral("{%1,\"training\":{\"epochs\":1,\"globalBatch\":64,\"learningRate\":"
                          "0.05},\"layout\":{\"dataParallel\":1}}")
               .arg(model.left(model.size() - 1) + QStringLiteral(",\"launcher\":\"torchrun\"}"))
        << QStringLiteral("user program");
    QTest::newRow("empty program")
        << QStringLiteral("{\"model\":{\"command\":[\"\"]},\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("command[0] is empty");
    // recovery: what is not built yet is refused plainly, not accepted and ignored.
    const QString program =
        QStringLiteral("\"model\":{\"command\":[\"/bin/true\"]},\"layout\":{\"dataParallel\":1}");
    QTest::newRow("negative hang timeout")
        << QStringLiteral("{%1,\"recovery\":{\"hangTimeoutS\":-1}}").arg(program)
        << QStringLiteral("recovery.hangTimeoutS is -1");
    QTest::newRow("sub-second hang timeout")
        << QStringLiteral("{%1,\"recovery\":{\"hangTimeoutS\":0.2}}").arg(program)
        << QStringLiteral("from 1 to 604800");
    QTest::newRow("restarts without a shared checkpoint folder")
        << QStringLiteral("{%1,\"recovery\":{\"maxRestarts\":3}}").arg(program)
        << QStringLiteral("checkpoint.dir is not set: a relaunch resumes from the newest");
    QTest::newRow("restarts with a relative checkpoint folder")
        << QStringLiteral("{%1,\"checkpoint\":{\"dir\":\"ck\"},\"recovery\":{\"maxRestarts\":1}}")
               .arg(program)
        << QStringLiteral("checkpoint.dir is \"ck\"");
    QTest::newRow("too many restarts")
        << QStringLiteral(
               "{%1,\"checkpoint\":{\"disabled\":true},\"recovery\":{\"maxRestarts\":101}}")
               .arg(program)
        << QStringLiteral("recovery.maxRestarts is 101: give 0 (fail the job) to 100");
    QTest::newRow("negative restarts")
        << QStringLiteral("{%1,\"recovery\":{\"maxRestarts\":-1}}").arg(program)
        << QStringLiteral("recovery.maxRestarts is -1");
    // Interleaved 1F1B: a whole number of chunks per pipeline rank; tessera-train runs neither
    // it nor ZB-H1 yet and says so.
    const QString fourChunks = QStringLiteral(
        "\"stages\":[{\"firstLayer\":0,\"lastLayer\":1},{\"firstLayer\":2,\"lastLayer\":3},"
        "{\"firstLayer\":4,\"lastLayer\":5},{\"firstLayer\":6,\"lastLayer\":7}]");
    const QString command = QStringLiteral("\"model\":{\"command\":[\"/bin/true\"]}");
    QTest::newRow("virtual stages with 1F1B")
        << QStringLiteral("{%1,\"layout\":{\"dataParallel\":1,\"virtualStages\":2,%2}}")
               .arg(command, fourChunks)
        << QStringLiteral("layout.virtualStages 2 needs layout.schedule "
                          "PIPELINE_SCHEDULE_INTERLEAVED");
    QTest::newRow("chunks not a multiple of the virtual stages")
        << QStringLiteral("{%1,\"layout\":{\"dataParallel\":1,\"virtualStages\":3,"
                          "\"schedule\":\"PIPELINE_SCHEDULE_INTERLEAVED\",%2}}")
               .arg(command, fourChunks)
        << QStringLiteral("4 model chunks, not a multiple of layout.virtualStages 3");
    QTest::newRow("negative virtual stages")
        << QStringLiteral("{%1,\"layout\":{\"dataParallel\":1,\"virtualStages\":-2}}").arg(command)
        << QStringLiteral("layout.virtualStages is -2");
    QTest::newRow("interleaved with fewer micro-batches than pipeline ranks")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"microBatches\":1,"
                          "\"virtualStages\":2,\"schedule\":\"PIPELINE_SCHEDULE_INTERLEAVED\","
                          "%3}}")
               .arg(QStringLiteral("\"model\":{\"family\":\"mlp\",\"hidden\":[16,16,16]}"),
                    training, fourChunks.left(fourChunks.size() - 3) + "6}]")
        << QStringLiteral("layout.microBatches (1) must be a multiple of the 2 pipeline ranks");
    // Hostile text (issue 45): a NUL cut the arguments at it, a line break forges log lines.
    QTest::newRow("NUL in a command argument")
        << QStringLiteral("{\"model\":{\"command\":[\"/usr/bin/python3\\u0000x\",\"argv.py\"]},"
                          "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("model.command[0] holds a control character (U+0000 at byte 16)");
    QTest::newRow("NUL in a later argument")
        << QStringLiteral(
               "{\"model\":{\"command\":[\"/usr/bin/python3\",\"argv.py\",\"a\\u0000b\"]},"
               "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("model.command[2] holds a control character (U+0000 at byte 1)");
    QTest::newRow("escape in an argument")
        << QStringLiteral("{\"model\":{\"command\":[\"/bin/echo\",\"a\\u001b[2Jb\"]},"
                          "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("model.command[1] holds a control character (U+001B at byte 1)");
    QTest::newRow("line break in the job name")
        << QStringLiteral("{%1,\"name\":\"a\\nb\"}").arg(program)
        << QStringLiteral("name holds a control character (U+000A at byte 1)");
    QTest::newRow("C1 control in the job name")
        << QStringLiteral("{%1,\"name\":\"run \\u009b31m\"}").arg(program)
        << QStringLiteral("name holds a control character (U+009B at byte 4)");
    QTest::newRow("escape in the workdir")
        << QStringLiteral(
               "{\"model\":{\"command\":[\"/bin/true\"],\"workdir\":\"/tmp/\\u001b[2J\"},"
               "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("model.workdir holds a control character (U+001B at byte 5)");
    QTest::newRow("negative workdir limit")
        << QStringLiteral("{\"model\":{\"command\":[\"/bin/true\"],\"workdirMaxMib\":-1},"
                          "\"layout\":{\"dataParallel\":1}}")
        << QStringLiteral("model.workdirMaxMib is -1: give the largest packed workdir in MiB");
    QTest::newRow("negative checkpoint period")
        << QStringLiteral("{%1,\"checkpoint\":{\"everySteps\":-5}}").arg(program)
        << QStringLiteral("checkpoint.everySteps is -5");
    QTest::newRow("duplicate key")
        << QStringLiteral("{%1,\"name\":\"a\",\"name\":\"b\"}").arg(program)
        << QStringLiteral("the field \"name\" appears twice in one object (first on line 1)");
    QTest::newRow("unknown node-loss policy")
        << QStringLiteral("{%1,\"recovery\":{\"onNodeLoss\":\"retry\"}}").arg(program)
        << QStringLiteral("recovery.onNodeLoss is \"retry\": use \"replace\"");
}

void TestSpecValidation::rejected() {
    QFETCH(QString, json);
    QFETCH(QString, mentions);
    Result<v1::JobSpec> spec = parseJobSpec(json.toStdString(), "spec.json");
    QString message;
    if (!spec) {
        message = QString::fromStdString(spec.error().message);
    } else {
        Result<void> ok = validateJobSpec(*spec);
        QVERIFY2(!ok, "the spec was accepted");
        message = QString::fromStdString(ok.error().message);
    }
    QVERIFY2(message.contains(mentions, Qt::CaseInsensitive),
             qPrintable(QStringLiteral("'%1' does not mention '%2'").arg(message, mentions)));
}

void TestSpecValidation::exampleSpecIsValid() {
    Result<v1::JobSpec> spec =
        loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
    if (datasetDir(*spec) == kDefaultFashionMnistDir &&
        !QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed");
    }
    Result<void> ok = validateJobSpec(*spec);
    QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
    QCOMPARE(worldSize(spec->layout()), 2);
}

void TestSpecValidation::parallelLayoutsAccepted_data() {
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("ranks");
    QTest::newRow("TP2 x PP2 uneven")
        << QStringLiteral(
               "{\"dataParallel\":1,\"tensorParallel\":2,\"microBatches\":4,\"stages\":[{"
               "\"firstLayer\":0,\"lastLayer\":0},{\"firstLayer\":1,\"lastLayer\":4}]}")
        << 4;
    QTest::newRow("DP2 x PP3")
        << QStringLiteral(
               "{\"dataParallel\":2,\"microBatches\":2,\"schedule\":\"PIPELINE_SCHEDULE_GPIPE\","
               "\"stages\":[{\"firstLayer\":0,\"lastLayer\":1},{\"lastLayer\":2,\"firstLayer\":2},{"
               "\"firstLayer\":3,\"lastLayer\":4}]}")
        << 6;
    QTest::newRow("TP4 with ZeRO-1")
        << QStringLiteral(
               "{\"dataParallel\":2,\"tensorParallel\":4,\"zeroStage\":1,\"bucketMb\":1}")
        << 8;
}

void TestSpecValidation::parallelLayoutsAccepted() {
    QFETCH(QString, layout);
    QFETCH(int, ranks);
    if (!QFile::exists(QStringLiteral("/usr/share/common-licenses/GPL-3"))) {
        QSKIP("/usr/share/common-licenses/GPL-3 (Debian base-files) is missing");
    }
    const QString json =
        QStringLiteral(
            "{\"model\":{\"family\":\"gpt\",\"dim\":32,\"blocks\":2,\"heads\":4,\"context\":16},"
            "\"dataset\":{\"name\":\"text\",\"path\":\"/usr/share/common-licenses/GPL-3\"},"
            "\"training\":{\"maxSteps\":5,\"globalBatch\":16,\"learningRate\":0.001,"
            "\"optimizer\":\"adamw\"},\"layout\":%1}")
            .arg(layout);
    Result<v1::JobSpec> spec = parseJobSpec(json.toStdString(), "spec.json");
    QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
    Result<void> ok = validateJobSpec(*spec);
    QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
    QCOMPARE(worldSize(spec->layout()), ranks);
}

void TestSpecValidation::everyExampleIsValid() {
    if (!QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed");
    }
    const QDir dir(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples"));
    QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(files.size() >= 4);
    for (const QString& name : QDir(dir.filePath(QStringLiteral("pytorch")))
                                   .entryList({QStringLiteral("*.json")}, QDir::Files)) {
        files << QStringLiteral("pytorch/") + name;
    }
    for (const QString& name : files) {
        Result<v1::JobSpec> spec = loadJobSpec(dir.filePath(name).toStdString());
        QVERIFY2(spec, qPrintable(name + QStringLiteral(": ") +
                                  QString::fromStdString(spec ? "" : spec.error().message)));
        Result<void> ok = validateJobSpec(*spec);
        QVERIFY2(ok, qPrintable(name + QStringLiteral(": ") +
                                QString::fromStdString(ok ? "" : ok.error().message)));
    }
}

void TestSpecValidation::loadRefusesFoldersAndHugeFiles() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Result<v1::JobSpec> folder = loadJobSpec(dir.path().toStdString());
    QVERIFY(!folder);
    QVERIFY2(folder.error().message.find("not a regular file") != std::string::npos,
             folder.error().message.c_str());
    QFile big(dir.filePath(QStringLiteral("big.json")));
    QVERIFY(big.open(QIODevice::WriteOnly));
    big.write(QByteArray(2 * 1024 * 1024, ' '));
    big.close();
    Result<v1::JobSpec> huge = loadJobSpec(big.fileName().toStdString());
    QVERIFY(!huge);
    QVERIFY2(huge.error().message.find("at most") != std::string::npos,
             huge.error().message.c_str());
}

void TestSpecValidation::relativeDatasetPathIsResolvedAgainstTheSpec() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile f(dir.filePath(QStringLiteral("spec.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"dataset": {"name": "fashion-mnist", "path": "data/../fm"}})");
    f.close();
    Result<v1::JobSpec> spec = loadJobSpec(f.fileName().toStdString());
    QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
    QCOMPARE(QString::fromStdString(spec->dataset().path()), dir.filePath(QStringLiteral("fm")));
}

QTEST_GUILESS_MAIN(TestSpecValidation)
#include "tst_specvalidation.moc"
