// Every string the app shows goes through the translator. A pseudo-translator that answers
// "‹source›" for every message of every context is installed before the main window is built;
// then the window, its docks, tabs, menus and the dialogs one reaches without a network are
// walked (untranslatedwalker.h: texts, titles, tool tips, placeholders, combo items, model
// headers and cells, chart axes and legends, what custom widgets and the designer's canvas
// paint) and every string with a letter outside ‹…› fails the test, listed, once numbers, unit
// symbols and a short allow-list are taken out.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/autoplandialog.h"
#include "app/designer/designerpanel.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/exportdialog.h"
#include "app/designer/plandocument.h"
#include "app/designer/programlaunchdialog.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/rent/addsshhostdialog.h"
#include "app/rent/rentdialog.h"
#include "app/settings/autoscalesettings.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "tests/app/pseudotranslator.h"
#include "tests/app/untranslatedwalker.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QLocale>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <utility>

using namespace tessera;
using namespace tessera::test;

class TestUntranslated : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
        QCoreApplication::installTranslator(&m_pseudo);
    }

    // The checker itself: what it lets through and what it catches.
    void checkerCatchesWhatIsNotTranslated() {
        const QSet<QString> data{"fashion-mnist-mlp"};
        QCOMPARE(untranslatedRest(kOpen + QStringLiteral("Launch") + kClose, data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹Job %1› ‹running›").arg("job-3"), data),
                 QString());
        QCOMPARE(untranslatedRest(QStringLiteral("12.5 ms · 3.2 GiB · 4 GPUs · DP2×TP4"), data),
                 QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹model› fashion-mnist-mlp"), data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹Estimated step ti…"), data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("ready"), data), QStringLiteral("ready"));
        QCOMPARE(untranslatedRest(QStringLiteral("‹State›: succeeded"), data),
                 QStringLiteral("succeeded"));
        QCOMPARE(untranslatedRest(QStringLiteral("local worker (this machine)"), data),
                 QStringLiteral("local worker this machine"));
        QCOMPARE(untranslatedRest(QStringLiteral("3 ranks"), data), QStringLiteral("ranks"));
        QCOMPARE(untranslatedRest(QStringLiteral("训练"), data), QStringLiteral("训练"));
        // Numbers: a decimal point is caught, a German decimal comma or digit group is not.
        QCOMPARE(dotDecimal(QStringLiteral("‹test accuracy 0.861›"), data),
                 QStringLiteral("0.861"));
        QCOMPARE(dotDecimal(QStringLiteral("4.3 GB"), data), QStringLiteral("4.3"));
        QCOMPARE(dotDecimal(QStringLiteral("0,861 · 235.146 · 4,3 GB · v0.2.2 · 127.0.0.1"), data),
                 QString());
        // The pseudo-translator is what the app's tr() calls get.
        QCOMPARE(QCoreApplication::translate("tessera::MainWindow", "&Training"),
                 kOpen + QStringLiteral("&Training") + kClose);
    }

    // The app in German (dates and numbers in that locale) with runs in the history (one in each
    // final state), one local worker, a spec chosen, both tabs shown, every dialog open.
    void everyShownStringIsTranslated() {
        walkTheApp();
        if (QTest::currentTestFailed()) {
            return;
        }
        for (const QString& f : m_walker->findings()) {
            qWarning().noquote() << "not translated:" << f;
        }
        QVERIFY2(m_walker->findings().isEmpty(),
                 qPrintable(QStringLiteral("%1 shown string(s) not passed through tr() (listed "
                                           "above):\n  %2")
                                .arg(m_walker->findings().size())
                                .arg(m_walker->findings().mid(0, 5).join("\n  "))));
    }

    // In German every number with a fraction has a decimal comma.
    void numbersFollowTheLocale() {
        QVERIFY(m_walker);
        for (const QString& f : m_walker->decimals()) {
            qWarning().noquote() << "decimal point in German:" << f;
        }
        QVERIFY2(m_walker->decimals().isEmpty(),
                 qPrintable(QStringLiteral("%1 shown number(s) not in the user's locale (listed "
                                           "above):\n  %2")
                                .arg(m_walker->decimals().size())
                                .arg(m_walker->decimals().mid(0, 5).join("\n  "))));
    }

private:
    /// Builds the window over a history with one run in each final state and a local worker,
    /// opens what can be opened and walks it all.
    void walkTheApp() {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        seedHistory();
        m_walker = std::make_unique<UntranslatedWalker>(resourceData());
        QStringList& out = m_problems;
        {
            BackendSession session;
            MainWindow window(&session);
            window.resize(1366, 768);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.clusterPanel()->setWorkerCount(1);
            window.clusterPanel()->rentAction()->trigger();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() == 1; },
                                 60000)) {
                out << QStringLiteral("the local worker did not become ready");
            }
            window.jobPanel()->selectSpec(QStringLiteral("fashion"));
            auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
            QVERIFY(tabs);
            for (int i = tabs->count() - 1; i >= 0; --i) {
                tabs->setCurrentIndex(i);
                if (tabs->currentWidget() == window.designer() &&
                    !QTest::qWaitFor(
                        [&] {
                            return !window.designer()->estimatePanel()->stepTimeText().isEmpty();
                        },
                        30000)) {
                    out << QStringLiteral("the designer made no estimate");
                }
            }
            // A lease through the Rent dialog (its table shows the lease's state and step).
            RentDialog* rent = window.rentDialog();
            rent->show();
            rent->offerView()->selectRow(0);
            rent->rentSelected();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() == 2; },
                                 60000)) {
                out << QStringLiteral("the rented local worker did not become ready");
            }
            // A job's state change as the log pane shows it.
            Q_EMIT session.controller()->jobStateChanged(QStringLiteral("job-9"),
                                                         JobState::Succeeded, QString());
            QList<QWidget*> dialogs{rent, window.autoscaleDialog(), rent->openAddHost()};
            if (designer::DesignerPanel* d = window.designer()) {
                dialogs << d->autoPlanDialog() << d->exportDialog() << d->programDialog();
            }
            for (QWidget* dialog : dialogs) {
                dialog->show();
                if (!QTest::qWaitForWindowExposed(dialog)) {
                    out << QStringLiteral("a dialog was not shown");
                }
            }
            QApplication::processEvents();
            m_walker->walkWidget(&window);
            // Menus are top-level widgets of their own, as are the dialogs.
            for (QWidget* top : QApplication::topLevelWidgets()) {
                m_walker->walkWidget(top);
            }
            for (QWidget* dialog : dialogs) {
                dialog->hide();
            }
            rent->leaseView()->selectAll();
            rent->releaseSelected();
            window.clusterPanel()->releaseAction()->trigger();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->rowCount() == 0; },
                                 20000)) {
                out << QStringLiteral("the local worker was not released");
            }
        }
        walkExportDialog();
        QLocale::setDefault(QLocale::c());
        QVERIFY2(out.isEmpty(), qPrintable(out.join("; ")));
    }

    /// The Export dialog where what it shows is a person's to read: a layout DeepSpeed takes with
    /// notes and torchtitan cannot express (built-in GPT, DP 2 x TP 2 x PP 2 without ZeRO: DDP
    /// only runs alone there; a split "uniform" does not give, full recompute, sequence
    /// parallelism), then one no format can (global batch 30 over DP 2 x 4 micro-batches: 3,75
    /// samples each, a decimal comma in German). The generated files themselves are not checked.
    void walkExportDialog() {
        using designer::ExportDialog;
        v1::PlanFile plan;
        v1::ModelSpec* model = plan.mutable_model();
        model->set_family("gpt");
        model->set_dim(256);
        model->set_blocks(4);
        model->set_heads(8);
        model->set_context(128);
        v1::Layout* layout = plan.mutable_layout();
        layout->set_data_parallel(2);
        layout->set_tensor_parallel(2);
        for (auto [first, last] : {std::pair{0, 2}, std::pair{3, 6}}) {
            v1::Stage* stage = layout->add_stages();
            stage->set_first_layer(first);
            stage->set_last_layer(last);
        }
        layout->set_micro_batches(4);
        plan.mutable_settings()->set_global_batch(32);
        plan.mutable_settings()->set_recompute("full");
        plan.mutable_settings()->set_sequence_parallel(true);
        designer::PlanDocument document;
        document.reset(plan);
        ExportDialog dialog(&document);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY2(dialog.exportable(ExportDialog::DeepSpeed) &&
                     !dialog.exportable(ExportDialog::Torchtitan),
                 qPrintable(dialog.shownText(ExportDialog::Torchtitan)));
        QVERIFY(dialog.notesText().count(QLatin1Char('\n')) >= 8);
        m_walker->walkWidget(&dialog);

        plan.mutable_settings()->set_global_batch(30);
        document.edit(plan, QStringLiteral("global batch 30"));
        for (auto format :
             {ExportDialog::Megatron, ExportDialog::DeepSpeed, ExportDialog::Torchtitan}) {
            QVERIFY(!dialog.exportable(format));
        }
        m_walker->walkAgain(&dialog);
    }

    /// Three runs of the example spec in the history: succeeded, failed and cancelled.
    static void seedHistory() {
        MetricStore store;
        if (!store.open(MetricStore::defaultPath())) {
            return;
        }
        QFile spec(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json"));
        spec.open(QIODevice::ReadOnly);
        const QString json = QString::fromUtf8(spec.readAll());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        int n = 0;
        for (JobState state : {JobState::Succeeded, JobState::Failed, JobState::Cancelled}) {
            JobRecord job;
            job.id = QStringLiteral("job-%1").arg(++n);
            job.name = QStringLiteral("fashion-mnist-mlp");
            job.specJson = json;
            job.state = state;
            job.submittedMs = now - 600000 * n;
            job.startedMs = job.submittedMs + 2000;
            job.finishedMs = job.startedMs + 95500;
            job.lastStep = 120;
            job.lastLoss = 0.4213;
            job.testAccuracy = 0.8612;
            store.recordJob(job);
            MetricPoint p;
            p.jobId = job.id;
            p.seq = 1;
            p.step = 120;
            p.values = {{QStringLiteral("loss"), 0.4213},
                        {QStringLiteral("test_accuracy"), 0.8612}};
            store.addPoint(p);
        }
    }

    QTemporaryDir m_dir;
    PseudoTranslator m_pseudo;
    std::unique_ptr<UntranslatedWalker> m_walker;
    QStringList m_problems;
};

QTEST_MAIN(TestUntranslated)
#include "tst_untranslated.moc"
