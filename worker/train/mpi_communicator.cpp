// MPI_Allreduce-based communicator (see mpi_communicator.h). Every MPI call goes through
// TESSERA_MPI_CHECK, which returns an Error with the call, MPI's message and file:line.
#include "mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <string>

namespace tessera::train {

namespace {

std::unexpected<Error> mpiError(const char* call, int rc, const char* file, int line) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) {
        std::snprintf(text, sizeof text, "MPI error code %d", rc);
    }
    return fail(ErrorCode::Internal, std::string(call) + " failed: " + text + " (" + file + ":" +
                                         std::to_string(line) + ")");
}

} // namespace

/// Evaluates an MPI call; on failure returns its Error from the enclosing function.
#define TESSERA_MPI_CHECK(call)                                                                    \
    do {                                                                                           \
        const int tesseraMpiRc_ = (call);                                                          \
        if (tesseraMpiRc_ != MPI_SUCCESS) {                                                        \
            return mpiError(#call, tesseraMpiRc_, __FILE__, __LINE__);                             \
        }                                                                                          \
    } while (0)

namespace {

template <typename T>
Result<void> allReduceChunked(T* data, std::size_t n, MPI_Datatype type, MPI_Op op) {
    while (n > 0) {
        const int count = int(std::min<std::size_t>(n, INT_MAX));
        TESSERA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, data, count, type, op, MPI_COMM_WORLD));
        data += count;
        n -= std::size_t(count);
    }
    return {};
}

} // namespace

Result<std::unique_ptr<MpiCommunicator>> MpiCommunicator::create(int* argc, char*** argv) {
    std::unique_ptr<MpiCommunicator> c(new MpiCommunicator());
    int initialised = 0;
    TESSERA_MPI_CHECK(MPI_Initialized(&initialised));
    if (!initialised) {
        TESSERA_MPI_CHECK(MPI_Init(argc, argv));
        c->m_ownsInit = true;
    }
    TESSERA_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    TESSERA_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &c->m_rank));
    TESSERA_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &c->m_worldSize));
    return c;
}

MpiCommunicator::~MpiCommunicator() {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (m_ownsInit && !finalised) {
        MPI_Finalize();
    }
}

void MpiCommunicator::abortAll(int exitCode) {
    MPI_Abort(MPI_COMM_WORLD, exitCode);
}

Result<void> MpiCommunicator::allReduceSum(float* data, std::size_t n) {
    return allReduceChunked(data, n, MPI_FLOAT, MPI_SUM);
}

Result<void> MpiCommunicator::allReduceSum(double* data, std::size_t n) {
    return allReduceChunked(data, n, MPI_DOUBLE, MPI_SUM);
}

Result<void> MpiCommunicator::allReduceMin(int* data, std::size_t n) {
    return allReduceChunked(data, n, MPI_INT, MPI_MIN);
}

Result<void> MpiCommunicator::broadcast(std::string& bytes, int root) {
    unsigned long long size = bytes.size();
    TESSERA_MPI_CHECK(MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD));
    bytes.resize(std::size_t(size));
    char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const int count = int(std::min<std::size_t>(left, INT_MAX));
        TESSERA_MPI_CHECK(MPI_Bcast(data, count, MPI_CHAR, root, MPI_COMM_WORLD));
        data += count;
        left -= std::size_t(count);
    }
    return {};
}

} // namespace tessera::train
