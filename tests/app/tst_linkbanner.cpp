// The window as a client of its server (issue 48): the cluster panel reads the server's cluster
// over the control API, and a lost connection shows a banner naming the server and why, which
// goes once the server is back.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/connection/linkbanner.h"
#include "app/mainwindow.h"
#include "backend/client/serverconnection.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestLinkBanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
    }

    void theWindowSeesTheServersClusterAndSaysWhenItIsLost() {
        auto folder = test::ServedFolder::started(m_data.path(), 1);
        QVERIFY2(folder->error.isEmpty(), qPrintable(folder->error));
        client::ServerConnection connection(client::ServerAddress{folder->socket(), nullptr});
        connection.start();
        MainWindow window(folder->session.get(), &connection);
        window.show();
        ClusterTableModel* nodes = window.clusterPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(nodes->readyCount(), 1, 20000); // through the socket
        QVERIFY(window.linkBanner()->isHidden());

        folder->server.reset(); // the server goes away; the window stays
        QTRY_VERIFY_WITH_TIMEOUT(!window.linkBanner()->isHidden(), 20000);
        const QString text = window.linkBanner()->text();
        QVERIFY2(text.contains(QStringLiteral("Lost the connection")) &&
                     text.contains(folder->lock.socketPath()),
                 qPrintable(text));
        QCOMPARE(nodes->readyCount(), 1); // what it showed stays

        const QString serving = folder->serve();
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        QTRY_VERIFY_WITH_TIMEOUT(window.linkBanner()->isHidden(), 30000);
        QCOMPARE(window.linkBanner()->text(), QString());
    }

    void theTitleSaysWhichServerAndWho() {
        QTemporaryDir other;
        QVERIFY(other.isValid());
        qputenv("TESSERA_DATA_DIR", other.path().toUtf8());
        test::ServedFolder folder(other.path(), 0);
        QVERIFY2(folder.error.isEmpty(), qPrintable(folder.error));
        std::shared_ptr<const tls::Identity> alice;
        const QString serving = test::serveOverTls(folder, QStringLiteral("alice"), &alice);
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        const QString address = QStringLiteral("127.0.0.1:%1").arg(folder.server->tcpPort());
        client::ServerConnection connection(client::ServerAddress{address, alice});
        connection.start();
        MainWindow window(folder.session.get(), &connection);
        QTRY_COMPARE_WITH_TIMEOUT(window.windowTitle(),
                                  QStringLiteral("Untitled[*] — Tessera — alice@") + address,
                                  20000);
        qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8());
    }

    void aWindowWithoutAServerServesItsSessionItself() {
        QTemporaryDir other;
        QVERIFY(other.isValid());
        qputenv("TESSERA_DATA_DIR", other.path().toUtf8());
        BackendSession session;
        MainWindow window(&session);
        QTRY_COMPARE_WITH_TIMEOUT(window.connection()->link(),
                                  client::ServerConnection::Link::Connected, 20000);
        QVERIFY(window.linkBanner()->isHidden());
        qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8());
    }

private:
    QTemporaryDir m_data;
};

QTEST_MAIN(TestLinkBanner)
#include "tst_linkbanner.moc"
