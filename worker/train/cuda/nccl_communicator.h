// NcclCommunicator: the Communicator interface (nn/communicator.h) on device buffers with NCCL,
// bootstrapped over a host (MPI) communicator, on its own CUDA stream ordered against the compute
// stream of a CudaOps with events, with asynchronous error polling and abort on timeout.
#pragma once

#include "worker/train/cuda/cuda_ops.h"
#include "worker/train/nn/communicator.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tessera::train {

/// Float operations work on device memory of `ops`' GPU; double/int all-reduces and the byte
/// broadcast are host operations delegated to the host communicator.
///
/// Ordering: every NCCL operation is queued on this communicator's stream after an event
/// recorded on the compute stream (so it sees everything computed before the call), and the
/// blocking-style float calls (allReduceSum, broadcast, recv, allGatherInPlace) make the compute
/// stream wait for their result. Those return once queued, without waiting on the host: later
/// Ops calls (and download()) see the result. iAllReduceSum/iSend requests are completed by
/// wait()/waitAll(), which spin on the request's event while polling ncclCommGetAsyncError;
/// a failed or timed-out wait aborts the NCCL communicator (ncclCommAbort), after which every
/// call fails with the same Internal error.
///
/// Point-to-point: NCCL matches sends and receives between two ranks in issue order, so `tag`
/// is not used. iSend is deferred until the next recv(), wait() or other NCCL call and then
/// grouped with it (ncclGroupStart/End), so the pipeline's "send activations, receive
/// gradients" exchange between neighbouring stages cannot deadlock on large messages.
///
/// The NCCL communicator is non-blocking (ncclConfig_t::blocking = 0): host-side NCCL work
/// (connection setup) that does not finish within the timeout aborts too, instead of hanging.
class NcclCommunicator final : public Communicator {
public:
    static constexpr std::chrono::milliseconds kDefaultTimeout{5 * 60 * 1000};

    /// Collective over `host` (every rank calls it): rank 0 makes an NCCL unique id, host
    /// broadcast(bytes) sends it, every rank joins a world-size NCCL communicator on ops'
    /// device. `host` and `ops` must outlive the result. Errors: Internal from NCCL, CUDA or
    /// the host broadcast (the same on every rank when rank 0 fails to make the id).
    static Result<std::unique_ptr<NcclCommunicator>>
    create(Communicator& host, CudaOps& ops, std::chrono::milliseconds timeout = kDefaultTimeout);
    /// Same, taking ownership of the host communicator (split() uses it).
    static Result<std::unique_ptr<NcclCommunicator>>
    create(std::unique_ptr<Communicator> host, CudaOps& ops,
           std::chrono::milliseconds timeout = kDefaultTimeout);
    ~NcclCommunicator() override;
    NcclCommunicator(const NcclCommunicator&) = delete;
    NcclCommunicator& operator=(const NcclCommunicator&) = delete;

    int rank() const override { return m_host->rank(); }
    int worldSize() const override { return m_host->worldSize(); }

    Result<void> allReduceSum(float* data, std::size_t n) override;
    Result<void> allReduceSum(double* data, std::size_t n) override;
    Result<void> allReduceMin(int* data, std::size_t n) override;
    Result<void> broadcast(std::string& bytes, int root) override;
    Result<void> broadcast(float* data, std::size_t n, int root) override;

    Result<RequestId> iAllReduceSum(float* data, std::size_t n) override;
    Result<RequestId> iSend(const float* data, std::size_t n, int peer, int tag) override;
    Result<void> recv(float* data, std::size_t n, int peer, int tag) override;
    Result<void> wait(RequestId request) override;
    Result<void> waitAll() override;
    /// Reports an asynchronous NCCL error (and aborts); never blocks, never flushes sends.
    Result<void> poll() override;

    /// Equal counts at consecutive displacements: one ncclAllGather; otherwise one
    /// ncclBroadcast per rank's segment, grouped.
    Result<void> allGatherInPlace(float* data, const int* counts, const int* displs) override;
    /// host split, then a new NCCL communicator over the new group (same CudaOps and timeout).
    /// A rank whose host split returns no communicator gets nullptr.
    Result<std::unique_ptr<Communicator>> split(int color, int key) override;

    /// Whether a failure or timeout aborted the NCCL communicator.
    bool aborted() const { return m_failure.has_value(); }
    cudaStream_t stream() const { return m_stream; }

private:
    struct Request {
        cudaEvent_t done = nullptr;
        bool deferredSend = false; ///< iSend not issued yet (see flushSends)
    };
    struct PendingSend {
        const float* data;
        std::size_t n;
        int peer;
        RequestId id;
    };

    NcclCommunicator(Communicator* host, CudaOps& ops, std::chrono::milliseconds timeout)
        : m_host(host), m_ops(ops), m_timeout(timeout) {}
    Result<void> init(const ncclUniqueId& id);
    /// Fails when aborted; otherwise reports a pending asynchronous NCCL error.
    Result<void> healthy();
    /// After an NCCL call that returned `r`: on ncclInProgress (non-blocking communicator)
    /// polls ncclCommGetAsyncError until done, within the timeout; aborts on any failure.
    Result<void> settle(ncclResult_t r, const char* call, const char* file, int line);
    Result<void> orderAfterCompute();
    Result<void> orderComputeAfterComm();
    /// Issues deferred sends, together with a receive when `recvData` is given, in one group.
    Result<void> flushSends(float* recvData = nullptr, std::size_t recvN = 0, int recvPeer = -1);
    /// Spins until `event` completes, polling async errors; aborts on error or timeout.
    Result<void> waitEvent(cudaEvent_t event, const char* what);
    Result<void> abortWith(std::string message);

    Communicator* m_host = nullptr;
    std::unique_ptr<Communicator> m_ownedHost;
    CudaOps& m_ops;
    std::chrono::milliseconds m_timeout;
    ncclComm_t m_comm = nullptr;
    cudaStream_t m_stream = nullptr;
    cudaEvent_t m_computeReady = nullptr; ///< recorded on the compute stream
    cudaEvent_t m_commDone = nullptr;     ///< recorded on the communicator stream
    std::map<RequestId, Request> m_requests;
    std::vector<PendingSend> m_pendingSends;
    RequestId m_nextId = 1;
    std::optional<Error> m_failure; ///< set once the communicator is aborted
};

} // namespace tessera::train
