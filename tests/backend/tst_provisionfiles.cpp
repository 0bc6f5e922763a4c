// The provisioning settings files (ssh-hosts.json, slurm-clusters.json): round trips and the
// errors a damaged file gives; what an SSH check finds and the offer made from it; ssh's
// quoting, shared connections and failure messages; the bundle hash cache; lease billing.
#include "backend/provision/bundlehash.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/lease.h"
#include "backend/provision/slurm/slurmcluster.h"
#include "backend/provision/ssh/sshconnection.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/provision/ssh/sshmachine.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

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
    /// Two rents at once share one ssh-keygen, and a key pair left with an empty public half
    /// (a process that died while making it) is made again, never sent to the cloud empty.
    void cloudClientKeyIsWholeOrMadeAgain() {
        QTemporaryDir data;
        const QByteArray before = qgetenv("TESSERA_DATA_DIR");
        qputenv("TESSERA_DATA_DIR", data.path().toUtf8());
        const auto back = qScopeGuard([&] { qputenv("TESSERA_DATA_DIR", before); });
        const QString key = cloudClientKeyPath();
        QFile half(key);
        QVERIFY(half.open(QIODevice::WriteOnly) && half.write("private part") > 0);
        half.close();
        QFile(key + QStringLiteral(".pub")).open(QIODevice::WriteOnly); // empty public half
        QObject owner;
        QList<QString> got;
        for (int i = 0; i < 2; ++i) {
            ensureCloudClientKey(&owner, [&](Result<QString> k) {
                got << (k ? *k : QString::fromStdString("error: " + k.error().message));
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 30000);
        QVERIFY2(got[0].startsWith(QLatin1String("ssh-ed25519 ")), qPrintable(got[0]));
        QCOMPARE(got[1], got[0]); // one key for both
        QFile pub(key + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(pub.readAll()).trimmed(), got[0]);
        QVERIFY(!QFileInfo::exists(key + QStringLiteral(".new")));
    }

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
        QTest::newRow("ssh negative gpus")
            << false << QByteArray(R"({"hosts":[{"host":"a","gpus":-1}]})")
            << "gpus, gpuMemoryGiB and cores not negative";
        QTest::newRow("slurm garbage") << true << QByteArray("[1,2") << "not a JSON object";
        QTest::newRow("slurm relative dir")
            << true
            << QByteArray(R"({"clusters":[{"name":"c","partition":"p","remoteDir":"rel"}]})")
            << "entry 1 needs a name, a partition";
        // Read whole into memory before: a settings file is a few KiB.
        QTest::newRow("ssh huge file")
            << false << QByteArray(R"({"hosts":[)") + QByteArray(5 << 20, ' ') + "]}"
            << "larger than 4 MiB";
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
        if (text.size() < (4 << 20)) {
            // The fuzz targets' entry points (parseSshHosts / parseSlurmClusters) say the same.
            const QString parsed =
                slurm ? QString::fromStdString(parseSlurmClusters(text, path).error().message)
                      : QString::fromStdString(parseSshHosts(text, path).error().message);
            QCOMPARE(parsed, message);
        }
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

    void sshHostsKeepTheirMachine() {
        const QString path = write(QStringLiteral("gpu-hosts.json"),
                                   R"({"hosts":[{"host":"gpu1","gpus":8,)"
                                   R"("gpuName":"NVIDIA H100 80GB HBM3","gpuMemoryGiB":80,)"
                                   R"("cores":96}]})");
        auto hosts = loadSshHosts(path);
        QVERIFY2(hosts.has_value(), hosts ? "" : hosts.error().message.c_str());
        const SshHost h = hosts->first();
        QCOMPARE(h.gpus, 8);
        QCOMPARE(h.gpuName, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(h.gpuMemoryGiB, 80.0);
        QCOMPARE(h.cores, 96);
        QVERIFY(saveSshHosts(path, *hosts).has_value());
        auto back = loadSshHosts(path);
        QVERIFY(back.has_value());
        QCOMPARE(sshHostToJson(back->first()), sshHostToJson(h));
        // A host without them writes none of them (the file stays as the user wrote it).
        SshHost plain;
        plain.host = QStringLiteral("cpu1");
        QVERIFY(!sshHostToJson(plain).contains(QStringLiteral("gpus")));
        QVERIFY(!sshHostToJson(plain).contains(QStringLiteral("cores")));
    }

    void sshOffersShowTheDevices_data() {
        QTest::addColumn<QByteArray>("entry"); // one ssh-hosts.json entry
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("devices");
        QTest::addColumn<double>("memoryGiB");
        QTest::addColumn<int>("slots");
        QTest::newRow("nothing known") << QByteArray(R"({"host":"a"})") << "cpu" << 0 << 0.0 << 1;
        QTest::newRow("cpu, cores known")
            << QByteArray(R"({"host":"a","cores":16})") << "cpu" << 0 << 0.0 << 16;
        QTest::newRow("cpu, slots set")
            << QByteArray(R"({"host":"a","cores":16,"slots":4})") << "cpu" << 0 << 0.0 << 4;
        QTest::newRow("gpus")
            << QByteArray(R"({"host":"a","cores":96,"gpus":8,"gpuName":"NVIDIA H100 80GB HBM3",)"
                          R"("gpuMemoryGiB":80})")
            << "NVIDIA H100 80GB HBM3" << 8 << 80.0 << 8;
        QTest::newRow("gpus, unnamed")
            << QByteArray(R"({"host":"a","gpus":2})") << "gpu" << 2 << 0.0 << 2;
    }

    void sshOffersShowTheDevices() {
        QFETCH(QByteArray, entry);
        QFETCH(QString, kind);
        QFETCH(int, devices);
        QFETCH(double, memoryGiB);
        QFETCH(int, slots);
        const Offer o = sshOffer(sshHostFromJson(QJsonDocument::fromJson(entry).object()));
        QCOMPARE(o.provider, QStringLiteral("ssh"));
        QCOMPARE(o.deviceKind, kind);
        QCOMPARE(o.devicesPerNode, devices);
        QCOMPARE(o.deviceMemoryBytes, quint64(memoryGiB * double(1ULL << 30)));
        QCOMPARE(o.slotsPerNode, slots);
    }

    void nvidiaSmiParses_data() {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QString>("name");
        QTest::addColumn<quint64>("memoryMiB");
        QTest::newRow("two H100") << "NVIDIA H100 80GB HBM3, 81559\nNVIDIA H100 80GB HBM3, 81559\n"
                                  << 2 << "NVIDIA H100 80GB HBM3" << quint64(81559);
        QTest::newRow("mixed: the smallest memory")
            << "NVIDIA A100-SXM4-80GB, 81920\nNVIDIA A100-SXM4-40GB, 40960" << 2
            << "NVIDIA A100-SXM4-80GB" << quint64(40960);
        QTest::newRow("no driver")
            << "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
               "sure that the latest NVIDIA driver is installed and running.\n"
            << 0 << "" << quint64(0);
        QTest::newRow("no devices") << "No devices were found" << 0 << "" << quint64(0);
        QTest::newRow("unknown memory") << "NVIDIA H200, [N/A]" << 0 << "" << quint64(0);
    }

    void nvidiaSmiParses() {
        QFETCH(QString, csv);
        QFETCH(int, gpus);
        QFETCH(QString, name);
        QFETCH(quint64, memoryMiB);
        SshMachine m;
        parseNvidiaSmi(csv, &m);
        QCOMPARE(m.gpus, gpus);
        QCOMPARE(m.gpuName, name);
        QCOMPARE(m.gpuMemoryBytes, memoryMiB * 1024 * 1024);
    }

    void checkOutputGoesIntoTheHost() {
        QString out = QStringLiteral("os=Linux\narch=x86_64\ncores=64\nmem_kb=527958016\n"
                                     "mpi=mpirun (Open MPI) 4.1.4\n");
        for (int i = 0; i < 4; ++i) {
            out += QStringLiteral("gpu=NVIDIA H100 80GB HBM3, 81559\n");
        }
        out += QStringLiteral("cuda=Build cuda_12.4.r12.4/compiler.33961263_0\n");
        const SshMachine m = parseSshCheck(out);
        QCOMPARE(m.os, QStringLiteral("Linux"));
        QCOMPARE(m.mpi, QStringLiteral("mpirun (Open MPI) 4.1.4"));
        QCOMPARE(m.cores, 64);
        QCOMPARE(m.memoryBytes, 527958016ULL * 1024);
        SshHost h;
        h.host = QStringLiteral("gpu1");
        QVERIFY(learnMachine(&h, m));
        QVERIFY(!learnMachine(&h, m)); // nothing new the second time: no write
        QCOMPARE(h.gpus, 4);
        QCOMPARE(h.gpuMemoryGiB, 79.65); // 81559 MiB
        QCOMPARE(h.cores, 64);
        const Offer o = sshOffer(h);
        QCOMPARE(o.deviceKind, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(o.devicesPerNode, 4);
        QCOMPARE(o.slotsPerNode, 4);
        QVERIFY(qAbs(double(o.deviceMemoryBytes) - 81559.0 * 1024 * 1024) < 6.0 * 1024 * 1024);
        // A CPU-only machine: no gpu lines, and the failed nvidia-smi's text is no GPU.
        const SshMachine cpu = parseSshCheck(
            QStringLiteral("os=Linux\ncores=8\ngpu=NVIDIA-SMI has failed because it couldn't "
                           "communicate with the NVIDIA driver.\n"));
        QVERIFY(learnMachine(&h, cpu)); // the GPUs are gone
        QCOMPARE(sshOffer(h).deviceKind, QStringLiteral("cpu"));
        QCOMPARE(sshOffer(h).slotsPerNode, 8);
    }

    // A node whose NVIDIA driver runs an older CUDA than this build's GPU worker is refused, the
    // refusal naming both versions (issue 21: Lambda Stack's driver is not CUDA 13's).
    void driverTooOldForTheBundleIsNamed_data() {
        QTest::addColumn<QString>("driverCuda");
        QTest::addColumn<QString>("bundle");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("refused");
        QTest::newRow("12.2 driver, CUDA 13.0 bundle") << "12.2"
                                                       << "13.0" << 1 << true;
        QTest::newRow("13.0 driver, 13.0 bundle") << "13.0"
                                                  << "13.0" << 1 << false;
        QTest::newRow("13.1 driver, 13.0 bundle") << "13.1"
                                                  << "13.0" << 8 << false;
        QTest::newRow("12.10 driver, 12.9 bundle") << "12.10"
                                                   << "12.9" << 1 << false;
        QTest::newRow("CPU-only build") << "12.2"
                                        << "" << 1 << false;
        QTest::newRow("no GPU") << ""
                                << "13.0" << 0 << false;
        QTest::newRow("driver unknown") << ""
                                        << "13.0" << 1 << false;
    }
    void driverTooOldForTheBundleIsNamed() {
        QFETCH(QString, driverCuda);
        QFETCH(QString, bundle);
        QFETCH(int, gpus);
        QFETCH(bool, refused);
        QString out =
            QStringLiteral("os=Linux\ndriver=535.129.03\ndriver_cuda=%1\n").arg(driverCuda);
        for (int i = 0; i < gpus; ++i) {
            out += QStringLiteral("gpu=NVIDIA A10, 23028\n");
        }
        const SshMachine m = parseSshCheck(out);
        QCOMPARE(m.driver, QStringLiteral("535.129.03"));
        const QString why = cudaDriverTooOld(m, bundle, QStringLiteral("root@10.0.0.7:22"));
        QCOMPARE(!why.isEmpty(), refused);
        if (refused) {
            QVERIFY2(why.contains(QLatin1String("535.129.03")) &&
                         why.contains(QLatin1String("CUDA up to 12.2")) &&
                         why.contains(QLatin1String("needs CUDA 13.0")),
                     qPrintable(why));
        }
    }

    void sshSharesOnePrivateConnection() {
        SshHost h;
        h.host = QStringLiteral("10.0.0.5");
        h.knownHostsFile = QStringLiteral("/a/known_hosts");
        const QStringList args = sshArguments(h, QStringLiteral("true"));
        QVERIFY(args.contains(QStringLiteral("ControlMaster=auto")));
        QVERIFY(args.contains(QStringLiteral("StrictHostKeyChecking=yes")));
        QVERIFY(args.contains(QStringLiteral("BatchMode=yes")));
        const QString path = sshControlPath(h);
        QVERIFY(args.contains(QStringLiteral("ControlPath=") + path));
        QVERIFY2(path.size() < 90, qPrintable(path)); // sockets take about 100 characters
        QCOMPARE(QFileInfo(path).absolutePath(), sshControlDir());
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(sshControlDir()).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0700u);
        // Other trust settings never ride the same connection (its host key check was theirs).
        SshHost other = h;
        other.knownHostsFile = QStringLiteral("/b/known_hosts");
        QVERIFY(sshControlPath(other) != path);
    }

    void bundleHashCacheFollowsTheFiles() {
        const QString f = write(QStringLiteral("prog"), "v1");
        QVERIFY(!f.isEmpty());
        BundleHashCache cache;
        const QString id = BundleHashCache::identity({f});
        QVERIFY(cache.lookup(id).isEmpty());
        cache.store(id, QStringLiteral("abc"));
        QCOMPARE(cache.lookup(BundleHashCache::identity({f})), QStringLiteral("abc"));
        QFile file(f);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addSecs(-3600),
                                 QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(cache.lookup(BundleHashCache::identity({f})).isEmpty()); // rebuilt: hash again
        QVERIFY(write(QStringLiteral("prog"), "v22").size() > 0);
        QVERIFY(BundleHashCache::identity({f}) != id);
        QVERIFY(BundleHashCache::identity({m_dir.filePath(QStringLiteral("none"))})
                    .endsWith(QLatin1String("missing")));
        QCOMPARE(cache.computed(), 1);
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
