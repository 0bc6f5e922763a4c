// MPI-based communicator (see mpi_communicator.h). Every MPI call goes through TESSERA_MPI_CHECK,
// which returns an Error with the call, MPI's message and file:line.
#include "worker/train/mpi_communicator.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <sanitizer/lsan_interface.h>
// AddressSanitizer builds (preset asan): Open MPI never frees much of what MPI_Init and
// MPI_Finalize allocate (about 3,400 blocks, 120 KB per rank), and those stacks run through MCA
// components that MPI_Finalize dlcloses, so the leak report at exit can neither name them nor be
// suppressed by library. LeakSanitizer ignores the allocations these two calls make on this
// thread instead; tests/sanitizers/lsan.supp covers what Open MPI's PMIx thread leaks.
#define TESSERA_NOT_OUR_LEAKS(name) __lsan::ScopedDisabler name
#else
#define TESSERA_NOT_OUR_LEAKS(name)
#endif

namespace tessera::train {

namespace {

Failure mpiError(const char* call, int rc, const char* file, int line) {
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
Result<void> allReduceChunked(MPI_Comm comm, T* data, std::size_t n, MPI_Datatype type, MPI_Op op) {
    while (n > 0) {
        const int count = int(std::min<std::size_t>(n, INT_MAX));
        TESSERA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, data, count, type, op, comm));
        data += count;
        n -= std::size_t(count);
    }
    return {};
}

template <typename T>
Result<void> broadcastChunked(MPI_Comm comm, T* data, std::size_t n, MPI_Datatype type, int root) {
    while (n > 0) {
        const int count = int(std::min<std::size_t>(n, INT_MAX));
        TESSERA_MPI_CHECK(MPI_Bcast(data, count, type, root, comm));
        data += count;
        n -= std::size_t(count);
    }
    return {};
}

Result<int> intCount(std::size_t n, const char* what) {
    if (n > std::size_t(INT_MAX)) {
        return fail(ErrorCode::InvalidArgument, std::string(what) + " of " + std::to_string(n) +
                                                    " floats exceeds MPI's int count limit");
    }
    return int(n);
}

} // namespace

Result<std::unique_ptr<MpiCommunicator>> MpiCommunicator::create(int* argc, char*** argv) {
    std::unique_ptr<MpiCommunicator> c(new MpiCommunicator(MPI_COMM_WORLD));
    int initialised = 0;
    TESSERA_MPI_CHECK(MPI_Initialized(&initialised));
    if (!initialised) {
        // The data-parallel gradient buckets use MPI_Iallreduce. Open MPI's non-blocking
        // collectives (libnbc) default to an algorithm that reached 0.52-0.76 of MPI_Allreduce's
        // bus bandwidth on 25 MB here; the ring reaches 1.0 (tests/bench). A user's value wins.
        ::setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1", 0);
        {
            TESSERA_NOT_OUR_LEAKS(openMpiInit);
            TESSERA_MPI_CHECK(MPI_Init(argc, argv));
        }
#if defined(__SANITIZE_ADDRESS__)
        // Keeps Open MPI's PMIx client mapped after MPI_Finalize, never closed, so that a leak
        // report at exit names it (lsan.supp suppresses it by that name).
        (void)::dlopen("libpmix.so.2", RTLD_LAZY | RTLD_NOLOAD);
#endif
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
    if (!finalised) {
        // Outstanding requests would reference freed buffers: complete them first.
        for (MPI_Request& r : m_requests) {
            if (r != MPI_REQUEST_NULL) {
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            }
        }
        if (m_ownsComm && m_comm != MPI_COMM_NULL) {
            MPI_Comm_free(&m_comm);
        }
        if (m_ownsInit) {
            TESSERA_NOT_OUR_LEAKS(openMpiFinalize);
            MPI_Finalize();
        }
    }
}

void MpiCommunicator::abortAll(int exitCode) {
    MPI_Abort(MPI_COMM_WORLD, exitCode);
}

Result<void> MpiCommunicator::allReduceSum(float* data, std::size_t n) {
    return allReduceChunked(m_comm, data, n, MPI_FLOAT, MPI_SUM);
}

Result<void> MpiCommunicator::allReduceSum(double* data, std::size_t n) {
    return allReduceChunked(m_comm, data, n, MPI_DOUBLE, MPI_SUM);
}

Result<void> MpiCommunicator::allReduceMin(int* data, std::size_t n) {
    return allReduceChunked(m_comm, data, n, MPI_INT, MPI_MIN);
}

Result<void> MpiCommunicator::broadcast(std::string& bytes, int root) {
    unsigned long long size = bytes.size();
    TESSERA_MPI_CHECK(MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, m_comm));
    bytes.resize(std::size_t(size));
    return broadcastChunked(m_comm, bytes.data(), bytes.size(), MPI_CHAR, root);
}

Result<void> MpiCommunicator::broadcast(float* data, std::size_t n, int root) {
    return broadcastChunked(m_comm, data, n, MPI_FLOAT, root);
}

Result<RequestId> MpiCommunicator::track(MPI_Request request) {
    for (std::size_t i = 0; i < m_requests.size(); ++i) {
        if (m_requests[i] == MPI_REQUEST_NULL) {
            m_requests[i] = request;
            return RequestId(i);
        }
    }
    m_requests.push_back(request);
    return RequestId(m_requests.size() - 1);
}

Result<RequestId> MpiCommunicator::iAllReduceSum(float* data, std::size_t n) {
    auto count = intCount(n, "iAllReduceSum");
    if (!count) {
        return relay(count);
    }
    MPI_Request request = MPI_REQUEST_NULL;
    TESSERA_MPI_CHECK(
        MPI_Iallreduce(MPI_IN_PLACE, data, *count, MPI_FLOAT, MPI_SUM, m_comm, &request));
    return track(request);
}

Result<RequestId> MpiCommunicator::iSend(const float* data, std::size_t n, int peer, int tag) {
    auto count = intCount(n, "iSend");
    if (!count) {
        return relay(count);
    }
    MPI_Request request = MPI_REQUEST_NULL;
    TESSERA_MPI_CHECK(MPI_Isend(data, *count, MPI_FLOAT, peer, tag, m_comm, &request));
    return track(request);
}

Result<void> MpiCommunicator::recv(float* data, std::size_t n, int peer, int tag) {
    auto count = intCount(n, "recv");
    if (!count) {
        return relay(count);
    }
    MPI_Status status;
    TESSERA_MPI_CHECK(MPI_Recv(data, *count, MPI_FLOAT, peer, tag, m_comm, &status));
    int got = 0;
    TESSERA_MPI_CHECK(MPI_Get_count(&status, MPI_FLOAT, &got));
    if (got != *count) {
        return fail(ErrorCode::Internal, "recv from rank " + std::to_string(peer) + " tag " +
                                             std::to_string(tag) + ": expected " +
                                             std::to_string(*count) + " floats, got " +
                                             std::to_string(got) + " (" + __FILE__ + ":" +
                                             std::to_string(__LINE__) + ")");
    }
    return {};
}

Result<void> MpiCommunicator::wait(RequestId request) {
    if (request < 0 || std::size_t(request) >= m_requests.size() ||
        m_requests[std::size_t(request)] == MPI_REQUEST_NULL) {
        return fail(ErrorCode::InvalidArgument,
                    "wait: request " + std::to_string(request) + " is not outstanding");
    }
    TESSERA_MPI_CHECK(MPI_Wait(&m_requests[std::size_t(request)], MPI_STATUS_IGNORE));
    m_requests[std::size_t(request)] = MPI_REQUEST_NULL;
    return {};
}

Result<void> MpiCommunicator::waitAll() {
    if (m_requests.empty()) {
        return {};
    }
    TESSERA_MPI_CHECK(MPI_Waitall(int(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE));
    m_requests.clear();
    return {};
}

Result<void> MpiCommunicator::poll() {
    if (m_requests.empty()) {
        return {};
    }
    int done = 0;
    // MPI_Testall sets completed requests to MPI_REQUEST_NULL only when all are done, so test
    // each one to free slots as they finish and to drive progress of all of them.
    for (MPI_Request& r : m_requests) {
        if (r != MPI_REQUEST_NULL) {
            TESSERA_MPI_CHECK(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
        }
    }
    while (!m_requests.empty() && m_requests.back() == MPI_REQUEST_NULL) {
        m_requests.pop_back();
    }
    return {};
}

int MpiCommunicator::outstandingRequests() const {
    return int(std::count_if(m_requests.begin(), m_requests.end(),
                             [](MPI_Request r) { return r != MPI_REQUEST_NULL; }));
}

Result<void> MpiCommunicator::allGatherInPlace(float* data, const int* counts, const int* displs) {
    TESSERA_MPI_CHECK(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts, displs,
                                     MPI_FLOAT, m_comm));
    return {};
}

Result<std::unique_ptr<Communicator>> MpiCommunicator::split(int color, int key) {
    MPI_Comm sub = MPI_COMM_NULL;
    TESSERA_MPI_CHECK(MPI_Comm_split(m_comm, color, key, &sub));
    std::unique_ptr<MpiCommunicator> c(new MpiCommunicator(sub));
    c->m_ownsComm = true;
    TESSERA_MPI_CHECK(MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN));
    TESSERA_MPI_CHECK(MPI_Comm_rank(sub, &c->m_rank));
    TESSERA_MPI_CHECK(MPI_Comm_size(sub, &c->m_worldSize));
    return std::unique_ptr<Communicator>(std::move(c));
}

Result<void> MpiCommunicator::barrier() {
    TESSERA_MPI_CHECK(MPI_Barrier(m_comm));
    return {};
}

} // namespace tessera::train
