// NVML through dlopen/dlsym: the few types and functions of nvml.h that telemetry needs, declared
// here (the CUDA toolkit on build machines need not ship nvml.h), with the driver's C ABI.
#include "worker/daemon/telemetry/nvml_library.h"

#include <dlfcn.h>

namespace tessera::daemon {

namespace {

// From nvml.h (NVML API v2, unchanged since driver 325): return codes, opaque device handle and
// the structs and enums of the calls below. Enums are passed as int, as C does.
using nvmlReturn_t = int;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlUtilization_t {
    unsigned int gpu;    // %
    unsigned int memory; // %
};
struct nvmlMemory_t {
    unsigned long long total; // bytes
    unsigned long long free;  // bytes
    unsigned long long used;  // bytes
};
constexpr int NVML_TEMPERATURE_GPU = 0;
constexpr int NVML_CLOCK_SM = 1;
constexpr int NVML_CLOCK_MEM = 2;
constexpr unsigned int kNameBufferSize = 96; // NVML_DEVICE_NAME_V2_BUFFER_SIZE

} // namespace

struct NvmlLibrary::Api {
    nvmlReturn_t (*init)();
    nvmlReturn_t (*shutdown)();
    const char* (*errorString)(nvmlReturn_t);
    nvmlReturn_t (*getCount)(unsigned int*);
    nvmlReturn_t (*getHandleByIndex)(unsigned int, nvmlDevice_t*);
    nvmlReturn_t (*getName)(nvmlDevice_t, char*, unsigned int);
    nvmlReturn_t (*getUtilization)(nvmlDevice_t, nvmlUtilization_t*);
    nvmlReturn_t (*getMemory)(nvmlDevice_t, nvmlMemory_t*);
    nvmlReturn_t (*getPower)(nvmlDevice_t, unsigned int*);            // mW
    nvmlReturn_t (*getTemperature)(nvmlDevice_t, int, unsigned int*); // °C
    nvmlReturn_t (*getClock)(nvmlDevice_t, int, unsigned int*);       // MHz

    std::string message(nvmlReturn_t r) const {
        const char* s = errorString ? errorString(r) : nullptr;
        return s ? std::string(s) : "NVML error " + std::to_string(r);
    }
};

namespace {

template <typename F> bool resolve(void* handle, const char* name, F& fn, std::string& missing) {
    fn = reinterpret_cast<F>(::dlsym(handle, name));
    if (!fn) {
        missing += missing.empty() ? name : std::string(", ") + name;
    }
    return fn != nullptr;
}

} // namespace

Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::load(const std::string& soname) {
    void* handle = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return fail(ErrorCode::Unavailable,
                    "cannot load " + soname + " (" + (why ? why : "not found") +
                        "): no NVIDIA driver on this node; install one for GPU telemetry");
    }
    auto api = std::make_unique<Api>();
    std::string missing;
    resolve(handle, "nvmlInit_v2", api->init, missing);
    resolve(handle, "nvmlShutdown", api->shutdown, missing);
    resolve(handle, "nvmlErrorString", api->errorString, missing);
    resolve(handle, "nvmlDeviceGetCount_v2", api->getCount, missing);
    resolve(handle, "nvmlDeviceGetHandleByIndex_v2", api->getHandleByIndex, missing);
    resolve(handle, "nvmlDeviceGetName", api->getName, missing);
    resolve(handle, "nvmlDeviceGetUtilizationRates", api->getUtilization, missing);
    resolve(handle, "nvmlDeviceGetMemoryInfo", api->getMemory, missing);
    resolve(handle, "nvmlDeviceGetPowerUsage", api->getPower, missing);
    resolve(handle, "nvmlDeviceGetTemperature", api->getTemperature, missing);
    resolve(handle, "nvmlDeviceGetClockInfo", api->getClock, missing);
    if (!missing.empty()) {
        ::dlclose(handle);
        return fail(ErrorCode::Unavailable, soname + " lacks " + missing +
                                                ": the NVIDIA driver is too old for GPU telemetry; "
                                                "update it");
    }
    if (const nvmlReturn_t r = api->init(); r != NVML_SUCCESS) {
        const std::string why = api->message(r);
        ::dlclose(handle);
        return fail(ErrorCode::Unavailable,
                    "nvmlInit_v2 failed: " + why +
                        " (is the NVIDIA kernel module loaded and /dev/nvidia* readable?)");
    }
    return std::unique_ptr<NvmlLibrary>(new NvmlLibrary(handle, std::move(api)));
}

NvmlLibrary::NvmlLibrary(void* handle, std::unique_ptr<Api> api)
    : m_handle(handle), m_api(std::move(api)) {}

NvmlLibrary::~NvmlLibrary() {
    m_api->shutdown();
    ::dlclose(m_handle);
}

Result<unsigned> NvmlLibrary::deviceCount() const {
    unsigned int n = 0;
    if (const nvmlReturn_t r = m_api->getCount(&n); r != NVML_SUCCESS) {
        return fail(ErrorCode::Unavailable, "nvmlDeviceGetCount_v2 failed: " + m_api->message(r));
    }
    return n;
}

std::vector<v1::GpuSample> NvmlLibrary::sample(std::string* note) const {
    note->clear();
    std::vector<v1::GpuSample> out;
    const auto count = deviceCount();
    if (!count) {
        *note = count.error().message;
        return out;
    }
    const Api& api = *m_api;
    for (unsigned int i = 0; i < *count; ++i) {
        // Records a failed reading in the note; NOT_SUPPORTED only leaves the field unset.
        auto ok = [&](nvmlReturn_t r, const char* what) {
            if (r != NVML_SUCCESS && r != NVML_ERROR_NOT_SUPPORTED) {
                *note += (note->empty() ? "" : "; ") + ("GPU " + std::to_string(i)) + ": " + what +
                         ": " + api.message(r);
            }
            return r == NVML_SUCCESS;
        };
        nvmlDevice_t dev = nullptr;
        if (!ok(api.getHandleByIndex(i, &dev), "handle")) {
            continue;
        }
        v1::GpuSample g;
        g.set_index(i);
        char name[kNameBufferSize] = {};
        if (ok(api.getName(dev, name, kNameBufferSize), "name")) {
            g.set_name(name);
        }
        nvmlUtilization_t util{};
        if (ok(api.getUtilization(dev, &util), "utilization")) {
            g.set_utilization_percent(util.gpu);
            g.set_memory_busy_percent(util.memory);
        }
        nvmlMemory_t mem{};
        if (ok(api.getMemory(dev, &mem), "memory")) {
            g.set_memory_used_bytes(mem.used);
            g.set_memory_total_bytes(mem.total);
        }
        unsigned int value = 0;
        if (ok(api.getPower(dev, &value), "power")) {
            g.set_power_watts(value / 1000.0);
        }
        if (ok(api.getTemperature(dev, NVML_TEMPERATURE_GPU, &value), "temperature")) {
            g.set_temperature_celsius(value);
        }
        if (ok(api.getClock(dev, NVML_CLOCK_SM, &value), "SM clock")) {
            g.set_sm_clock_mhz(value);
        }
        if (ok(api.getClock(dev, NVML_CLOCK_MEM, &value), "memory clock")) {
            g.set_memory_clock_mhz(value);
        }
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace tessera::daemon
