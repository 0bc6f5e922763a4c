#!/usr/bin/env bash
# The format check CI runs: every tracked C++/CUDA file must be as clang-format (.clang-format at
# the top) writes it. Lists the files that differ and exits 1; exits 0 when all are formatted.
# Fix them with: git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null; then
    echo "check-format: clang-format is missing: install the Debian package clang-format" \
         "(packaging/install-deps.sh does)" >&2
    exit 2
fi
bad=$(git ls-files -z '*.cpp' '*.h' '*.cu' '*.cuh' |
      xargs -0 -n 40 -P "$(nproc)" clang-format --dry-run 2>&1 |
      sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: \(warning\|error\): .*/\1/p' | sort -u)
if [ -n "$bad" ]; then
    echo "check-format: not formatted as .clang-format says ($(clang-format --version)):" >&2
    printf '  %s\n' $bad >&2
    echo "fix: clang-format -i <file>   (or all: git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | xargs clang-format -i)" >&2
    exit 1
fi
echo "check-format: $(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | wc -l) files formatted"
