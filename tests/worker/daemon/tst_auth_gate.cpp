// Every method of every service in Tessera's .proto files refuses a call without the worker's
// token, and one with a wrong token, with UNAUTHENTICATED (issue 20, point 1). The methods come
// from protobuf's descriptor pool, not from a list in this file: a new RPC is checked the day it
// is added, whichever handler its author writes. Each is called through gRPC's generic stub with
// one empty message (a streaming method gets that message and the end of the stream), against
// real tessera-workers in each of the transports a worker serves: plaintext on loopback and
// mutual TLS (the token gate is gRPC's auth metadata processor there), and --insecure beyond
// loopback (where gRPC runs no processor and the handlers' TokenAuth::check is the gate).
#include "worker_process.h"

#include "backend/tls/certificate_authority.h"

#include "tessera/v1/job.pb.h"
#include "tessera/v1/plan.pb.h"
#include "tessera/v1/worker.pb.h"

#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <QElapsedTimer>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <vector>

using namespace tessera;

namespace {

const std::string kToken = "auth-gate-token-9c4e1b7a3f5d2086";

/// Links one message of each generated file, so that the file registers itself in the
/// descriptor pool (a static library's unused objects are not linked). A .proto file added to
/// worker/proto and not here makes theEnumerationSeesEveryRpc fail, naming it.
void linkEveryProtoFile() {
    (void)v1::JobSpec::descriptor();
    (void)v1::PlanFile::descriptor();
    (void)v1::WorkerInfo::descriptor();
}

/// "/package.Service/Method" for every method of every service of `protoFiles` (paths as the
/// generated code registers them, e.g. "tessera/v1/worker.proto"); a file the pool does not
/// know is reported in `missing`.
QStringList methodPaths(const QStringList& protoFiles, QStringList* missing) {
    linkEveryProtoFile();
    QStringList paths;
    const auto* pool = google::protobuf::DescriptorPool::generated_pool();
    for (const QString& name : protoFiles) {
        const google::protobuf::FileDescriptor* file = pool->FindFileByName(name.toStdString());
        if (file == nullptr) {
            *missing << name;
            continue;
        }
        for (int s = 0; s < file->service_count(); ++s) {
            const google::protobuf::ServiceDescriptor* service = file->service(s);
            for (int m = 0; m < service->method_count(); ++m) {
                paths << QStringLiteral("/%1/%2").arg(
                    QString::fromStdString(service->full_name()),
                    QString::fromStdString(service->method(m)->name()));
            }
        }
    }
    return paths;
}

/// Calls `path` on `channel` with one empty message and `authorization` (none when empty);
/// waits for the status (deadline 10 s).
grpc::Status call(const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
                  const std::string& authorization) {
    grpc::GenericStub stub(channel);
    grpc::ClientContext ctx;
    if (!authorization.empty()) {
        ctx.AddMetadata("authorization", authorization);
    }
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::Slice empty{std::string()};
    grpc::ByteBuffer request(&empty, 1);
    grpc::ByteBuffer reply;
    std::mutex mutex;
    std::condition_variable done;
    std::optional<grpc::Status> status;
    stub.UnaryCall(&ctx, path, grpc::StubOptions(), &request, &reply, [&](grpc::Status s) {
        const std::lock_guard lock(mutex);
        status = std::move(s);
        done.notify_all();
    });
    std::unique_lock lock(mutex);
    done.wait(lock, [&] { return status.has_value(); });
    return *status;
}

} // namespace

class TestAuthGate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        const QString token = m_dir.filePath(QStringLiteral("token"));
        QVERIFY(writeTokenFile(token, kToken));
        QVERIFY(makeCertificates());
        const QStringList tls = {"--tls-cert", m_dir.filePath("worker.crt"),
                                 "--tls-key",  m_dir.filePath("worker.key"),
                                 "--tls-ca",   m_dir.filePath("ca.crt")};
        for (const auto& [mode, listen, extra] :
             {std::tuple{QStringLiteral("loopback"), QStringLiteral("127.0.0.1:0"), QStringList{}},
              std::tuple{QStringLiteral("insecure"), QStringLiteral("0.0.0.0:0"),
                         QStringList{"--insecure"}},
              std::tuple{QStringLiteral("mtls"), QStringLiteral("127.0.0.1:0"), tls}}) {
            auto w = std::make_unique<WorkerProcess>(m_dir.filePath(QStringLiteral("work-") + mode),
                                                     token, QStringLiteral("gate-") + mode, extra);
            w->setListen(listen);
            QString error;
            QVERIFY2(w->start(&error), qPrintable(error));
            m_workers[mode] = std::move(w);
        }
    }

    void theRightTokenPassesTheGate_data() {
        QTest::addColumn<QString>("mode");
        for (const char* mode : {"loopback", "insecure", "mtls"}) {
            QTest::newRow(mode) << QString::fromLatin1(mode);
        }
    }

    void theRightTokenPassesTheGate() {
        // The same call with the right token gets past authentication (to the handler, which
        // may refuse the empty message for its own reasons): the refusals below are the gate's.
        // First, before the refusals below lock this test's peers out (AuthThrottle).
        QFETCH(QString, mode);
        const grpc::Status status =
            call(channel(mode), "/tessera.v1.WorkerService/GetInfo", "Bearer " + kToken);
        QVERIFY2(status.ok(), status.error_message().c_str());
    }

    void concurrentCallsOnOneConnectionAreEachJudged_data() { theRightTokenPassesTheGate_data(); }

    void concurrentCallsOnOneConnectionAreEachJudged() {
        // gRPC gives all calls of a connection one auth context: the gate must judge each call
        // by its own token and leave that context alone (it once marked it "admitted" per call,
        // racing the handlers that read it). On loopback, where refusals lock nobody out, every
        // other call carries a wrong token and must be refused while its neighbours pass.
        QFETCH(QString, mode);
        const bool mixWrong = mode == QLatin1String("loopback");
        const auto shared = channel(mode);
        std::atomic<int> passed{0};
        std::atomic<int> refused{0};
        std::mutex mutex;
        QString problem;
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 60; ++i) {
                    const bool right = !mixWrong || (i + t) % 2 == 0;
                    const grpc::Status st = call(shared, "/tessera.v1.WorkerService/GetInfo",
                                                 "Bearer " + (right ? kToken : kToken + "-not"));
                    if (st.ok() == right) {
                        ++(right ? passed : refused);
                    } else {
                        const std::lock_guard lock(mutex);
                        problem = QStringLiteral("a call with the %1 token ended %2: %3")
                                      .arg(right ? QLatin1String("right") : QLatin1String("wrong"))
                                      .arg(st.error_code())
                                      .arg(QString::fromStdString(st.error_message()));
                    }
                }
            });
        }
        for (auto& t : threads) {
            t.join();
        }
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(passed.load() + refused.load(), 8 * 60);
        QCOMPARE(refused.load(), mixWrong ? 8 * 30 : 0);
    }

    void theEnumerationSeesEveryRpc() {
        // The enumeration itself must not come up short: every proto file is known, and the
        // RPCs the issue names are among what it finds.
        QStringList missing;
        const QStringList paths =
            methodPaths(QStringLiteral(TESSERA_PROTO_FILES).split(QLatin1Char(',')), &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1String(", "))));
        for (const char* name : {"GetInfo", "WatchTelemetry", "LaunchJob", "WatchJob", "CancelJob",
                                 "Exec", "HasBundle", "PutBundle"}) {
            QVERIFY2(
                paths.contains(QStringLiteral("/tessera.v1.WorkerService/") + QLatin1String(name)),
                name);
        }
    }

    void everyMethodRefusesAMissingOrWrongToken_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("authorization");
        QStringList missing;
        for (const char* mode : {"loopback", "insecure", "mtls"}) {
            for (const QString& path : methodPaths(
                     QStringLiteral(TESSERA_PROTO_FILES).split(QLatin1Char(',')), &missing)) {
                const QByteArray name = path.toUtf8();
                const QString m = QLatin1String(mode);
                QTest::addRow("%s %s no token", mode, name.constData()) << m << path << QString();
                QTest::addRow("%s %s wrong token", mode, name.constData())
                    << m << path << QStringLiteral("Bearer not-the-token");
                QTest::addRow("%s %s token without Bearer", mode, name.constData())
                    << m << path << QString::fromStdString(kToken);
                QTest::addRow("%s %s token with a suffix", mode, name.constData())
                    << m << path << QString::fromStdString("Bearer " + kToken + "x");
            }
        }
    }

    void everyMethodRefusesAMissingOrWrongToken() {
        QFETCH(QString, mode);
        QFETCH(QString, path);
        QFETCH(QString, authorization);
        const grpc::Status status =
            call(channel(mode), path.toStdString(), authorization.toStdString());
        QVERIFY2(status.error_code() == grpc::StatusCode::UNAUTHENTICATED,
                 qPrintable(QStringLiteral("%1 answered %2: %3")
                                .arg(path)
                                .arg(int(status.error_code()))
                                .arg(QString::fromStdString(status.error_message()))));
    }

    void aGuessingPeerIsLockedOut_data() {
        QTest::addColumn<QString>("mode");
        for (const char* mode : {"loopback", "insecure", "mtls"}) {
            QTest::newRow(mode) << QString::fromLatin1(mode);
        }
    }

    void aGuessingPeerIsLockedOut() {
        // After the dozens of failures above, this test's certificate ('client') is refused,
        // right token and all, with a message saying why and for how long. Loopback callers
        // (here also --insecure's, from 127.0.0.1) are not throttled: nothing tells them apart,
        // and the app's own calls to its local workers must not be locked out by another's.
        QFETCH(QString, mode);
        if (mode != QLatin1String("mtls")) {
            const grpc::Status local =
                call(channel(mode), "/tessera.v1.WorkerService/GetInfo", "Bearer " + kToken);
            QVERIFY2(local.ok(), local.error_message().c_str());
            return;
        }
        const grpc::Status status =
            call(channel(mode), "/tessera.v1.WorkerService/GetInfo", "Bearer " + kToken);
        QCOMPARE(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY2(status.error_message().find("too many failed authentications from") == 0 &&
                     status.error_message().find("without checking the token") != std::string::npos,
                 status.error_message().c_str());
        QVERIFY(m_workers.at(mode)->log().contains("locked out for"));
        if (mode == QLatin1String("mtls")) {
            // Another certificate is another peer: not locked out.
            const grpc::Status other =
                call(channel(mode, &m_otherClient), "/tessera.v1.WorkerService/GetInfo",
                     "Bearer " + kToken);
            QVERIFY2(other.ok(), other.error_message().c_str());
        }
    }

    // 100,000 wrong-token calls from 16 connections on loopback (not throttled, so each one is
    // checked and refused): the worker's log grows by a few lines and a count per window, not a
    // line per call (issue 45: 147,514 lines in 10 s before).
    void aStormOfRefusalsWritesFewLogLines() {
        WorkerProcess& w = *m_workers.at(QStringLiteral("insecure"));
        const qsizetype before = w.log().count('\n');
        constexpr int kThreads = 16, kCalls = 100000;
        std::atomic<int> refused{0};
        QElapsedTimer t;
        t.start();
        std::vector<std::thread> threads;
        for (int i = 0; i < kThreads; ++i) {
            threads.emplace_back([&] {
                auto stub = tessera::v1::WorkerService::NewStub(grpc::CreateChannel(
                    w.address().toStdString(), grpc::InsecureChannelCredentials()));
                for (int c = 0; c < kCalls / kThreads; ++c) {
                    grpc::ClientContext ctx;
                    ctx.AddMetadata("authorization", "Bearer not-the-token");
                    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
                    tessera::v1::GetInfoRequest req;
                    tessera::v1::WorkerInfo reply;
                    if (stub->GetInfo(&ctx, req, &reply).error_code() ==
                        grpc::StatusCode::UNAUTHENTICATED) {
                        ++refused;
                    }
                }
            });
        }
        for (auto& th : threads) {
            th.join();
        }
        QCOMPARE(refused.load(), kCalls);
        const qsizetype added = w.log().count('\n') - before;
        qInfo("%d refused calls in %lld ms wrote %lld log lines", kCalls, qint64(t.elapsed()),
              qint64(added));
        QVERIFY2(added < 100, w.log().right(4000).constData());
        // The count is not lost: once the window closes, one line sums the refusals up.
        QTRY_VERIFY_WITH_TIMEOUT(w.log().contains("wrong bearer token × "), 15000);
    }

private:
    /// The cluster CA, the worker's certificate (for 127.0.0.1) and the client's, as files.
    bool makeCertificates() {
        auto ca = tls::createCa("auth gate CA", tls::Validity::days(1));
        auto worker =
            ca ? tls::issue(*ca, {"gate", {"localhost"}, {"127.0.0.1"}}, tls::Validity::days(1))
               : ca;
        auto client = ca ? tls::issue(*ca, {"client", {}, {}}, tls::Validity::days(1)) : ca;
        auto other = ca ? tls::issue(*ca, {"other client", {}, {}}, tls::Validity::days(1)) : ca;
        if (!ca || !worker || !client || !other) {
            return false;
        }
        m_client = {ca->certPem, client->certPem, client->keyPem};
        m_otherClient = {ca->certPem, other->certPem, other->keyPem};
        for (const auto& [name, text] :
             {std::pair{"ca.crt", ca->certPem}, std::pair{"worker.crt", worker->certPem},
              std::pair{"worker.key", worker->keyPem}}) {
            QFile f(m_dir.filePath(QLatin1String(name)));
            if (!f.open(QIODevice::WriteOnly) || f.write(text.c_str()) <= 0 ||
                !f.setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
                return false;
            }
        }
        return true;
    }

    /// A fresh channel to the worker of `mode`, with the credentials that transport needs (under
    /// mutual TLS `identity`'s certificate, m_client's by default).
    std::shared_ptr<grpc::Channel> channel(const QString& mode,
                                           const tls::Identity* identity = nullptr) const {
        const WorkerProcess& w = *m_workers.at(mode);
        if (mode != QLatin1String("mtls")) {
            return grpc::CreateChannel(w.address().toStdString(),
                                       grpc::InsecureChannelCredentials());
        }
        const tls::Identity& id = identity ? *identity : m_client;
        grpc::SslCredentialsOptions o;
        o.pem_root_certs = id.caPem;
        o.pem_cert_chain = id.certPem;
        o.pem_private_key = id.keyPem;
        return grpc::CreateChannel(w.address().toStdString(), grpc::SslCredentials(o));
    }

    QTemporaryDir m_dir;
    std::map<QString, std::unique_ptr<WorkerProcess>> m_workers;
    tls::Identity m_client;
    tls::Identity m_otherClient;
};

QTEST_GUILESS_MAIN(TestAuthGate)
#include "tst_auth_gate.moc"
