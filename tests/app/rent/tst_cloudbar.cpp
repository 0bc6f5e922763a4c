// The Rent dialog's cloud line against the fake Lambda Cloud (no test hosts needed): without a key
// it says so; a key typed into its dialog is stored 0600 and the cloud's offers appear in the
// offer table; an instance Tessera lost track of (a launch whose reply never came before the app
// went away) is shown as still billing and released with one click; "Release everything" asks
// first.
#include "app/rent/cloudbar.h"
#include "app/rent/offertablemodel.h"
#include "app/rent/rentdialog.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/core/jobtypes.h"
#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/cloudsettings.h"
#include "backend/provision/leasestore.h"
#include "tests/support/fakelambda.h"

#include <QApplication>
#include <QFile>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace tessera;

namespace {
const QString kKey = QStringLiteral("cloud-bar-test-key");
}

class TstCloudBar : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
    std::unique_ptr<test::FakeLambda> m_fake;

    QString db() const { return m_data.filePath(QStringLiteral("tessera.sqlite")); }

private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8());
        m_fake = std::make_unique<test::FakeLambda>(kKey, /*realHosts=*/false);
        QVERIFY2(m_fake->error().isEmpty(), qPrintable(m_fake->error()));
        qputenv("TESSERA_LAMBDA_API_URL", m_fake->url().toUtf8());
    }

    void keyFromItsDialogListsTheOffers() {
        ClusterRegistry registry;
        auto cloud = makeLambdaProvider(&registry, nullptr, nullptr);
        RentDialog dialog({cloud.get()}, QString());
        dialog.show();
        QCOMPARE(dialog.cloudBars().size(), 1);
        CloudBar* bar = dialog.cloudBars().first();
        QVERIFY2(bar->stateText().contains(QLatin1String("no API key")),
                 qPrintable(bar->stateText()));
        QVERIFY(bar->lostText().isEmpty());

        QTest::mouseClick(bar->keyButton(), Qt::LeftButton);
        QInputDialog* ask = nullptr;
        QTRY_VERIFY((ask = dialog.findChild<QInputDialog*>(QStringLiteral("cloudKeyDialog"))));
        QTRY_VERIFY(ask->isVisible());
        ask->setTextValue(kKey);
        ask->accept();
        QTRY_VERIFY_WITH_TIMEOUT(bar->stateText().contains(QLatin1String("instance type")), 30000);
        const QString keyFile = apiKeyPath(QStringLiteral("lambda"));
        QCOMPARE(*readApiKeyFile(keyFile), kKey);
        QCOMPARE(QFile::permissions(keyFile) & 0x0077, QFile::Permissions());
        QTRY_VERIFY(dialog.offers()->rowCount() >= 3);
        QCOMPARE(dialog.offers()->offerAt(0).provider, QStringLiteral("lambda"));
    }

    void lostInstanceIsShownAndReleased() {
        QVERIFY(writeApiKeyFile(apiKeyPath(QStringLiteral("lambda")), kKey));
        const auto keyed = [](CloudProvider* p) {
            bool loaded = false;
            loadCloudApiKey(p, [&](const QString&) { loaded = true; });
            return QTest::qWaitFor([&] { return loaded; }, 10000) && p->api()->hasApiKey();
        };
        QString leaseId;
        {
            ClusterRegistry registry;
            LeaseStore store;
            QVERIFY(store.open(db()));
            auto cloud = makeLambdaProvider(&registry, &store, nullptr);
            QVERIFY(keyed(cloud.get()));
            QSignalSpy listed(cloud.get(), &Provider::offersChanged);
            cloud->refreshOffers();
            QVERIFY(listed.wait(30000));
            m_fake->control(QStringLiteral("/_fake/hold-launch"),
                            {{QStringLiteral("seconds"), 600}});
            auto id = cloud->rent(QStringLiteral("gpu_1x_a10"));
            QVERIFY(id);
            QTRY_VERIFY_WITH_TIMEOUT(!m_fake->listed().isEmpty(), 30000);
        } // the app went away before the launch's reply
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0}});
        ClusterRegistry registry;
        LeaseStore store;
        QVERIFY(store.open(db()));
        auto cloud = makeLambdaProvider(&registry, &store, nullptr);
        QVERIFY(keyed(cloud.get()));
        RentDialog dialog({cloud.get()}, QString());
        dialog.show();
        CloudBar* bar = dialog.cloudBars().first();
        cloud->restore();
        QTRY_VERIFY_WITH_TIMEOUT(!bar->lostText().isEmpty(), 30000);
        QVERIFY2(bar->lostText().contains(QLatin1String("still billing")) &&
                     bar->lostText().contains(QLatin1String("gpu_1x_a10")),
                 qPrintable(bar->lostText()));
        QVERIFY(bar->releaseLostButton()->isVisible());
        QTest::mouseClick(bar->releaseLostButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(bar->lostText().isEmpty(), 30000);
        QVERIFY(cloud->strays().isEmpty());
    }

    void releaseEverythingAsksFirst() {
        ClusterRegistry registry;
        auto cloud = makeLambdaProvider(&registry, nullptr, nullptr);
        RentDialog dialog({cloud.get()}, QString());
        dialog.show();
        QTest::mouseClick(dialog.releaseAllButton(), Qt::LeftButton);
        QMessageBox* box = nullptr;
        QTRY_VERIFY(
            (box = dialog.findChild<QMessageBox*>(QStringLiteral("releaseEverythingConfirm"))));
        QSignalSpy said(&dialog, &RentDialog::message);
        box->button(QMessageBox::Cancel)->click();
        QTest::qWait(100); // nothing is released after Cancel (a negative check)
        QVERIFY(said.isEmpty());
    }

    void cleanupTestCase() { m_fake.reset(); }
};

QTEST_MAIN(TstCloudBar)
#include "tst_cloudbar.moc"
