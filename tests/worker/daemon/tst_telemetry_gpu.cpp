// GPU test of telemetry (label gpu): NVML, loaded at run time, reads every GPU with values in
// their physical ranges, and HostSampler's samples carry them. Skips with the reason when this
// machine has no NVIDIA driver.
#include "worker/daemon/telemetry/host_sampler.h"
#include "worker/daemon/telemetry/nvml_library.h"

#include <QTest>

using namespace tessera;
using tessera::daemon::NvmlLibrary;

class TestTelemetryGpu : public QObject {
    Q_OBJECT

    std::unique_ptr<NvmlLibrary> m_nvml;
    QString m_why;

private Q_SLOTS:
    void initTestCase() {
        auto nvml = NvmlLibrary::load();
        if (nvml) {
            m_nvml = std::move(*nvml);
        } else {
            m_why =
                "no GPU telemetry on this machine: " + QString::fromStdString(nvml.error().message);
        }
    }

    void nvmlReadsEveryGpu() {
        if (!m_nvml) {
            QSKIP(qPrintable(m_why));
        }
        const auto count = m_nvml->deviceCount();
        QVERIFY2(count, count ? "" : count.error().message.c_str());
        if (*count == 0) {
            QSKIP("the NVIDIA driver is loaded but NVML sees no GPU");
        }
        std::string note;
        const auto gpus = m_nvml->sample(&note);
        QVERIFY2(note.empty(), note.c_str());
        QCOMPARE(gpus.size(), size_t(*count));
        for (size_t i = 0; i < gpus.size(); ++i) {
            const v1::GpuSample& g = gpus[i];
            qInfo("GPU %zu: %s", i, g.ShortDebugString().c_str());
            QCOMPARE(g.index(), uint32_t(i));
            QVERIFY(!g.name().empty());
            // Every datacenter GPU since Kepler reports these (NVML's support tables).
            QVERIFY(g.has_memory_total_bytes() && g.has_memory_used_bytes());
            QVERIFY(g.memory_total_bytes() >= (1ull << 30)); // no CUDA GPU of today has < 1 GiB
            QVERIFY(g.memory_used_bytes() <= g.memory_total_bytes());
            // Not supported on a GPU split into MIG instances (NVML's documentation): then unset.
            if (g.has_utilization_percent()) {
                QVERIFY(g.utilization_percent() >= 0 && g.utilization_percent() <= 100);
                QVERIFY(g.memory_busy_percent() >= 0 && g.memory_busy_percent() <= 100);
            }
            QVERIFY(g.has_temperature_celsius());
            QVERIFY(g.temperature_celsius() > 0 && g.temperature_celsius() < 125);
            if (g.has_power_watts()) { // not on every board (some PCIe cards lack the sensor)
                QVERIFY(g.power_watts() > 0 && g.power_watts() < 2000);
            }
            QVERIFY(g.has_sm_clock_mhz() && g.sm_clock_mhz() > 0 && g.sm_clock_mhz() < 5000);
            QVERIFY(g.has_memory_clock_mhz() && g.memory_clock_mhz() > 0);
        }
    }

    void samplesCarryTheGpus() {
        if (!m_nvml) {
            QSKIP(qPrintable(m_why));
        }
        daemon::HostSampler sampler;
        QVERIFY(sampler.gpuNote().empty());
        const v1::TelemetrySample s = sampler.sample();
        QCOMPARE(s.gpus_size(), int(*m_nvml->deviceCount()));
        QVERIFY2(s.gpu_note().empty(), s.gpu_note().c_str());
    }
};

QTEST_GUILESS_MAIN(TestTelemetryGpu)
#include "tst_telemetry_gpu.moc"
