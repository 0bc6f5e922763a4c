// Communicator over MPI_COMM_WORLD (Open MPI): MPI_Allreduce on host buffers. Works as an MPI
// singleton (started without mpirun: world size 1) too.
#pragma once

#include "communicator.h"

#include <memory>

namespace tessera::train {

/// Owns MPI initialisation: create() calls MPI_Init when MPI is not initialised yet and switches
/// MPI_COMM_WORLD to MPI_ERRORS_RETURN so that failures come back as Errors instead of aborting;
/// the destructor calls MPI_Finalize when create() initialised MPI.
class MpiCommunicator final : public Communicator {
public:
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

    /// Ends every rank of the job with `exitCode` (MPI_Abort). For a failure on one rank while
    /// the others may wait in a collective; a program calls it, a library never does.
    void abortAll(int exitCode);

private:
    MpiCommunicator() = default;

    int m_rank = 0;
    int m_worldSize = 1;
    bool m_ownsInit = false;
};

} // namespace tessera::train
