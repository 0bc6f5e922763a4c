// The Rent dialog: its models under QAbstractItemModelTester, sorting by price and one click
// renting every selected offer (a scripted provider); on a real SSH test host, Add SSH host's
// connection test with the host key accepted by a click; then, on two test hosts, one click
// turns both into ready nodes, a data-parallel job trains across them and its loss reaches the
// chart, and "Release selected" gives them back.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/metricschart.h"
#include "app/rent/addsshhostdialog.h"
#include "app/rent/leasetablemodel.h"
#include "app/rent/offertablemodel.h"
#include "app/rent/rentdialog.h"
#include "app/settings/autoscalesettings.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/client/jobswatch.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/local/localleases.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/service/backendsession.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/support/appjob.h"
#include "tests/support/scriptedprovider.h"
#include "tests/support/testexamples.h"
#include "tests/support/testhosts.h"
#include "worker/common/spec_io.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace tessera;

namespace {

using test::ScriptedProvider;

} // namespace

class TstRent : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelsPassTheTester() {
        ScriptedProvider p({3.0, 0.5, 1.25});
        RentDialog dialog({&p}, QStringLiteral("/nowhere/ssh-hosts.json"));
        QAbstractItemModelTester offers(dialog.offers(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester leases(dialog.leases(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(dialog.offers()->rowCount(), 3);
        QVERIFY(p.rent(QStringLiteral("box-1")).has_value());
        QCOMPARE(dialog.leases()->rowCount(), 1);
        QVERIFY(p.release(QStringLiteral("lease-box-1")).has_value());
        QCOMPARE(dialog.leases()->rowCount(), 1);
        QCOMPARE(dialog.leases()->data(dialog.leases()->index(0, LeaseTableModel::State)),
                 QVariant(QStringLiteral("released")));
        Q_EMIT p.offersChanged(); // a reset under the tester
    }

    void sortsByPriceAsNumbers() {
        ScriptedProvider p({3.0, 10.0, 0.5});
        RentDialog dialog({&p}, QString());
        QTableView* v = dialog.offerView();
        v->sortByColumn(OfferTableModel::Price, Qt::AscendingOrder);
        QStringList order;
        for (int r = 0; r < 3; ++r) {
            order << v->model()->index(r, OfferTableModel::Price).data().toString();
        }
        QCOMPARE(order, (QStringList{"$0.50/h", "$3.00/h", "$10.00/h"})); // not "$10" < "$3"
    }

    void oneClickRentsEverySelectedOffer() {
        ScriptedProvider p({0.5, 1.0, 2.0});
        RentDialog dialog({&p}, QString());
        dialog.show();
        QVERIFY(!dialog.rentButton()->isEnabled()); // nothing selected
        dialog.offerView()->selectAll();
        QVERIFY(dialog.rentButton()->isEnabled());
        QTest::mouseClick(dialog.rentButton(), Qt::LeftButton);
        QCOMPARE(p.leases().size(), 2); // box-1, box-2; busy-0 refused with its reason
        QVERIFY2(dialog.status().contains(QLatin1String("busy-0 is taken")),
                 qPrintable(dialog.status()));
        QVERIFY(dialog.status().contains(QLatin1String("lease-box-1")));
        dialog.leaseView()->selectAll();
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QCOMPARE(p.lease(QStringLiteral("lease-box-2")).state, LeaseState::Released);
        QVERIFY(!dialog.releaseButton()->isEnabled()); // nothing live left
    }

    void autoProvisionSettingsApply() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("autoscale"));
        test::ServedScratch served;
        QVERIFY2(served.error.isEmpty(), qPrintable(served.error));
        test::ServedFolder* folder = served.folder.get();
        test::FolderClient& server = *served.client;
        AutoscaleSettingsDialog dialog(&server.cluster, &server.connection);
        dialog.show();
        auto* enabled = dialog.findChild<QCheckBox*>(QStringLiteral("autoscaleEnabled"));
        auto* perHour = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("budgetPerHour"));
        auto* nodes = dialog.findChild<QSpinBox*>(QStringLiteral("nodeCap"));
        QVERIFY(enabled && perHour && nodes);
        QVERIFY(!enabled->isChecked()); // off until the user turns it on
        enabled->setFocus();
        QTest::keyClick(enabled, Qt::Key_Space);
        perHour->setValue(2.5);
        nodes->setValue(3);
        const Autoscaler* scaler = folder->session->autoscaler();
        QVERIFY(!scaler->policy().enabled); // nothing changes before Apply
        dialog.apply();
        QTRY_VERIFY_WITH_TIMEOUT(scaler->policy().enabled, 10000); // the server's autoscaler
        QCOMPARE(scaler->policy().maxPerHour, 2.5);
        QCOMPARE(scaler->policy().maxNodes, 3);
        QCOMPARE(loadAutoscalePolicy().maxNodes, 3); // kept for the server's next start
        QVERIFY(loadAutoscalePolicy().enabled);
        // The next snapshot shows it: nothing left to apply.
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.applyButton()->isEnabled(), 10000);
        QCOMPARE(dialog.status(), QString());
    }

    void launchWaitsForMachinesThenSaysWhyNot() {
        // The server's auto-provision rents local workers for a launch the cluster cannot take;
        // here no tessera-worker can start, so the ticket fails, and the panel says why.
        QStandardPaths::setTestModeEnabled(true);
        const QByteArray bin = qgetenv("TESSERA_BIN_DIR");
        qputenv("TESSERA_BIN_DIR", m_dir.filePath(QStringLiteral("no-binaries")).toLocal8Bit());
        const auto restore = qScopeGuard([&] { qputenv("TESSERA_BIN_DIR", bin); });
        test::ServedScratch served(0);
        QVERIFY2(served.error.isEmpty(), qPrintable(served.error));
        served.folder->session->autoscaler()->setPolicy({true, 0, 0, 8, 60});
        const QString examples = m_dir.filePath(QStringLiteral("examples"));
        const QString written = test::useFashionMnistExample(examples, 5, 10);
        QVERIFY2(written.isEmpty(), qPrintable(written));
        client::JobsWatch watch(&served.client->connection);
        JobPanel panel(&watch);
        QVERIFY(panel.selectSpec(QStringLiteral("fashion-mnist")));
        QSignalSpy launched(&panel, &JobPanel::jobLaunched);
        QSignalSpy failed(&panel, &JobPanel::launchFailed);
        panel.launch();
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1 || panel.messageText().contains(QLatin1String(
                                                            "waits for the machines")),
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY2(panel.messageText().contains(QLatin1String("tessera-worker")),
                 qPrintable(panel.messageText()));
        QVERIFY(launched.isEmpty());
        QVERIFY(panel.currentJobId().isEmpty());
    }

    void rentsAndReleasesALocalWorker() {
        const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
        if (!QFileInfo(bin + QStringLiteral("/tessera-worker")).isExecutable()) {
            QSKIP("tessera-worker is not built");
        }
        qputenv("TESSERA_BIN_DIR", bin.toLocal8Bit());
        qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("local")).toLocal8Bit());
        ClusterRegistry registry;
        registry.setProbeInterval(200);
        LocalWorkers local(&registry);
        LocalLeases leases(&local, &registry, 2);
        RentDialog dialog({&leases}, QString());
        QCOMPARE(dialog.offers()->rowCount(), 1);
        QCOMPARE(leases.offers().first().available, 2);
        dialog.offerView()->selectAll();
        QTest::mouseClick(dialog.rentButton(), Qt::LeftButton);
        QCOMPARE(leases.leases().size(), 1);
        const QString id = leases.leases().first().id;
        QTRY_COMPARE_WITH_TIMEOUT(leases.lease(id).state, LeaseState::Ready, 30000);
        QCOMPARE(registry.readyNodes().size(), 1);
        QCOMPARE(leases.lease(id).nodes, QStringList{registry.readyNodes().first().name});
        QCOMPARE(leases.offers().first().available, 1);
        dialog.leaseView()->selectAll();
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(leases.lease(id).state, LeaseState::Released, 10000);
        QVERIFY(registry.nodes().isEmpty());
        QVERIFY(local.names().isEmpty());
    }

    void addSshHostTestsTheConnectionAfterTheKeyIsAccepted();
    void oneClickTurnsTwoSshHostsIntoNodesThatTrain();

private:
    /// Selects the rows of `provider`'s offers (Ctrl-click style).
    static void selectProvider(QTableView* view, const QString& provider) {
        view->clearSelection();
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            if (view->model()->index(r, OfferTableModel::Provider).data() == provider) {
                view->selectionModel()->select(view->model()->index(r, 0),
                                               QItemSelectionModel::Select |
                                                   QItemSelectionModel::Rows);
            }
        }
    }

    QTemporaryDir m_dir;
};

// A real sshd (test host): the form fetches its key and shows the fingerprint of the host's own
// key file; only after Accept does the key reach the known hosts file, and then the login with
// StrictHostKeyChecking succeeds. Saved, the host is an offer.
void TstRent::addSshHostTestsTheConnectionAfterTheKeyIsAccepted() {
    test::TestHosts hosts(1);
    if (hosts.missing()) {
        QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
    }
    QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
    QProcess keygen; // the fingerprint the machine's owner would read out
    keygen.start(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-l"), QStringLiteral("-f"),
                  hosts.folder() + QStringLiteral("/h1/ssh_host_ed25519_key.pub")});
    QVERIFY(keygen.waitForFinished(20000));
    const QString own = QString::fromUtf8(keygen.readAllStandardOutput()).split(' ').value(1);
    QVERIFY2(own.startsWith(QLatin1String("SHA256:")), qPrintable(own));

    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("data/ssh-hosts.json"));
    const QString knownHosts = dir.filePath(QStringLiteral("data/known_hosts"));
    ClusterRegistry registry;
    SshProvider ssh(&registry, nullptr);
    RentDialog dialog({&ssh}, file);
    dialog.show();
    QVERIFY(dialog.emptyStateShown());
    QTest::mouseClick(dialog.emptyStateAddButton(), Qt::LeftButton);
    AddSshHostDialog* form = dialog.addHostDialog();
    QVERIFY(form);
    SshHostFormInput in = form->input();
    QCOMPARE(in.knownHostsFile, knownHosts); // Tessera's own file beside the hosts file
    in.name = QStringLiteral("th-1");
    in.address = QStringLiteral("root@") + hosts.addresses().first();
    in.identityFile = hosts.identityFile();
    form->setInput(in);

    QTest::mouseClick(form->testButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(form->acceptKeyButton()->isVisible() ||
                                 form->probe()->stage() == SshHostProbe::Stage::Failed,
                             30000);
    QVERIFY2(form->acceptKeyButton()->isVisible(), qPrintable(form->connectionText()));
    QVERIFY2(form->fingerprintText().contains(own), qPrintable(form->fingerprintText()));
    QVERIFY(!QFile::exists(knownHosts));
    QTest::mouseClick(form->acceptKeyButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(form->probe()->stage() == SshHostProbe::Stage::Connected ||
                                 form->probe()->stage() == SshHostProbe::Stage::Failed,
                             60000);
    QVERIFY2(form->connectionText().startsWith(QLatin1String("Connected: Linux")),
             qPrintable(form->connectionText()));
    QVERIFY(QFile::exists(knownHosts));
    QVERIFY(form->input().cores > 0); // what the check found fills the form

    QTest::mouseClick(form->saveButton(), Qt::LeftButton);
    QTRY_VERIFY(!dialog.addHostDialog());
    QCOMPARE(ssh.hosts().size(), 1);
    QCOMPARE(ssh.hosts().first().knownHostsFile, knownHosts);
    QVERIFY(!dialog.emptyStateShown());
    QCOMPARE(dialog.offers()->rowCount(), 1);
    QCOMPARE(dialog.offers()->offerAt(0).name, QStringLiteral("th-1"));
}

void TstRent::oneClickTurnsTwoSshHostsIntoNodesThatTrain() {
    const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(program, bin)));
        }
    }
    if (!QFileInfo::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR))) {
        QSKIP("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
    }
    test::TestHosts hosts(2);
    if (hosts.missing()) {
        QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
    }
    QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("data"));
    qputenv("TESSERA_BIN_DIR", bin.toLocal8Bit());
    qputenv("TESSERA_DATA_DIR", data.toLocal8Bit());
    qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
    qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    const QList<SshHost> config =
        hosts.sshHosts(QStringLiteral("ssh-box-"), dir.filePath(QStringLiteral("remote")), 0.25);
    QVERIFY(QDir().mkpath(data));
    QVERIFY(saveSshHosts(BackendSession::sshHostsPath(), config).has_value());
    const QString example =
        test::useFashionMnistExample(dir.filePath(QStringLiteral("examples")), 5, 400);
    QVERIFY2(example.isEmpty(), qPrintable(example));

    BackendSession session;
    QVERIFY2(session.provisionError().isEmpty(), qPrintable(session.provisionError()));
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.rentMachinesAction()->trigger();
    RentDialog* dialog = window.rentDialog();
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->offers()->rowCount(), 3); // the local worker offer and the two hosts

    // One click rents both hosts; both become ready nodes of the cluster.
    QElapsedTimer clock;
    clock.start();
    selectProvider(dialog->offerView(), QStringLiteral("ssh"));
    QTest::mouseClick(dialog->rentButton(), Qt::LeftButton);
    ClusterTableModel* nodes = window.clusterPanel()->model();
    QTRY_VERIFY_WITH_TIMEOUT(nodes->readyCount() == 2 || dialog->status().contains("failed"),
                             120000);
    QVERIFY2(nodes->readyCount() == 2, qPrintable(dialog->status()));
    qInfo("two SSH hosts rent-to-ready in %lld ms", clock.elapsed());
    auto* cost = window.findChild<QLabel*>(QStringLiteral("clusterCost"));
    QVERIFY(cost);
    // The server's next cluster snapshot brings the leases' cost (at most 4 a second).
    QTRY_VERIFY_WITH_TIMEOUT(cost->isVisible() && cost->text().contains(QLatin1String("$0.75/h")),
                             10000);
    for (int r = 0; r < nodes->rowCount(); ++r) {
        QCOMPARE(nodes->nodeAt(r).provider, QStringLiteral("ssh"));
    }

    // A data-parallel job on them: its loss reaches the chart.
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
    auto* launch = window.findChild<QPushButton*>(QStringLiteral("launchButton"));
    QVERIFY(combo && launch);
    combo->setCurrentIndex(combo->findText(QStringLiteral("fashion-mnist"), Qt::MatchContains));
    QVERIFY(launch->isEnabled());
    QTest::mouseClick(launch, Qt::LeftButton);
    const QString jobId = test::launchedJob(*window.jobPanel());
    QVERIFY2(!jobId.isEmpty(), qPrintable(window.jobPanel()->messageText()));
    QTRY_VERIFY_WITH_TIMEOUT(window.chart()->lossPointCount() >= 3 ||
                                 window.jobPanel()->currentJobState() == JobState::Failed,
                             180000);
    QVERIFY2(window.chart()->lossPointCount() >= 3, qPrintable(window.jobPanel()->messageText()));
    QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded, 240000);

    // Release both from the lease table.
    dialog->leaseView()->selectAll();
    QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 0, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!session.sshProvider()->leases().first().live() &&
                                 !session.sshProvider()->leases().last().live(),
                             20000);
    QCOMPARE(session.sshProvider()->leases().first().state, LeaseState::Released);
}

QTEST_MAIN(TstRent)
#include "tst_rent.moc"
