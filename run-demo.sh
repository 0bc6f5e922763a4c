#!/usr/bin/env bash
# Quick start, command 1: installs missing Debian packages, configures, builds, then runs the main
# job: the tessera desktop app on a local cluster of two workers with the Fashion-MNIST demo job
# ready to launch. Without a display it runs the same job headless through tessera-ctl.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
packaging/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)"
spec=resources/examples/fashion-mnist-mlp.json
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${TESSERA_HEADLESS:-0}" != 1 ]; then
    exec build/bin/tessera --rent-local 2 --spec "$spec" "$@"
fi
echo "tessera: no display found, running the demo job headless with tessera-ctl"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec build/bin/tessera-ctl run "$spec" "$@"
