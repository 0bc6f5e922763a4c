// Metrics from any program, end to end (issue 47): `tessera-ctl run` of the example that logs as
// Hugging Face's Trainer does (resources/examples/pytorch/trainer_log.json, unchanged) on two
// local workers charts its loss — `tessera-ctl jobs` shows the last logged loss and step — and a
// spec whose model.metrics pattern RE2 refuses is refused before anything starts, naming it.
#include "tests/support/ctlrun.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {
// model.metrics' second pattern has an unclosed bracket.
const char* const kBadPatternSpec =
    "{\"name\": \"bad pattern\", \"model\": {\"command\": [\"/bin/true\"], \"metrics\": "
    "[\"loss (?P<loss>\\\\S+)\", \"step (?P<step>[0-9+\"]}, \"layout\": {\"dataParallel\": 1}}";
} // namespace

using namespace tessera;

class TestCtlPlainMetrics : public QObject {
    Q_OBJECT

    QString m_ctl;
    QTemporaryDir m_dir;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
        e.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
        e.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
        return e;
    }

    int ctl(const QStringList& args, QByteArray* out, QByteArray* err, int timeoutMs = 300000) {
        return test::runCtl(m_ctl, args, env(), out, err, timeoutMs);
    }

    static bool hasTorch() {
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                {QStringLiteral("-c"), QStringLiteral("import torch.distributed as d; "
                                                      "assert d.is_gloo_available()")});
        return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit &&
               p.exitCode() == 0;
    }

private Q_SLOTS:
    void initTestCase() {
        m_ctl = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl");
        if (!QFileInfo(m_ctl).isExecutable()) {
            QSKIP("tessera-ctl is not built");
        }
        QVERIFY(m_dir.isValid());
    }

    void trainerLogExampleIsCharted() {
        if (!hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        QByteArray out, err;
        const int code =
            ctl({QStringLiteral("run"),
                 QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/pytorch/trainer_log.json")},
                &out, &err);
        QVERIFY2(code == 0, err.constData());
        const QString printed = QString::fromUtf8(out);
        QVERIFY2(printed.contains(QStringLiteral("loss ")), qPrintable(printed));
        const auto idMatch =
            QRegularExpression(QStringLiteral("^job (\\S+):"), QRegularExpression::MultilineOption)
                .match(printed);
        QVERIFY2(idMatch.hasMatch(), qPrintable(printed));
        const QString id = idMatch.captured(1);
        // The program's last training line: {'loss': X, …, 'epoch': 2.0} is line 16 (2 epochs of
        // 40 steps, logging every 5).
        QVERIFY(ctl({QStringLiteral("logs"), id}, &out, &err) == 0);
        const QString logs = QString::fromUtf8(out);
        // The worker says what it charts, and from which lines, in the job's log.
        QVERIFY2(logs.contains(QStringLiteral("charting loss, lr, grad_norm")) &&
                     logs.contains(QStringLiteral("from Hugging Face Trainer lines")),
                 qPrintable(logs));
        const auto lines = logs.split('\n');
        double lastLoss = -1;
        int trainingLines = 0;
        for (const QString& l : lines) {
            const auto m = QRegularExpression(QStringLiteral("\\{'loss': ([0-9.e-]+),")).match(l);
            if (m.hasMatch()) {
                lastLoss = m.captured(1).toDouble();
                ++trainingLines;
            }
        }
        QCOMPARE(trainingLines, 16);
        QVERIFY(ctl({QStringLiteral("jobs"), QStringLiteral("--json")}, &out, &err) == 0);
        const QJsonArray jobs =
            QJsonDocument::fromJson(out).object()[QStringLiteral("jobs")].toArray();
        QJsonObject job;
        for (const auto& j : jobs) {
            if (j.toObject()[QStringLiteral("id")].toString() == id) {
                job = j.toObject();
            }
        }
        QVERIFY2(!job.isEmpty(), out.constData());
        QCOMPARE(job[QStringLiteral("state")].toString(), QStringLiteral("succeeded"));
        QCOMPARE(job[QStringLiteral("steps")].toInt(), 16);
        QCOMPARE(job[QStringLiteral("loss")].toDouble(), lastLoss);
    }

    void badPatternIsRefusedBeforeLaunch() {
        const QString path = m_dir.filePath(QStringLiteral("bad-pattern.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kBadPatternSpec);
        f.close();
        QByteArray out, err;
        QCOMPARE(ctl({QStringLiteral("run"), path}, &out, &err, 60000), 2);
        const QString says = QString::fromUtf8(err);
        QVERIFY2(says.contains(QStringLiteral("model.metrics: pattern 1")) &&
                     says.contains(QStringLiteral("step (?P<step>[0-9+")),
                 qPrintable(says));
        QVERIFY2(!QString::fromUtf8(out).contains(QStringLiteral("job ")), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCtlPlainMetrics)
#include "tst_ctlplainmetrics.moc"
