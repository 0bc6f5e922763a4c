// Spec files the backend refuses before any worker is involved: each error names the field or
// file and says what to do (parseJobSpec + validateJobSpec, as JobController::submit uses them).
#include "spec_io.h"

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
    void loadRefusesFoldersAndHugeFiles();
    void relativeDatasetPathIsResolvedAgainstTheSpec();
};

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
    QTest::newRow("tensor parallel not supported yet")
        << QStringLiteral("{%1,%2,\"layout\":{\"dataParallel\":1,\"tensorParallel\":2}}")
               .arg(model, training)
        << QStringLiteral("tensorParallel");
    QTest::newRow("malformed json") << QStringLiteral("{\"name\": ") << QStringLiteral("spec.json");
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
