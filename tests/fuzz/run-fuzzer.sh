#!/usr/bin/env bash
# Runs one libFuzzer target as a ctest test (label fuzz):
#   run-fuzzer.sh FUZZER SEEDS REGRESSIONS WORKDIR SECONDS
# First every file in REGRESSIONS (inputs that once crashed) once, then SECONDS of fuzzing from
# the seed corpus SEEDS, new inputs kept in WORKDIR/corpus (the tree's seeds are never written).
# A crash, leak, UB report, timeout (10 s per input) or 2 GiB of memory fails the test; the input
# is left in WORKDIR as crash-*/leak-*/timeout-*/oom-* with the reproducer command printed.
set -euo pipefail
fuzzer=$1 seeds=$2 regressions=$3 work=$4 seconds=$5
if [[ ! -x $fuzzer ]]; then
    echo "fuzz: $fuzzer was not built (the clang sub-build failed or was switched off)" >&2
    exit 1
fi
mkdir -p "$work/corpus"
shopt -s nullglob
old=("$regressions"/*)
if ((${#old[@]})); then
    echo "fuzz: ${#old[@]} regression inputs from $regressions"
    "$fuzzer" -runs=1 "${old[@]}" 2>&1 | tail -n 3
fi
set +e
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" "$seeds" >"$work/last-run.log" 2>&1
status=$?
set -e
grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$work/last-run.log" | tail -n 80
if ((status != 0)); then
    echo "fuzz: $(basename "$fuzzer") failed (exit $status); the input is in $work; reproduce" \
        "with: $fuzzer <that file>" >&2
fi
exit "$status"
