// The provisioning settings files (ssh-hosts.json, slurm-clusters.json): round trips and the
// errors a damaged file gives; ssh's quoting and failure messages; lease billing.
#include "lease.h"
#include "slurmcluster.h"
#include "sshhost.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TstProvisionFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& text) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
            return QString();
        }
        return path;
    }

private Q_SLOTS:
    void sshHostsRoundTrip() {
        SshHost h;
        h.host = QStringLiteral("10.0.0.5");
        h.port = 2222;
        h.user = QStringLiteral("me");
        h.identityFile = QStringLiteral("/k");
        h.pricePerHour = 1.5;
        h.slots = 4;
        h.remoteDir = QStringLiteral("/scratch/t");
        const QString path = m_dir.filePath(QStringLiteral("hosts.json"));
        QVERIFY(saveSshHosts(path, {h}).has_value());
        auto back = loadSshHosts(path);
        QVERIFY(back.has_value());
        QCOMPARE(back->size(), 1);
        QCOMPARE(back->first().offerId(), QStringLiteral("me@10.0.0.5:2222"));
        QCOMPARE(back->first().nodeName(), QStringLiteral("ssh-10.0.0.5"));
        QCOMPARE(back->first().remoteDir, h.remoteDir);
        QCOMPARE(back->first().pricePerHour, 1.5);
        QVERIFY(loadSshHosts(m_dir.filePath(QStringLiteral("none.json")))->isEmpty());
    }

    void badFilesNameTheEntry_data() {
        QTest::addColumn<bool>("slurm");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("said");
        QTest::newRow("ssh garbage") << false << QByteArray("{nope") << "not a JSON object";
        QTest::newRow("ssh no host") << false << QByteArray(R"({"hosts":[{"port":22}]})")
                                     << "entry 1 has no usable \"host\"";
        QTest::newRow("ssh option as host")
            << false << QByteArray(R"({"hosts":[{"host":"-oProxyCommand=x"}]})")
            << "entry 1 has no usable \"host\"";
        QTest::newRow("ssh bad port")
            << false << QByteArray(R"({"hosts":[{"host":"a","port":70000}]})")
            << "port must be 1-65535";
        QTest::newRow("slurm garbage") << true << QByteArray("[1,2") << "not a JSON object";
        QTest::newRow("slurm relative dir")
            << true
            << QByteArray(R"({"clusters":[{"name":"c","partition":"p","remoteDir":"rel"}]})")
            << "entry 1 needs a name, a partition";
    }

    void badFilesNameTheEntry() {
        QFETCH(bool, slurm);
        QFETCH(QByteArray, text);
        QFETCH(QString, said);
        const QString path = write(QStringLiteral("bad.json"), text);
        QVERIFY(!path.isEmpty());
        const QString message =
            slurm ? QString::fromStdString(loadSlurmClusters(path).error().message)
                  : QString::fromStdString(loadSshHosts(path).error().message);
        QVERIFY2(message.contains(said), qPrintable(message));
        QVERIFY2(message.contains(path), qPrintable(message));
    }

    void slurmClustersLoad() {
        const QString path = write(QStringLiteral("slurm.json"),
                                   R"({"clusters":[{"name":"hpc","partition":"gpu","nodes":2,)"
                                   R"("gpusPerNode":4,"remoteDir":"/shared/t"}]})");
        auto c = loadSlurmClusters(path);
        QVERIFY2(c.has_value(), c ? "" : c.error().message.c_str());
        QCOMPARE(c->size(), 1);
        QCOMPARE(c->first().offerId(), QStringLiteral("hpc/gpu"));
        QCOMPARE(c->first().slots(), 4);
    }

    void shellQuoteSurvivesQuotes() {
        QCOMPARE(shellQuote(QStringLiteral("a'b c")), QStringLiteral("'a'\\''b c'"));
    }

    void sshFailuresSayWhatToDo_data() {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("timedOut");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<QString>("said");
        QTest::newRow("host key") << 255 << false << "Host key verification failed."
                                  << "does not trust it";
        QTest::newRow("refused key") << 255 << false << "me@h: Permission denied (publickey)."
                                     << "authorized_keys";
        QTest::newRow("down") << 255 << false << "connect to host h port 22: No route to host"
                              << "could not be reached while checking";
        QTest::newRow("timeout") << -1 << true << ""
                                 << "did not finish checking";
        QTest::newRow("command") << 3 << false << "boom"
                                 << "failed with exit code 3 (boom)";
    }

    void sshFailuresSayWhatToDo() {
        QFETCH(int, exitCode);
        QFETCH(bool, timedOut);
        QFETCH(QString, stderrText);
        QFETCH(QString, said);
        SshHost h;
        h.host = QStringLiteral("h");
        const QString m =
            explainSshFailure(h, QStringLiteral("checking"), exitCode, timedOut, stderrText);
        QVERIFY2(m.contains(said), qPrintable(m));
        QVERIFY(m.startsWith(QLatin1String("h:22")));
    }

    void leaseCostBillsFromCreatedToEnded() {
        Lease l;
        l.pricePerHour = 2.0;
        l.nodes = {QStringLiteral("a"), QStringLiteral("b")};
        l.created = QDateTime::fromSecsSinceEpoch(0, Qt::UTC);
        l.ended = l.created.addSecs(1800);
        QCOMPARE(l.cost(l.created.addSecs(99999)), 2.0); // half an hour, 2 nodes, $2/h
        l.state = LeaseState::Ready;
        l.ended = QDateTime();
        QCOMPARE(burnRate({l}), 4.0);
        QCOMPARE(totalCost({l}, l.created.addSecs(3600)), 4.0);
        QCOMPARE(leaseStateFromName(QStringLiteral("garbage")), LeaseState::Failed);
    }
};

QTEST_GUILESS_MAIN(TstProvisionFiles)
#include "tst_provisionfiles.moc"
