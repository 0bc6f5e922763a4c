// HasBundle / PutBundle against a real tessera-worker: a bundle arrives whole and checked, and
// what a careless or hostile client sends is refused with the reason — a wrong SHA-256, more
// bytes than announced, a truncated stream, a tar whose members point outside the cache, no
// token — leaving nothing behind.
#include "worker_process.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {
const std::string kToken = "bundle-upload-token-9c4e1b7a3f5d2086";

/// A tar of `files` (name → content) made in `dir`, with `extra` tar options.
QByteArray makeTar(const QString& dir, const QMap<QString, QByteArray>& files,
                   const QStringList& extra = {}) {
    QStringList names;
    for (auto it = files.cbegin(); it != files.cend(); ++it) {
        const QString path = QDir(dir).filePath(it.key());
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(it.value());
        names << it.key();
    }
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start("tar", QStringList{"-cf", "-"} + extra + names);
    p.waitForFinished();
    return p.readAllStandardOutput();
}

std::string sha256(const QByteArray& data) {
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex().toStdString();
}

/// Sends `data` as bundle `sha` announcing `total` bytes, in chunks of `chunk` bytes; the
/// first `sendChunks` chunks only when >= 0.
grpc::Status put(v1::WorkerService::Stub& stub, const std::string& sha, const QByteArray& data,
                 uint64_t total, const std::string& token = kToken, int chunk = 1000) {
    grpc::ClientContext ctx;
    authorize(ctx, token, 30);
    v1::BundleStatus reply;
    auto writer = stub.PutBundle(&ctx, &reply);
    for (int at = 0; at == 0 || at < data.size(); at += chunk) {
        v1::BundleChunk c;
        if (at == 0) {
            c.set_sha256(sha);
            c.set_total_bytes(total);
        }
        const QByteArray part = data.mid(at, chunk);
        c.set_data(part.constData(), static_cast<size_t>(part.size()));
        if (!writer->Write(c)) {
            break;
        }
    }
    writer->WritesDone();
    return writer->Finish();
}

bool has(v1::WorkerService::Stub& stub, const std::string& sha) {
    grpc::ClientContext ctx;
    authorize(ctx, kToken);
    v1::BundleRef req;
    req.set_sha256(sha);
    v1::BundleStatus reply;
    return stub.HasBundle(&ctx, req, &reply).ok() && reply.present();
}
} // namespace

class TestBundleUpload : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_worker;

    QString bundles() const { return m_dir.filePath("work/bundles"); }
    /// Files in the bundle cache other than finished bundles (temporary files, half unpacks).
    QStringList leftovers() const {
        QStringList out;
        for (const QString& e :
             QDir(bundles()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)) {
            if (e.size() != 64) {
                out << e;
            }
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        const QString token = m_dir.filePath("token");
        QVERIFY(writeTokenFile(token, kToken));
        m_worker = std::make_unique<WorkerProcess>(m_dir.filePath("work"), token, "nodeA");
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
    }

    void arrivesWholeOnce() {
        QTemporaryDir src;
        const QByteArray tar =
            makeTar(src.path(), {{"train.py", "print('hi')\n"}, {"pkg/m.py", "X = 1\n"}});
        const std::string sha = sha256(tar);
        auto stub = m_worker->stub();
        QVERIFY(!has(*stub, sha));
        const grpc::Status st = put(*stub, sha, tar, uint64_t(tar.size()));
        QVERIFY2(st.ok(), st.error_message().c_str());
        QVERIFY(has(*stub, sha));
        QFile f(bundles() + "/" + QString::fromStdString(sha) + "/pkg/m.py");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("X = 1\n"));
        // Again: accepted, nothing changes.
        QVERIFY(put(*stub, sha, tar, uint64_t(tar.size())).ok());
        QCOMPARE(leftovers(), QStringList());
    }

    void refusals_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("part");
        QTest::newRow("wrong sha") << 0 << "another SHA-256";
        QTest::newRow("more than announced") << 1 << "more than its total_bytes";
        QTest::newRow("stream cut short") << 2 << "ended after";
        QTest::newRow("not a sha") << 3 << "64 lower-case hex";
        QTest::newRow("member outside the folder") << 4 << "cannot unpack";
        QTest::newRow("no token") << 5 << "";
        QTest::newRow("far too large") << 6 << "more than this worker takes";
    }
    void refusals() {
        QFETCH(int, kind);
        QFETCH(QString, part);
        QTemporaryDir src;
        QByteArray tar = makeTar(src.path(), {{"a.txt", QByteArray(5000, 'a')}});
        std::string sha = sha256(tar);
        uint64_t total = uint64_t(tar.size());
        std::string token = kToken;
        switch (kind) {
        case 0:
            sha = sha256(tar + "x");
            break;
        case 1:
            total = 100;
            break;
        case 2:
            total += 1000;
            break;
        case 3:
            sha = "ABC";
            break;
        case 4:
            // GNU tar refuses `..` members by default; -P keeps them in the archive.
            QDir().mkpath(src.filePath("inner"));
            tar = makeTar(src.filePath("inner"), {{"../escaped.txt", "out"}}, {"-P"});
            sha = sha256(tar);
            total = uint64_t(tar.size());
            break;
        case 5:
            token = "wrong";
            break;
        case 6:
            total = 5ull << 30;
            break;
        }
        auto stub = m_worker->stub();
        const grpc::Status st = put(*stub, sha, tar, total, token);
        QVERIFY(!st.ok());
        if (kind == 5) {
            QCOMPARE(int(st.error_code()), int(grpc::StatusCode::UNAUTHENTICATED));
        } else {
            QVERIFY2(QString::fromStdString(st.error_message()).contains(part),
                     st.error_message().c_str());
        }
        QVERIFY(!has(*stub, sha256(tar)) || kind == 5);
        QCOMPARE(leftovers(), QStringList());
        QVERIFY(!QFile::exists(m_dir.filePath("work/escaped.txt")));
        QVERIFY(!QFile::exists(bundles() + "/../escaped.txt"));
    }

    void cleanupTestCase() {
        if (m_worker) {
            m_worker->stop();
        }
    }
};

QTEST_GUILESS_MAIN(TestBundleUpload)
#include "tst_bundle_upload.moc"
