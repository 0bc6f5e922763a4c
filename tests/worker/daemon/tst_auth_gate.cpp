// Every method of every service in Tessera's .proto files refuses a call without the worker's
// token, and one with a wrong token, with UNAUTHENTICATED (issue 20, point 1). The methods come
// from protobuf's descriptor pool, not from a list in this file: a new RPC is checked the day it
// is added, whichever handler its author writes. Each is called through gRPC's generic stub with
// one empty message (a streaming method gets that message and the end of the stream), against a
// real tessera-worker.
#include "worker_process.h"

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

#include <condition_variable>
#include <mutex>
#include <optional>

using namespace tessera;

namespace {

const std::string kToken = "auth-gate-token";

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
            for (int m = 0; m < service->method_count(); ++m)
                paths << QStringLiteral("/%1/%2").arg(
                    QString::fromStdString(service->full_name()),
                    QString::fromStdString(service->method(m)->name()));
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
    if (!authorization.empty())
        ctx.AddMetadata("authorization", authorization);
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
        if (!QFile::exists(WorkerProcess::binary()))
            QSKIP("tessera-worker is not built");
        const QString token = m_dir.filePath(QStringLiteral("token"));
        QVERIFY(writeTokenFile(token, kToken));
        m_worker = std::make_unique<WorkerProcess>(m_dir.filePath(QStringLiteral("work")), token,
                                                   QStringLiteral("gate"));
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
    }

    void theEnumerationSeesEveryRpc() {
        // The enumeration itself must not come up short: every proto file is known, and the
        // RPCs the issue names are among what it finds.
        QStringList missing;
        const QStringList paths =
            methodPaths(QStringLiteral(TESSERA_PROTO_FILES).split(QLatin1Char(',')), &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1String(", "))));
        for (const char* name : {"GetInfo", "WatchTelemetry", "LaunchJob", "WatchJob", "CancelJob",
                                 "Exec", "HasBundle", "PutBundle"})
            QVERIFY2(
                paths.contains(QStringLiteral("/tessera.v1.WorkerService/") + QLatin1String(name)),
                name);
    }

    void everyMethodRefusesAMissingOrWrongToken_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("authorization");
        QStringList missing;
        for (const QString& path :
             methodPaths(QStringLiteral(TESSERA_PROTO_FILES).split(QLatin1Char(',')), &missing)) {
            const QByteArray name = path.toUtf8();
            QTest::addRow("%s no token", name.constData()) << path << QString();
            QTest::addRow("%s wrong token", name.constData())
                << path << QStringLiteral("Bearer not-the-token");
            QTest::addRow("%s token without Bearer", name.constData())
                << path << QString::fromStdString(kToken);
            QTest::addRow("%s token with a suffix", name.constData())
                << path << QString::fromStdString("Bearer " + kToken + "x");
        }
    }

    void everyMethodRefusesAMissingOrWrongToken() {
        QFETCH(QString, path);
        QFETCH(QString, authorization);
        auto channel = grpc::CreateChannel(m_worker->address().toStdString(),
                                           grpc::InsecureChannelCredentials());
        const grpc::Status status = call(channel, path.toStdString(), authorization.toStdString());
        QVERIFY2(status.error_code() == grpc::StatusCode::UNAUTHENTICATED,
                 qPrintable(QStringLiteral("%1 answered %2: %3")
                                .arg(path)
                                .arg(int(status.error_code()))
                                .arg(QString::fromStdString(status.error_message()))));
    }

    void theRightTokenPassesTheGate() {
        // The same call with the right token gets past authentication (to the handler, which
        // may refuse the empty message for its own reasons): the refusals above are the gate's.
        auto channel = grpc::CreateChannel(m_worker->address().toStdString(),
                                           grpc::InsecureChannelCredentials());
        const grpc::Status status =
            call(channel, "/tessera.v1.WorkerService/GetInfo", "Bearer " + kToken);
        QVERIFY2(status.ok(), status.error_message().c_str());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_worker;
};

QTEST_GUILESS_MAIN(TestAuthGate)
#include "tst_auth_gate.moc"
