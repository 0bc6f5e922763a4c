// NcclCommunicator: NCCL collectives and point-to-point on device buffers, ordered against the
// compute stream with events, with non-blocking NCCL calls polled under a timeout.
#include "worker/train/cuda/nccl_communicator.h"

#include "worker/train/cuda/cuda_check.h"

#include <cstring>
#include <thread>

namespace tessera::train {
namespace {

using Clock = std::chrono::steady_clock;

/// Yields for the first millisecond of a wait, then sleeps briefly between polls.
void pause(Clock::time_point start) {
    if (Clock::now() - start < std::chrono::milliseconds(1)) {
        std::this_thread::yield();
    } else {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

std::string seconds(std::chrono::milliseconds t) {
    return std::to_string(double(t.count()) / 1000.0) + " s";
}

} // namespace

/// Inside a member returning Result<T>: runs an NCCL call, waits out ncclInProgress
/// (non-blocking communicator) within the timeout, returns the error (after aborting) if any.
#define TESSERA_NCCL_SETTLE(call)                                                                  \
    TESSERA_RETURN_IF_ERROR_(settle((call), #call, __FILE__, __LINE__))

Result<std::unique_ptr<NcclCommunicator>>
NcclCommunicator::create(Communicator& host, CudaOps& ops, std::chrono::milliseconds timeout) {
    // Rank 0 makes the id; an empty string tells the others that it failed, so every rank
    // returns an error instead of waiting in ncclCommInitRankConfig.
    ncclUniqueId id{};
    std::string bytes;
    std::optional<Error> idError;
    if (host.rank() == 0) {
        if (auto r = TESSERA_NCCL_STATUS(ncclGetUniqueId(&id)); r) {
            bytes.assign(reinterpret_cast<const char*>(&id), sizeof(id));
        } else {
            idError = r.error();
        }
    }
    if (auto r = host.broadcast(bytes, 0); !r) {
        return relay(r);
    }
    if (idError) {
        return fail(*idError);
    }
    if (bytes.size() != sizeof(id)) {
        return fail(ErrorCode::Internal,
                    "rank 0 could not create an NCCL unique id (see rank 0's log)");
    }
    std::memcpy(&id, bytes.data(), sizeof(id));
    std::unique_ptr<NcclCommunicator> comm(new NcclCommunicator(&host, ops, timeout));
    TESSERA_RETURN_IF_ERROR_(comm->init(id));
    return comm;
}

Result<std::unique_ptr<NcclCommunicator>>
NcclCommunicator::create(std::unique_ptr<Communicator> host, CudaOps& ops,
                         std::chrono::milliseconds timeout) {
    auto comm = create(*host, ops, timeout);
    if (comm) {
        (*comm)->m_ownedHost = std::move(host);
    }
    return comm;
}

Result<void> NcclCommunicator::init(const ncclUniqueId& id) {
    TESSERA_CUDA_CHECK(cudaSetDevice(m_ops.device()));
    TESSERA_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&m_computeReady, cudaEventDisableTiming));
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&m_commDone, cudaEventDisableTiming));
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    TESSERA_NCCL_SETTLE(ncclCommInitRankConfig(&m_comm, worldSize(), id, rank(), &config));
    return {};
}

NcclCommunicator::~NcclCommunicator() {
    cudaSetDevice(m_ops.device());
    if (m_comm && !m_failure) {
        // Let queued work finish (bounded by the timeout), then finalize; abort otherwise.
        bool clean = static_cast<bool>(flushSends());
        if (clean && cudaEventRecord(m_commDone, m_stream) == cudaSuccess) {
            clean = static_cast<bool>(waitEvent(m_commDone, "the last NCCL operations"));
        }
        if (clean && m_comm) {
            clean = static_cast<bool>(
                settle(ncclCommFinalize(m_comm), "ncclCommFinalize", __FILE__, __LINE__));
        }
        if (m_comm) {
            if (clean) {
                ncclCommDestroy(m_comm);
            } else {
                ncclCommAbort(m_comm);
            }
        }
    }
    for (auto& [id, request] : m_requests) {
        cudaEventDestroy(request.done);
    }
    if (m_computeReady) {
        cudaEventDestroy(m_computeReady);
    }
    if (m_commDone) {
        cudaEventDestroy(m_commDone);
    }
    if (m_stream) {
        cudaStreamDestroy(m_stream);
    }
}

// ---- error handling -------------------------------------------------------------------------

Result<void> NcclCommunicator::abortWith(std::string message) {
    if (!m_failure) {
        if (m_comm) {
            ncclCommAbort(m_comm);
            m_comm = nullptr;
        }
        m_failure = Error{ErrorCode::Internal, std::move(message) + "; NCCL communicator of rank " +
                                                   std::to_string(rank()) + " aborted"};
    }
    return fail(*m_failure);
}

Result<void> NcclCommunicator::healthy() {
    if (m_failure) {
        return fail(*m_failure);
    }
    ncclResult_t state = ncclSuccess;
    if (auto r = TESSERA_NCCL_STATUS(ncclCommGetAsyncError(m_comm, &state)); !r) {
        return abortWith(r.error().message);
    }
    if (state != ncclSuccess && state != ncclInProgress) {
        return abortWith(std::string("NCCL reported an asynchronous error: ") +
                         ncclGetErrorString(state));
    }
    return {};
}

Result<void> NcclCommunicator::settle(ncclResult_t r, const char* call, const char* file,
                                      int line) {
    if (r == ncclSuccess) {
        return {};
    }
    if (r != ncclInProgress) {
        return abortWith(ncclStatus(r, call, file, line).error().message);
    }
    const auto start = Clock::now();
    for (;;) {
        ncclResult_t state = ncclSuccess;
        if (auto q = TESSERA_NCCL_STATUS(ncclCommGetAsyncError(m_comm, &state)); !q) {
            return abortWith(q.error().message);
        }
        if (state == ncclSuccess) {
            return {};
        }
        if (state != ncclInProgress) {
            return abortWith(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                             ": " + ncclGetErrorString(state));
        }
        if (Clock::now() - start > m_timeout) {
            return abortWith(std::string(call) + " did not finish within " + seconds(m_timeout) +
                             " (a peer rank stopped or never joined)");
        }
        pause(start);
    }
}

Result<void> NcclCommunicator::waitEvent(cudaEvent_t event, const char* what) {
    const auto start = Clock::now();
    for (;;) {
        const cudaError_t e = cudaEventQuery(event);
        if (e == cudaSuccess) {
            return {};
        }
        if (e != cudaErrorNotReady) {
            return abortWith(cudaStatus(e, "cudaEventQuery", __FILE__, __LINE__).error().message);
        }
        TESSERA_RETURN_IF_ERROR_(healthy());
        if (Clock::now() - start > m_timeout) {
            return abortWith(std::string(what) + " did not finish within " + seconds(m_timeout) +
                             " (a peer rank stopped, died or called collectives in another order)");
        }
        pause(start);
    }
}

// ---- stream ordering ------------------------------------------------------------------------

Result<void> NcclCommunicator::orderAfterCompute() {
    TESSERA_CUDA_CHECK(cudaEventRecord(m_computeReady, m_ops.stream()));
    TESSERA_CUDA_CHECK(cudaStreamWaitEvent(m_stream, m_computeReady, 0));
    return {};
}

Result<void> NcclCommunicator::orderComputeAfterComm() {
    TESSERA_CUDA_CHECK(cudaEventRecord(m_commDone, m_stream));
    TESSERA_CUDA_CHECK(cudaStreamWaitEvent(m_ops.stream(), m_commDone, 0));
    return {};
}

Result<void> NcclCommunicator::flushSends(float* recvData, std::size_t recvN, int recvPeer) {
    if (m_pendingSends.empty() && !recvData) {
        return {};
    }
    TESSERA_RETURN_IF_ERROR_(orderAfterCompute());
    std::vector<PendingSend> sends;
    sends.swap(m_pendingSends);
    TESSERA_NCCL_SETTLE(ncclGroupStart());
    for (const PendingSend& s : sends) {
        TESSERA_NCCL_SETTLE(ncclSend(s.data, s.n, ncclFloat, s.peer, m_comm, m_stream));
    }
    if (recvData) {
        TESSERA_NCCL_SETTLE(ncclRecv(recvData, recvN, ncclFloat, recvPeer, m_comm, m_stream));
    }
    TESSERA_NCCL_SETTLE(ncclGroupEnd());
    for (const PendingSend& s : sends) {
        Request& request = m_requests.at(s.id);
        TESSERA_CUDA_CHECK(cudaEventRecord(request.done, m_stream));
        request.deferredSend = false;
    }
    return {};
}

// ---- device collectives ---------------------------------------------------------------------

Result<void> NcclCommunicator::allReduceSum(float* data, std::size_t n) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends());
    TESSERA_RETURN_IF_ERROR_(orderAfterCompute());
    TESSERA_NCCL_SETTLE(ncclAllReduce(data, data, n, ncclFloat, ncclSum, m_comm, m_stream));
    return orderComputeAfterComm();
}

Result<void> NcclCommunicator::broadcast(float* data, std::size_t n, int root) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends());
    TESSERA_RETURN_IF_ERROR_(orderAfterCompute());
    TESSERA_NCCL_SETTLE(ncclBroadcast(data, data, n, ncclFloat, root, m_comm, m_stream));
    return orderComputeAfterComm();
}

Result<void> NcclCommunicator::allGatherInPlace(float* data, const int* counts, const int* displs) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends());
    TESSERA_RETURN_IF_ERROR_(orderAfterCompute());
    const int size = worldSize();
    bool regular = true;
    for (int r = 0; r < size; ++r) {
        regular = regular && counts[r] == counts[0] &&
                  std::int64_t(displs[r]) == std::int64_t(displs[0]) + std::int64_t(r) * counts[0];
    }
    if (regular) {
        float* base = data + displs[0];
        const std::size_t count = std::size_t(counts[0]);
        TESSERA_NCCL_SETTLE(ncclAllGather(base + std::size_t(rank()) * count, base, count,
                                          ncclFloat, m_comm, m_stream));
    } else {
        TESSERA_NCCL_SETTLE(ncclGroupStart());
        for (int r = 0; r < size; ++r) {
            if (counts[r] > 0) {
                float* segment = data + displs[r];
                TESSERA_NCCL_SETTLE(ncclBroadcast(segment, segment, std::size_t(counts[r]),
                                                  ncclFloat, r, m_comm, m_stream));
            }
        }
        TESSERA_NCCL_SETTLE(ncclGroupEnd());
    }
    return orderComputeAfterComm();
}

Result<RequestId> NcclCommunicator::iAllReduceSum(float* data, std::size_t n) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends());
    TESSERA_RETURN_IF_ERROR_(orderAfterCompute());
    Request request;
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&request.done, cudaEventDisableTiming));
    const RequestId id = m_nextId++;
    m_requests.emplace(id, request); // owns the event from here on
    TESSERA_NCCL_SETTLE(ncclAllReduce(data, data, n, ncclFloat, ncclSum, m_comm, m_stream));
    TESSERA_CUDA_CHECK(cudaEventRecord(request.done, m_stream));
    return id;
}

Result<RequestId> NcclCommunicator::iSend(const float* data, std::size_t n, int peer, int /*tag*/) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    Request request;
    request.deferredSend = true;
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&request.done, cudaEventDisableTiming));
    const RequestId id = m_nextId++;
    m_requests.emplace(id, request);
    m_pendingSends.push_back(PendingSend{data, n, peer, id});
    return id;
}

Result<void> NcclCommunicator::recv(float* data, std::size_t n, int peer, int /*tag*/) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends(data, n, peer));
    return orderComputeAfterComm();
}

Result<void> NcclCommunicator::wait(RequestId request) {
    auto it = m_requests.find(request);
    if (it == m_requests.end()) {
        return fail(ErrorCode::Internal, "NcclCommunicator::wait: unknown or completed request " +
                                             std::to_string(request));
    }
    TESSERA_RETURN_IF_ERROR_(healthy());
    if (it->second.deferredSend) {
        TESSERA_RETURN_IF_ERROR_(flushSends());
    }
    TESSERA_RETURN_IF_ERROR_(waitEvent(it->second.done, "a non-blocking NCCL operation"));
    // Complete on the host already; the stream wait keeps the ordering explicit for the
    // compute stream (free once the event has completed).
    TESSERA_CUDA_CHECK(cudaStreamWaitEvent(m_ops.stream(), it->second.done, 0));
    cudaEventDestroy(it->second.done);
    m_requests.erase(it);
    return {};
}

Result<void> NcclCommunicator::waitAll() {
    TESSERA_RETURN_IF_ERROR_(healthy());
    TESSERA_RETURN_IF_ERROR_(flushSends());
    while (!m_requests.empty()) {
        TESSERA_RETURN_IF_ERROR_(wait(m_requests.begin()->first));
    }
    return {};
}

Result<void> NcclCommunicator::poll() {
    return healthy();
}

// ---- host operations and groups -------------------------------------------------------------

Result<void> NcclCommunicator::allReduceSum(double* data, std::size_t n) {
    return m_host->allReduceSum(data, n);
}

Result<void> NcclCommunicator::allReduceMin(int* data, std::size_t n) {
    return m_host->allReduceMin(data, n);
}

Result<void> NcclCommunicator::broadcast(std::string& bytes, int root) {
    return m_host->broadcast(bytes, root);
}

Result<std::unique_ptr<Communicator>> NcclCommunicator::split(int color, int key) {
    TESSERA_RETURN_IF_ERROR_(healthy());
    auto hostGroup = m_host->split(color, key);
    if (!hostGroup) {
        return relay(hostGroup);
    }
    if (!*hostGroup) {
        return std::unique_ptr<Communicator>();
    }
    auto group = create(std::move(*hostGroup), m_ops, m_timeout);
    if (!group) {
        return relay(group);
    }
    return std::unique_ptr<Communicator>(std::move(*group));
}

} // namespace tessera::train
