// Test helper: runs tessera-train (alone or under mpirun) with QProcess and parses its
// `@tessera {json}` stdout lines.
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
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
    run.stderrText = QString::fromUtf8(p.readAllStandardError());
    const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
    for (const QByteArray& line : lines) {
        if (line.startsWith("@tessera ")) {
            run.records.append(QJsonDocument::fromJson(line.mid(9)).object());
        } else if (!line.isEmpty()) {
            run.otherStdout.append(QString::fromUtf8(line));
        }
    }
    return run;
}

/// mpirun arguments for n local ranks on a small shared box (root needs --allow-run-as-root).
inline QStringList mpirunArgs(int n) {
    QStringList a = {"-np", QString::number(n), "--oversubscribe", "--bind-to", "none"};
    if (::geteuid() == 0) {
        a << "--allow-run-as-root";
    }
    return a;
}

/// Writes the example spec with `overrides` merged into its "training" object; returns the path.
inline QString writeSpec(const QString& dir, const QJsonObject& trainingOverrides,
                         const QString& name = "spec.json") {
    QFile in(QStringLiteral(TESSERA_SOURCE_DIR) + "/resources/examples/fashion-mnist-mlp.json");
    if (!in.open(QIODevice::ReadOnly)) {
        return {};
    }
    QJsonObject spec = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject training = spec.value("training").toObject();
    for (auto it = trainingOverrides.begin(); it != trainingOverrides.end(); ++it) {
        training.insert(it.key(), it.value());
    }
    spec.insert("training", training);
    const QString path = QDir(dir).filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        return {};
    }
    out.write(QJsonDocument(spec).toJson());
    return path;
}

} // namespace tessera::test
