#!/usr/bin/env bash
# Quick start, command 2: installs missing Debian packages, configures, builds and runs the test
# suite through ctest (labels unit, integration, gui, e2e; gpu tests skip without a GPU; bench excluded).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
packaging/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)"
ctest --preset default "$@"
