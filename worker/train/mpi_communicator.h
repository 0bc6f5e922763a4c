// Communicator over MPI (Open MPI) on host buffers: MPI_COMM_WORLD from create(), sub-groups
// from split(). Works as an MPI singleton (started without mpirun: world size 1) too.
#pragma once

#include "worker/train/nn/communicator.h"

#include <mpi.h>

#include <memory>
#include <vector>

namespace tessera::train {

/// The world communicator owns MPI initialisation: create() calls MPI_Init when MPI is not
/// initialised yet and switches MPI_COMM_WORLD to MPI_ERRORS_RETURN so that failures come back
/// as Errors instead of aborting; its destructor calls MPI_Finalize when create() initialised
/// MPI (destroy split communicators first). A communicator from split() owns its MPI_Comm
/// (MPI_Comm_free in the destructor) and has MPI_ERRORS_RETURN set too.
/// Counts above INT_MAX are sent in chunks by the blocking calls; non-blocking calls and
/// allGatherInPlace refuse them (InvalidArgument). Not thread-safe (MPI_THREAD_SINGLE use).
class MpiCommunicator final : public Communicator {
public:
    /// Before MPI_Init it selects Open MPI's ring algorithm for MPI_Iallreduce
    /// (OMPI_MCA_coll_libnbc_iallreduce_algorithm=1) unless the environment sets it.
    /// Errors: Internal with the MPI error string and file:line.
    static Result<std::unique_ptr<MpiCommunicator>> create(int* argc, char*** argv);
    ~MpiCommunicator() override;

    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    int rank() const override { return m_rank; }
    int worldSize() const override { return m_worldSize; }
    Result<void> allReduceSum(float* data, std::size_t n) override;
    Result<void> allReduceSum(double* data, std::size_t n) override;
    Result<void> allReduceMin(int* data, std::size_t n) override;
    Result<void> broadcast(std::string& bytes, int root) override;
    Result<void> broadcast(float* data, std::size_t n, int root) override;

    /// MPI_Iallreduce (in place).
    Result<RequestId> iAllReduceSum(float* data, std::size_t n) override;
    /// MPI_Isend.
    Result<RequestId> iSend(const float* data, std::size_t n, int peer, int tag) override;
    /// MPI_Recv; also checks that exactly n floats arrived.
    Result<void> recv(float* data, std::size_t n, int peer, int tag) override;
    /// MPI_Wait on one request of the table; InvalidArgument for an unknown/completed id.
    Result<void> wait(RequestId request) override;
    /// MPI_Waitall over every outstanding request.
    Result<void> waitAll() override;
    /// MPI_Testall over every outstanding request (completed ones are freed).
    Result<void> poll() override;
    /// Requests started and not yet completed.
    int outstandingRequests() const;

    /// MPI_Allgatherv with MPI_IN_PLACE.
    Result<void> allGatherInPlace(float* data, const int* counts, const int* displs) override;

    /// MPI_Comm_split; the result owns its communicator.
    Result<std::unique_ptr<Communicator>> split(int color, int key) override;

    /// MPI_Barrier (checkpoints: every shard written before rank 0 writes the manifest).
    Result<void> barrier();

    /// The underlying communicator (e.g. to broadcast an NCCL unique id over it).
    MPI_Comm comm() const { return m_comm; }

    /// Ends every rank of the job with `exitCode` (MPI_Abort on MPI_COMM_WORLD). For a failure on
    /// one rank while the others may wait in a collective; a program calls it, a library never
    /// does.
    void abortAll(int exitCode);

private:
    explicit MpiCommunicator(MPI_Comm comm) : m_comm(comm) {}
    Result<RequestId> track(MPI_Request request);

    MPI_Comm m_comm = MPI_COMM_WORLD;
    bool m_ownsComm = false; ///< split() result: MPI_Comm_free in the destructor
    int m_rank = 0;
    int m_worldSize = 1;
    bool m_ownsInit = false;
    std::vector<MPI_Request> m_requests; ///< RequestId = index; MPI_REQUEST_NULL = free slot
};

} // namespace tessera::train
