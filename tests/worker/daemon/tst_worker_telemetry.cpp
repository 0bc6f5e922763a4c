// Integration test of WatchTelemetry on a real tessera-worker: samples in seq order with values
// that agree with GetInfo, the bearer token, resume by from_seq, GPU data or the logged reason
// for its absence, and the stream's clean end when the daemon stops.
#include "tests/worker/daemon/worker_process.h"
#include "worker/daemon/telemetry/nvml_library.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/message_differencer.h>

using namespace tessera;
using google::protobuf::util::MessageDifferencer;

namespace {
const std::string kToken = "telemetry-test-token-9c4e1b7a3f5d2086";

/// The first `count` samples of WatchTelemetry(intervalMs, fromSeq), or the call's error.
struct Watched {
    std::vector<v1::TelemetrySample> samples;
    grpc::Status status;
};
Watched watch(v1::WorkerService::Stub& stub, const std::string& token, uint32_t intervalMs,
              uint64_t fromSeq, size_t count) {
    grpc::ClientContext ctx;
    authorize(ctx, token, 60);
    v1::WatchTelemetryRequest req;
    req.set_interval_ms(intervalMs);
    req.set_from_seq(fromSeq);
    auto reader = stub.WatchTelemetry(&ctx, req);
    Watched w;
    v1::TelemetrySample s;
    while (w.samples.size() < count && reader->Read(&s)) {
        w.samples.push_back(s);
    }
    if (w.samples.size() == count) {
        ctx.TryCancel(); // a telemetry stream never ends by itself
    }
    w.status = reader->Finish();
    return w;
}
} // namespace

class TestWorkerTelemetry : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_worker;
    v1::WorkerInfo m_info;

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        QVERIFY(m_dir.isValid());
        const QString tokenFile = m_dir.filePath("token");
        QVERIFY(writeTokenFile(tokenFile, kToken));
        m_worker = std::make_unique<WorkerProcess>(m_dir.filePath("work"), tokenFile, "telemetry");
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        const auto st = stub->GetInfo(&ctx, {}, &m_info);
        QVERIFY2(st.ok(), st.error_message().c_str());
    }

    void samplesInOrderWithPlausibleValues() {
        auto stub = m_worker->stub();
        const Watched w = watch(*stub, kToken, 200, 0, 3);
        QVERIFY2(w.samples.size() == 3, w.status.error_message().c_str());
        QCOMPARE(w.status.error_code(), grpc::StatusCode::CANCELLED); // our TryCancel
        for (size_t i = 0; i < w.samples.size(); ++i) {
            const auto& s = w.samples[i];
            if (i > 0) {
                QVERIFY(s.seq() > w.samples[i - 1].seq());
                QVERIFY(s.time_unix_ms() >= w.samples[i - 1].time_unix_ms());
            }
            QVERIFY(!s.gap());
            QVERIFY(s.seq() >= 1);
            QVERIFY(s.time_unix_ms() > 1600000000000); // a unix time in ms, after 2020
            QVERIFY(s.period_ms() > 0);
            QCOMPARE(s.memory_total_bytes(), m_info.memory_bytes());
            QVERIFY(s.memory_used_bytes() > 0);
            QVERIFY(s.memory_used_bytes() <= s.memory_total_bytes());
            QVERIFY2(s.cpu_percent() >= 0 && s.cpu_percent() <= 100,
                     qPrintable(QString::number(s.cpu_percent())));
            QCOMPARE(s.core_percent_size(), m_info.cores());
            for (double c : s.core_percent()) {
                QVERIFY(c >= 0 && c <= 100);
            }
            QVERIFY(s.load_1m() >= 0 && s.load_5m() >= 0 && s.load_15m() >= 0);
            uint64_t rx = 0, tx = 0;
            double rxRate = 0;
            for (const auto& iface : s.interfaces()) {
                QVERIFY(iface.name() != "lo");
                QVERIFY(iface.rx_bytes_per_s() >= 0 && iface.tx_bytes_per_s() >= 0);
                rx += iface.rx_bytes();
                tx += iface.tx_bytes();
                rxRate += iface.rx_bytes_per_s();
            }
            QCOMPARE(s.net_rx_bytes(), rx);
            QCOMPARE(s.net_tx_bytes(), tx);
            QCOMPARE(s.net_rx_bytes_per_s() + 1, rxRate + 1); // +1: fuzzy compare of possible 0
        }
    }

    void gpusOrTheReasonForNone() {
        auto stub = m_worker->stub();
        const Watched w = watch(*stub, kToken, 200, 0, 1);
        QCOMPARE(w.samples.size(), size_t(1));
        const auto& s = w.samples.front();
        auto nvml = daemon::NvmlLibrary::load();
        if (!nvml) {
            // This machine has no NVIDIA driver: no GPUs, and the sample and log say why.
            QCOMPARE(s.gpus_size(), 0);
            QCOMPARE(s.gpu_note(), nvml.error().message);
            QVERIFY(QString::fromStdString(s.gpu_note()).contains("libnvidia-ml.so.1"));
            const QByteArray log = m_worker->log();
            QVERIFY2(log.contains("no GPU data: " + QByteArray::fromStdString(s.gpu_note())), log);
            QCOMPARE(log.count("no GPU data"), 1); // said once, not per sample
        } else {
            const auto count = (*nvml)->deviceCount();
            QVERIFY(count);
            QCOMPARE(s.gpus_size(), int(*count));
            for (const auto& g : s.gpus()) {
                QVERIFY(!g.name().empty());
                QVERIFY(g.has_memory_total_bytes() && g.memory_total_bytes() > 0);
            }
        }
    }

    void refusesBadToken_data() {
        QTest::addColumn<QString>("header"); // empty = no authorization metadata
        QTest::newRow("no token") << "";
        QTest::newRow("wrong token") << "Bearer not-the-token";
        QTest::newRow("token without Bearer") << QString::fromStdString(kToken);
    }
    void refusesBadToken() {
        QFETCH(QString, header);
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        if (!header.isEmpty()) {
            ctx.AddMetadata("authorization", header.toStdString());
        }
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
        auto reader = stub->WatchTelemetry(&ctx, {});
        v1::TelemetrySample s;
        QVERIFY(!reader->Read(&s));
        QCOMPARE(reader->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY(m_worker->log().contains("refused WatchTelemetry"));
    }

    void resumesFromSeq() {
        auto stub = m_worker->stub();
        const Watched first = watch(*stub, kToken, 200, 0, 3);
        QCOMPARE(first.samples.size(), size_t(3));
        // A client that saw first[0] asks for the one after it: it gets every later one.
        const uint64_t from = first.samples[0].seq() + 1;
        QCOMPARE(first.samples[1].seq(), from); // the only (so the fastest) watcher gets them all
        const Watched resumed = watch(*stub, kToken, 200, from, 3);
        QCOMPARE(resumed.samples.size(), size_t(3));
        QCOMPARE(resumed.samples[0].seq(), from);
        QCOMPARE(resumed.samples[1].seq(), from + 1);
        QCOMPARE(resumed.samples[2].seq(), from + 2);
        // The replayed samples are the ones seen before, not new readings.
        for (int i = 0; i < 2; ++i) {
            QVERIFY(!resumed.samples[i].gap());
            QVERIFY2(MessageDifferencer::Equals(resumed.samples[i], first.samples[i + 1]),
                     resumed.samples[i].ShortDebugString().c_str());
        }
        // Everything since the daemon started is still kept: seq 1, no gap.
        const Watched all = watch(*stub, kToken, 200, 1, 1);
        QCOMPARE(all.samples.size(), size_t(1));
        QCOMPARE(all.samples[0].seq(), uint64_t(1));
        QVERIFY(!all.samples[0].gap());
    }

    void stopEndsTheStreamOk() {
        auto stub = m_worker->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken, 60);
        v1::WatchTelemetryRequest req;
        req.set_interval_ms(100);
        auto reader = stub->WatchTelemetry(&ctx, req);
        v1::TelemetrySample s;
        QVERIFY(reader->Read(&s));
        m_worker->stop(); // SIGTERM: the daemon ends its streams, then exits
        while (reader->Read(&s)) {
        }
        const auto st = reader->Finish();
        QVERIFY2(st.ok(), st.error_message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestWorkerTelemetry)
#include "tst_worker_telemetry.moc"
