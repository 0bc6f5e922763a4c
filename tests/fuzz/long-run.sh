#!/usr/bin/env bash
# The long fuzz run (issue 20): every target for RUNS executions (default 10 million) from its
# seeds and the corpus earlier runs kept, one after another, then one table line per target:
#   tests/fuzz/long-run.sh [BUILD_DIR [RUNS [TARGET...]]]
# BUILD_DIR is the main build folder (default build/; the fuzzers are in BUILD_DIR/fuzz/bin, built
# by `cmake --build --preset default`). Logs and any crash input go to BUILD_DIR/fuzz/long/<target>/.
# The corpus each target grows is kept in BUILD_DIR/fuzz/kept/<target>/corpus (the default run's
# 15 s fuzz tests use it too), so a later run starts where this one stopped.
# Exit status 1 when any target crashed, leaked, timed out or ran out of memory.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
runs=${2:-10000000}
shift 2 2>/dev/null || shift $#
targets=("$@")
if ((${#targets[@]} == 0)); then
    for f in "$build"/fuzz/bin/fuzz_*; do
        targets+=("${f##*/fuzz_}")
    done
fi
failed=0
summary=()
for t in "${targets[@]}"; do
    fuzzer=$build/fuzz/bin/fuzz_$t out=$build/fuzz/long/$t
    mkdir -p "$out" "$build/fuzz/kept/$t/corpus"
    start=$(date +%s)
    "$fuzzer" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/" "$build/fuzz/kept/$t/corpus" "$here/corpus/$t" >"$out/run.log" 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    done_line=$(grep -E '^Done [0-9]+ runs' "$out/run.log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+' "$out/run.log" | tail -n 1)
    if ((status != 0)); then
        failed=1
        done_line="FAILED (exit $status): see $out/run.log and the crash-*/leak-*/timeout-* input"
    fi
    summary+=("$(printf '%-16s %s; %s edges; %d s wall' "$t" "$done_line" "${cov#cov: }" "$secs")")
    echo "${summary[-1]}"
done
printf '%s\n' "${summary[@]}" >"$build/fuzz/long/summary.txt"
exit "$failed"
