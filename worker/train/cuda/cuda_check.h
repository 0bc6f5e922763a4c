// Check macros for CUDA runtime, cuBLAS and NCCL calls (ARCHITECTURE.md §8): a failed call becomes
// a tessera::Error (Internal) naming the call, the library's error string and file:line.
#pragma once

#include "worker/common/error.h"

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>
#include <utility>

namespace tessera::train {

/// Result of one CUDA runtime call: Internal "<call> failed at <file>:<line>: <error string>".
inline Result<void> cudaStatus(cudaError_t e, const char* call, const char* file, int line) {
    if (e == cudaSuccess) {
        return {};
    }
    return fail(ErrorCode::Internal, std::string(call) + " failed at " + file + ":" +
                                         std::to_string(line) + ": " + cudaGetErrorString(e) +
                                         " (" + cudaGetErrorName(e) + ")");
}

/// Result of one cuBLAS call, as cudaStatus().
inline Result<void> cublasStatus(cublasStatus_t s, const char* call, const char* file, int line) {
    if (s == CUBLAS_STATUS_SUCCESS) {
        return {};
    }
    return fail(ErrorCode::Internal, std::string(call) + " failed at " + file + ":" +
                                         std::to_string(line) + ": " + cublasGetStatusString(s));
}

/// Result of one NCCL call, as cudaStatus(); ncclInProgress (non-blocking communicators) is
/// not an error. ncclGetLastError() adds NCCL's detail for the failing call when it has one.
inline Result<void> ncclStatus(ncclResult_t r, const char* call, const char* file, int line) {
    if (r == ncclSuccess || r == ncclInProgress) {
        return {};
    }
    std::string message = std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                          ": " + ncclGetErrorString(r);
    if (const char* detail = ncclGetLastError(nullptr); detail && *detail) {
        message += std::string(" (") + detail + ")";
    }
    return fail(ErrorCode::Internal, std::move(message));
}

} // namespace tessera::train

/// Result<void> of a call, with the call's text and file:line in the error.
#define TESSERA_CUDA_STATUS(call) ::tessera::train::cudaStatus((call), #call, __FILE__, __LINE__)
#define TESSERA_CUBLAS_STATUS(call)                                                                \
    ::tessera::train::cublasStatus((call), #call, __FILE__, __LINE__)
#define TESSERA_NCCL_STATUS(call) ::tessera::train::ncclStatus((call), #call, __FILE__, __LINE__)

/// Inside a function returning Result<T>: returns the error of a failed call.
#define TESSERA_RETURN_IF_ERROR_(status)                                                           \
    do {                                                                                           \
        if (auto tesseraStatus_ = (status); !tesseraStatus_) {                                     \
            return relay(tesseraStatus_);                                                          \
        }                                                                                          \
    } while (0)
#define TESSERA_CUDA_CHECK(call) TESSERA_RETURN_IF_ERROR_(TESSERA_CUDA_STATUS(call))
#define TESSERA_CUBLAS_CHECK(call) TESSERA_RETURN_IF_ERROR_(TESSERA_CUBLAS_STATUS(call))
#define TESSERA_NCCL_CHECK(call) TESSERA_RETURN_IF_ERROR_(TESSERA_NCCL_STATUS(call))
