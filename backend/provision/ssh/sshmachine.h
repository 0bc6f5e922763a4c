// What a rent's check finds on an SSH host (the check script and the parse of its output), and
// the offer a host makes from what is known of its machine.
#pragma once

#include "backend/provision/offer.h"
#include "backend/provision/ssh/sshhost.h"

#include <QString>

namespace tessera {

/// What the check found on a host. Numbers are 0 and strings empty where it found nothing.
struct SshMachine {
    QString os;   ///< `uname -s`, e.g. "Linux"
    QString arch; ///< `uname -m`, e.g. "x86_64", "aarch64"
    QString mpi;  ///< the node's own `mpirun --version` first line (for the log: the bundle carries
                  ///< Open MPI)
    int cores = 0;              ///< `nproc`
    quint64 memoryBytes = 0;    ///< MemTotal, bytes
    int gpus = 0;               ///< GPUs nvidia-smi lists
    QString gpuName;            ///< the first GPU's name
    quint64 gpuMemoryBytes = 0; ///< memory of the smallest GPU, bytes
    QString driver;             ///< NVIDIA driver version, e.g. "535.129.03"
    QString driverCuda;         ///< newest CUDA the driver runs (nvidia-smi's "CUDA Version")
};

/// The check's shell script: prints key=value lines (os, arch, cores, mem_kb, mpi, one gpu=
/// line per GPU in nvidia-smi's csv form, driver, driver_cuda, cuda) and always exits 0.
QString sshCheckScript();

/// The value of the first "key=value" line of `out` (trimmed), or empty.
QString keyValue(const QString& out, const QString& key);

/// Parses the check script's output. Lines of nvidia-smi that are not "name, MiB" (its own
/// error text, e.g. "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
/// driver") are not GPUs.
SshMachine parseSshCheck(const QString& out);

/// GPUs in `nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits` output (one
/// "name, memory in MiB" line per GPU) into `machine`: gpus, gpuName (the first), gpuMemoryBytes
/// (the smallest). Lines that do not parse are skipped.
void parseNvidiaSmi(const QString& csv, SshMachine* machine);

/// Why this build's GPU worker cannot run on `machine`: its driver runs CUDA only up to an older
/// version than `bundleCuda` (the CUDA this build's tessera-train-cuda was built with, "13.0"),
/// naming both; "" when it can (or the machine has no GPU, or either version is unknown).
/// Versions compare as major.minor.
QString cudaDriverTooOld(const SshMachine& machine, const QString& bundleCuda,
                         const QString& where);

/// Writes what `machine` found into `host` (gpus, gpuName, gpuMemoryGiB rounded to 0.01 GiB,
/// cores). Returns true when anything changed (the hosts file is then worth saving).
bool learnMachine(SshHost* host, const SshMachine& machine);

/// The offer of `host` (provider "ssh", available 1): a GPU host offers deviceKind = gpuName
/// ("gpu" when unnamed), devicesPerNode = gpus, deviceMemoryBytes from gpuMemoryGiB; a CPU-only
/// host deviceKind "cpu" and 0 devices. slotsPerNode: host.slots when set, else gpus, else cores,
/// else 1 — the ranks its worker takes with --slots 0.
Offer sshOffer(const SshHost& host);

} // namespace tessera
