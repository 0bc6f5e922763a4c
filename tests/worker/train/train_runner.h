// Test helper: runs tessera-train (alone or under mpirun) with QProcess and parses its
// `@tessera {json}` stdout lines.
#pragma once

#include "worker/common/record_prefix.h"
#include "worker/daemon/output/tagged_output.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>

#include <unistd.h>

namespace tessera::test {

/// Result of one run: exit code (-1 when it did not finish), records and raw stderr.
struct TrainRun {
    int exitCode = -1;
    bool finished = false;
    QList<QJsonObject> records; ///< parsed @tessera objects in order
    QStringList otherStdout;    ///< stdout lines that are not @tessera records
    QString stderrText;
};

/// Path of the tessera-train built with this test.
inline QString trainProgram() {
    return QStringLiteral(TESSERA_BUILD_DIR) + "/bin/tessera-train";
}

/// Why the multi-rank engine tests cannot run here ("" when they can): no mpirun, no GPL-3 text
/// (the GPT's data), or, when `images`, no Fashion-MNIST. Sets `*mpirun` to mpirun's path.
inline QString missingForRankTests(QString* mpirun, bool images) {
    *mpirun = QStandardPaths::findExecutable("mpirun");
    if (mpirun->isEmpty()) {
        return QStringLiteral("mpirun is not installed (Debian package openmpi-bin)");
    }
    if (!QFile::exists(QStringLiteral("/usr/share/common-licenses/GPL-3"))) {
        return QStringLiteral("no /usr/share/common-licenses/GPL-3 (Debian package base-files)");
    }
    if (images &&
        !QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR) + "/train-images-idx3-ubyte.gz")) {
        return QStringLiteral(
            "Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
    }
    return {};
}

/// Puts the tiny model of the equivalence tests into `spec` with its dataset: `family` "gpt"
/// (dim 32, 2 blocks, 4 heads, context 32; layers embedding, block0, block1, ln_f, head, on the
/// GPL-3 text) or "vit" (dim 32, 2 blocks, 4 heads, patch 7; layers patch_embedding, block0,
/// block1, ln_f, pool, head, on Fashion-MNIST).
inline void insertTinyModel(QJsonObject& spec, const QString& family) {
    if (family == "gpt") {
        spec.insert(
            "model",
            QJsonObject{
                {"family", "gpt"}, {"dim", 32}, {"blocks", 2}, {"heads", 4}, {"context", 32}});
        spec.insert("dataset",
                    QJsonObject{{"name", "text"}, {"path", "/usr/share/common-licenses/GPL-3"}});
    } else {
        spec.insert(
            "model",
            QJsonObject{{"family", "vit"}, {"dim", 32}, {"blocks", 2}, {"heads", 4}, {"patch", 7}});
        spec.insert("dataset", QJsonObject{{"name", "fashion-mnist"}});
    }
}

/// Runs `program args`, waits up to `timeoutMs`, parses stdout.
inline TrainRun runProgram(const QString& program, const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(program, args);
    TrainRun run;
    if (!p.waitForStarted(10000)) {
        run.stderrText = "could not start " + program + ": " + p.errorString();
        return run;
    }
    run.finished = p.waitForFinished(timeoutMs);
    if (!run.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    run.exitCode = run.finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    // Whole lines per rank, as the worker reads them (mpirun --tag-output, see mpirunArgs).
    const auto lines = [](const QByteArray& bytes, const char* stream) {
        QList<QByteArray> out;
        tessera::daemon::TaggedOutput demux(stream, 1 << 20, [&out](int, const std::string& l) {
            out.append(QByteArray::fromStdString(l));
        });
        demux.feed(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        demux.finish();
        return out;
    };
    for (const QByteArray& line : lines(p.readAllStandardError(), "stderr")) {
        run.stderrText += QString::fromUtf8(line) + QLatin1Char('\n');
    }
    const QByteArrayView prefix(tessera::kRecordPrefix.data(),
                                qsizetype(tessera::kRecordPrefix.size()));
    for (const QByteArray& line : lines(p.readAllStandardOutput(), "stdout")) {
        if (line.startsWith(prefix)) {
            run.records.append(QJsonDocument::fromJson(line.mid(prefix.size())).object());
        } else if (!line.isEmpty()) {
            run.otherStdout.append(QString::fromUtf8(line));
        }
    }
    return run;
}

/// mpirun arguments for n local ranks on a small shared box (root needs --allow-run-as-root).
/// mpirun's arguments for `n` local ranks, with every output piece tagged by its rank (so that
/// runProgram puts lines cut by other ranks' output back together, as the worker does).
inline QStringList mpirunArgs(int n) {
    QStringList a = {"-np",  QString::number(n), "--oversubscribe", "--bind-to",
                     "none", "--tag-output"};
    if (::geteuid() == 0) {
        a << "--allow-run-as-root";
    }
    return a;
}

/// The JSON object of resources/examples/<name> (empty when unreadable).
inline QJsonObject exampleSpec(const QString& name = "fashion-mnist-mlp.json") {
    QFile in(QStringLiteral(TESSERA_SOURCE_DIR) + "/resources/examples/" + name);
    if (!in.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(in.readAll()).object();
}

/// Writes `spec` into dir/name; checkpoints go to dir/checkpoints unless the spec says
/// otherwise (never into the test's working directory). Returns the path ("" on failure).
inline QString writeSpecObject(const QString& dir, QJsonObject spec, const QString& name) {
    if (!spec.contains("checkpoint")) {
        spec.insert("checkpoint", QJsonObject{{"dir", QDir(dir).filePath("checkpoints")}});
    }
    const QString path = QDir(dir).filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        return {};
    }
    out.write(QJsonDocument(spec).toJson());
    return path;
}

/// Writes the MLP example spec with `overrides` merged into its "training" object and a
/// single-rank layout (a pure data-parallel layout runs on however many ranks mpirun starts);
/// returns the path.
inline QString writeSpec(const QString& dir, const QJsonObject& trainingOverrides,
                         const QString& name = "spec.json") {
    QJsonObject spec = exampleSpec();
    if (spec.isEmpty()) {
        return {};
    }
    QJsonObject training = spec.value("training").toObject();
    for (auto it = trainingOverrides.begin(); it != trainingOverrides.end(); ++it) {
        training.insert(it.key(), it.value());
    }
    spec.insert("training", training);
    spec.insert("layout", QJsonObject{{"dataParallel", 1}});
    return writeSpecObject(dir, spec, name);
}

/// Loss by step from the rank-0 loss records of a run.
inline QMap<int, double> lossByStep(const TrainRun& run) {
    QMap<int, double> losses;
    for (const QJsonObject& r : run.records) {
        if (r.contains("loss")) {
            losses.insert(r.value("step").toInt(), r.value("loss").toDouble());
        }
    }
    return losses;
}

/// The records that carry `key` (e.g. "loss", "step_ms", "test_loss", "done").
inline QList<QJsonObject> recordsWith(const TrainRun& run, const QString& key) {
    QList<QJsonObject> out;
    for (const QJsonObject& r : run.records) {
        if (r.contains(key)) {
            out.append(r);
        }
    }
    return out;
}

/// "exit N, stderr: ..." for failure messages.
inline QString describeRun(const TrainRun& run) {
    return QString("exit %1, stderr:\n%2").arg(run.exitCode).arg(run.stderrText.right(3000));
}

} // namespace tessera::test
