// Where a cloud's API key is kept: in the desktop keyring when there is a D-Bus session with a
// Secret Service (CTest runs this test inside `dbus-run-session` with GNOME Keyring unlocked), and
// then not in a file too; else in a 0600 file. Reading finds it in either place; a bad key is
// refused before it is stored anywhere.
#include "backend/provision/cloud/cloudkeyring.h"
#include "backend/provision/cloud/cloudkeys.h"

#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace tessera;

namespace {

Result<KeyPlace> store(const QString& key) {
    QObject context;
    std::optional<Result<KeyPlace>> out;
    storeCloudApiKey(&context, QStringLiteral("testcloud"), key,
                     [&](const Result<KeyPlace>& r) { out = r; });
    if (!QTest::qWaitFor([&] { return out.has_value(); }, 20000)) {
        return fail(ErrorCode::Unavailable, "storing the key did not finish within 20 s");
    }
    return *out;
}

std::pair<Result<QString>, KeyPlace> read() {
    QObject context;
    std::optional<std::pair<Result<QString>, KeyPlace>> out;
    readCloudApiKey(&context, QStringLiteral("testcloud"),
                    [&](const Result<QString>& key, KeyPlace place) { out.emplace(key, place); });
    if (!QTest::qWaitFor([&] { return out.has_value(); }, 20000)) {
        return {fail(ErrorCode::Unavailable, "reading the key did not finish within 20 s"),
                KeyPlace::None};
    }
    return *out;
}

} // namespace

class TstCloudKeyring : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
    QByteArray m_bus;

private Q_SLOTS:
    void initTestCase() {
        qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8());
        m_bus = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        // The session in-keyring-session.sh made is private to this test: its keyring may be used.
        if (qEnvironmentVariableIsSet("TESSERA_TEST_PRIVATE_BUS")) {
            qunsetenv("TESSERA_NO_KEYRING");
        } else {
            m_bus.clear(); // never the keyring of the person running the test
        }
    }

    void headlessKeepsAPrivateFile() {
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        const auto back = qScopeGuard([this] {
            if (!m_bus.isEmpty()) {
                qputenv("DBUS_SESSION_BUS_ADDRESS", m_bus);
            }
        });
        const Result<KeyPlace> stored = store(QStringLiteral("  file-key-1 \n"));
        QVERIFY2(stored, stored ? "" : stored.error().message.c_str());
        QCOMPARE(*stored, KeyPlace::File);
        const QString path = apiKeyPath(QStringLiteral("testcloud"));
        QCOMPARE(QFile::permissions(path) & 0x0077, QFile::Permissions());
        const auto [key, place] = read();
        QCOMPARE(*key, QStringLiteral("file-key-1"));
        QCOMPARE(place, KeyPlace::File);
        QVERIFY(!store(QStringLiteral("two\nlines")));
        QCOMPARE(*read().first, QStringLiteral("file-key-1")); // the refused one changed nothing
    }

    void desktopKeepsItInTheKeyring() {
        if (m_bus.isEmpty()) {
            QSKIP("no private D-Bus session: CTest runs this under tests/support/"
                  "in-keyring-session.sh with GNOME Keyring (Debian packages dbus-daemon, "
                  "gnome-keyring)");
        }
        const Result<KeyPlace> stored = store(QStringLiteral("keyring-key-2"));
        QVERIFY2(stored, stored ? "" : stored.error().message.c_str());
        if (*stored != KeyPlace::Keyring) {
            QSKIP("the D-Bus session has no Secret Service that takes the key (GNOME Keyring did "
                  "not start or unlock): the key went to the file");
        }
        QVERIFY2(!QFile::exists(apiKeyPath(QStringLiteral("testcloud"))),
                 "the key is kept twice: in the keyring and in the file");
        const auto [key, place] = read();
        QCOMPARE(*key, QStringLiteral("keyring-key-2"));
        QCOMPARE(place, KeyPlace::Keyring);
    }
};

QTEST_GUILESS_MAIN(TstCloudKeyring)
#include "tst_cloudkeyring.moc"
