// Fuzz target: the Slurm clusters file (slurm-clusters.json) as loadSlurmClusters checks it, and
// the round trip through the lease detail format.
#include "backend/provision/slurm/slurmcluster.h"
#include "tests/fuzz/fuzz_input.h"

#include <QByteArray>

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray text(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    Result<QList<SlurmCluster>> clusters =
        parseSlurmClusters(text, QStringLiteral("slurm-clusters.json"));
    if (!clusters) {
        return 0;
    }
    for (const SlurmCluster& c : *clusters) {
        if (c.nodes < 1) {
            __builtin_trap(); // the loader promises nodes >= 1
        }
        (void)slurmClusterFromJson(slurmClusterToJson(c));
    }
    return 0;
}
