// Rank placement of a launch: slots, peers and MPI parameters (see rankplacement.h).
#include "backend/jobs/rankplacement.h"

#include "backend/jobs/jobsides.h"

#include <QSet>

#include <algorithm>

namespace tessera {

v1::LaunchJobRequest placeRanks(v1::JobSpec& spec, const QList<WorkerNode>& ready, int world,
                                const QList<int>& drawn) {
    const std::string device = spec.layout().device();
    v1::LaunchJobRequest request;
    int remaining = world;
    bool allLoopback = true;
    QSet<QString> hosts;
    bool sharedHost = false;
    for (int i = 0; i < ready.size(); ++i) {
        const WorkerNode& n = ready[i];
        if (remaining == 0) {
            break;
        }
        const int ranks = i < drawn.size() ? std::min(drawn[i], remaining)
                                           : std::min(usableSlots(n, device), remaining);
        if (ranks == 0) {
            continue;
        }
        remaining -= ranks;
        auto* slot = spec.mutable_placement()->add_slots();
        slot->set_worker(n.name.toStdString());
        slot->set_ranks(ranks);
        // A worker with a GPU per rank trains on them (tessera-train picks CudaOps + NCCL),
        // unless the layout asks for CPUs.
        slot->set_device(device != "cpu" && n.cudaDevices >= ranks ? "cuda" : "cpu");
        auto* peer = request.add_peers();
        peer->set_name(n.name.toStdString());
        peer->set_address(n.address.toStdString());
        peer->set_token(n.token.toStdString());
        peer->set_slots(ranks);
        allLoopback = allLoopback && isLoopbackAddress(n.address);
        sharedHost = sharedHost || (!n.host.isEmpty() && hosts.contains(n.host));
        hosts.insert(n.host);
    }
    auto& mca = *request.mutable_mca();
    // Every orted talks to mpirun directly (that failure message recommends routed=direct). The
    // message itself ("ORTE does not know how to route a message", mpirun exit 139/213) came from
    // orteds of several workers on one host racing on a shared session directory; each worker now
    // gives its orted a tree of its own (worker/daemon/jobs/ompi_tmpdir.h).
    mca["routed"] = "direct";
    if (allLoopback) {
        // Several workers on this machine: keep MPI's out-of-band and TCP traffic on loopback.
        mca["btl_tcp_if_include"] = "lo";
        mca["oob_tcp_if_include"] = "lo";
    }
    if (allLoopback || sharedHost) {
        // Each worker's orted believes it owns the whole machine and binds its first rank to
        // core 0, so ranks of workers sharing a host would all share one core (measured: 2 ranks
        // of the demo job at 2,500 samples/s bound, 39,000 unbound on 2 cores).
        mca["hwloc_base_binding_policy"] = "none";
        // Each orted also believes its ranks have a core of their own, so a rank waiting for a
        // pipeline neighbour or an all-reduce busy-polls and starves the rank it waits for when
        // ranks outnumber cores. Yielding while idle lets the others run.
        mca["mpi_yield_when_idle"] = "1";
        // The ranks of one orted talk through shared memory (vader) in a file named by host
        // name, job and local rank: the first ranks of two workers on one host opened the same
        // file and crashed (SIGSEGV in mca_btl_vader_poll_handle_frag at the first collective,
        // 3 of 3 runs with 2 workers × 2 slots). Open MPI offers no per-orted name, so ranks on a
        // shared host talk over loopback TCP instead.
        mca["btl"] = "self,tcp";
    }
    return request;
}

} // namespace tessera
