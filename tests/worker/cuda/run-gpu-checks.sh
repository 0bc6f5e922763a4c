#!/usr/bin/env bash
# Device check of the GPU backend, for a person on a machine with an NVIDIA GPU (CUDA 13 + NCCL
# under /usr/local/cuda, or CUDAToolkit_ROOT set): configures a build with the GPU backend,
# builds the gpu-labelled tests and runs them. Two GPUs also run the 2-rank NCCL test.
#
#   tests/worker/cuda/run-gpu-checks.sh [build-dir]      (default: build-gpu in the repo root)
#
# Exit status: ctest's. A run where every test is reported "Skipped" found no usable GPU: the
# skip reason (the CUDA error string) is printed in the output.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${1:-$root/build-gpu}"
jobs="$(nproc 2>/dev/null || echo 4)"

nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv || true
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_BUILD_APP=OFF
if ! grep -q '^TESSERA_NCCL_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt"; then
    echo "run-gpu-checks: CUDA toolkit or NCCL not found, the GPU backend is not configured" >&2
    exit 2
fi
ninja -C "$build" -j"$jobs" tessera_cuda test_cuda_ops test_nccl_communicator
cd "$build"
ctest -L gpu --output-on-failure -V --timeout 300
