// Unit test of the node sampler where NVML cannot be used: the loader's messages say why (no
// library, a library without NVML's functions), and samples then carry CPU data and that reason.
#include "worker/daemon/telemetry/host_sampler.h"
#include "worker/daemon/telemetry/nvml_library.h"

#include <QTest>

#include <unistd.h>

using namespace tessera;
using tessera::daemon::HostSampler;
using tessera::daemon::NvmlLibrary;

class TestHostSampler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void missingLibrarySaysNoDriver() {
        const auto r = NvmlLibrary::load("libnvidia-ml-missing-for-test.so.1");
        QVERIFY(!r);
        QVERIFY(r.error().code == ErrorCode::Unavailable);
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains("libnvidia-ml-missing-for-test.so.1"), qPrintable(msg));
        QVERIFY2(msg.contains("no NVIDIA driver"), qPrintable(msg));
    }

    void libraryWithoutNvmlNamesTheMissingFunctions() {
        // libc is always there and has none of NVML's symbols.
        const auto r = NvmlLibrary::load("libc.so.6");
        QVERIFY(!r);
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains("nvmlInit_v2") && msg.contains("nvmlDeviceGetClockInfo"),
                 qPrintable(msg));
        QVERIFY2(msg.contains("too old"), qPrintable(msg));
    }

    void samplesWithoutNvmlCarryCpuDataAndTheReason() {
        HostSampler sampler("libnvidia-ml-missing-for-test.so.1");
        QVERIFY(QString::fromStdString(sampler.gpuNote()).contains("no NVIDIA driver"));
        const v1::TelemetrySample s = sampler.sample();
        QCOMPARE(s.gpus_size(), 0);
        QCOMPARE(s.gpu_note(), sampler.gpuNote());
        QCOMPARE(s.core_percent_size(), int(::sysconf(_SC_NPROCESSORS_ONLN)));
        QVERIFY(s.memory_total_bytes() > 0);
        QVERIFY(s.memory_used_bytes() > 0 && s.memory_used_bytes() <= s.memory_total_bytes());
        QVERIFY(s.cpu_percent() >= 0 && s.cpu_percent() <= 100);
        for (const auto& iface : s.interfaces()) {
            QVERIFY(iface.name() != "lo");
        }
    }
};

QTEST_GUILESS_MAIN(TestHostSampler)
#include "tst_host_sampler.moc"
