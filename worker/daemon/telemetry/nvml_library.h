// NVIDIA's management library (NVML) loaded at run time with dlopen, so that tessera-worker starts
// and runs on nodes without the NVIDIA driver: it links no GPU library for its telemetry.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::daemon {

/// An initialised NVML (libnvidia-ml.so.1, part of the NVIDIA driver, not of the CUDA toolkit).
/// Samples every GPU it sees. Use from one thread at a time.
class NvmlLibrary {
public:
    /// dlopens `soname`, resolves the NVML functions used here and calls nvmlInit_v2.
    /// Errors: Unavailable saying why GPU data will be missing: the library is not there (no
    /// NVIDIA driver installed), a function is missing (a driver older than NVML v2), or
    /// nvmlInit_v2 failed (driver not loaded, no permission on /dev/nvidia*).
    static Result<std::unique_ptr<NvmlLibrary>>
    load(const std::string& soname = "libnvidia-ml.so.1");

    /// nvmlShutdown, then dlclose.
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    /// Number of GPUs NVML sees (nvmlDeviceGetCount_v2). Errors: Unavailable with NVML's message.
    Result<unsigned> deviceCount() const;

    /// One GpuSample per GPU, by NVML index. A reading the GPU does not support is left unset;
    /// other failed readings are left unset too and described in `*note` ("GPU 1: power: …"),
    /// which is left empty when every reading worked.
    std::vector<v1::GpuSample> sample(std::string* note) const;

    struct Api; ///< the resolved function pointers (defined in the .cpp)

private:
    NvmlLibrary(void* handle, std::unique_ptr<Api> api);

    void* m_handle = nullptr;
    std::unique_ptr<Api> m_api;
};

} // namespace tessera::daemon
