// Bearer-token files (issue 45): a file others may read or write is refused, and so is a token
// too weak to guard a worker; the tokens Tessera makes pass.
#include "worker/common/bearer_token.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace tessera;

class TestTokenFile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const char* name, const QByteArray& text, mode_t mode) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) < 0 ||
            !f.flush() || ::chmod(QFile::encodeName(path).constData(), mode) != 0) {
            return {};
        }
        return path;
    }

private Q_SLOTS:
    void privateFileIsRead() {
        const QString path = write("ok", "  0123456789abcdef0123456789abcdef \n", 0600);
        auto token = readBearerTokenFile(path.toStdString());
        QVERIFY2(token, token ? "" : token.error().message.c_str());
        QCOMPARE(*token, std::string("0123456789abcdef0123456789abcdef"));
    }

    void fileOthersMayUseIsRefused_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("0644 world-readable") << 0644;
        QTest::newRow("0640 group-readable") << 0640;
        QTest::newRow("0602 world-writable") << 0602;
        QTest::newRow("0610 group-executable") << 0610;
    }
    void fileOthersMayUseIsRefused() {
        QFETCH(int, mode);
        const QString path = write("open", "0123456789abcdef0123456789abcdef\n", mode_t(mode));
        auto token = readBearerTokenFile(path.toStdString());
        QVERIFY(!token);
        QCOMPARE(token.error().code, ErrorCode::PermissionDenied);
        const std::string& m = token.error().message;
        QVERIFY2(m.find(path.toStdString()) != std::string::npos, m.c_str());
        QVERIFY2(m.find("chmod 600 " + path.toStdString()) != std::string::npos, m.c_str());
        QVERIFY2(m.find("make a new token") != std::string::npos, m.c_str());
    }

    void strength_data() {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<bool>("strong");
        QTest::newRow("one byte") << QByteArray("x") << false;
        QTest::newRow("a word") << QByteArray("secret") << false;
        QTest::newRow("16 hex digits (64 bits)") << QByteArray("0123456789abcdef") << false;
        QTest::newRow("32 hex digits (128 bits)")
            << QByteArray("3f9c1a7e52b8d0469c4e1b7a3f5d2086") << true;
        QTest::newRow("32 upper-case hex digits")
            << QByteArray("3F9C1A7E52B8D0469C4E1B7A3F5D2086") << true;
        QTest::newRow("31 hex digits") << QByteArray("3f9c1a7e52b8d0469c4e1b7a3f5d208") << false;
        QTest::newRow("22 base64url characters (132 bits)")
            << QByteArray("q2-Zt8_VbN4xWmC7kP0aLe") << true;
        QTest::newRow("one letter repeated")
            << QByteArray("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") << false;
        QTest::newRow("two letters alternating")
            << QByteArray("abababababababababababababababababababababababab") << false;
        QTest::newRow("a long passphrase")
            << QByteArray("correct-horse-battery-staple-on-node-7") << true;
    }
    void strength() {
        QFETCH(QByteArray, token);
        QFETCH(bool, strong);
        auto checked = checkBearerTokenStrength(token.toStdString(), "token file 'F'", "F");
        QCOMPARE(bool(checked), strong);
        if (!strong) {
            const std::string& m = checked.error().message;
            QCOMPARE(checked.error().code, ErrorCode::InvalidArgument);
            QVERIFY2(m.find("too weak") != std::string::npos, m.c_str());
            QVERIFY2(m.find("128 needed") != std::string::npos, m.c_str());
            QVERIFY2(m.find("tessera-ctl token F") != std::string::npos, m.c_str());
        }
    }

    void tokensTesseraMakesPass() {
        // What backend/provision/token.cpp makes: 32 random bytes as 64 hex digits. Many draws
        // (seeded: the same ones each run), so a rule that refuses unlucky ones would show.
        QRandomGenerator random(20261207);
        for (int i = 0; i < 2000; ++i) {
            QByteArray bytes(32, Qt::Uninitialized);
            random.fillRange(reinterpret_cast<quint32*>(bytes.data()), 8);
            const std::string token = bytes.toHex().toStdString();
            QVERIFY2(bearerTokenBits(token) >= 255.0, token.c_str());
            // And the shortest a person may make: 16 bytes (openssl rand -hex 16).
            const std::string half = token.substr(0, 32);
            QVERIFY2(checkBearerTokenStrength(half, "t", "t"), half.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestTokenFile)
#include "tst_token_file.moc"
