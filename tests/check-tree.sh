#!/usr/bin/env bash
# The tree's house rules that no compiler checks (CONTRIBUTING.md, "Layout" and "Code"):
#   braces   every if / else / for / while body in braces: clang-format 19's InsertBraces must
#            change nothing (a file it would change has a statement without them; fix with
#            clang-format-19 --style="{BasedOnStyle: InheritParentConfig, InsertBraces: true}"
#            -i FILE, then clang-format -i FILE for the house format of clang-format 14)
#   rooms    no folder of app/, backend/ or worker/ holds more than 40 .cpp files directly
#   layers   a backend domain includes only the domains below it (backend/CMakeLists.txt)
# Usage: tests/check-tree.sh [braces|rooms|layers]... (all three without arguments). Exits 0
# when all hold, 1 naming every file or folder that breaks one, 77 (skip) when clang-format-19
# is missing for the brace check.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "SKIP: not a git checkout (the checks read the tracked files with git ls-files)"
    exit 77
fi
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(rooms layers braces)
status=0

# Reads NUL-separated file names on stdin, prints those with a statement clang-format 19's
# InsertBraces would brace. One clang-format run a file: InsertBraces adds only "{" and "}" and
# clang-format otherwise changes only white space, so a file whose text without white space
# differs from clang-format's only by braces lacks some; where the texts differ otherwise (a
# version's other formatting choices), the file is formatted once more without InsertBraces
# and the two are compared.
braces_py='
import concurrent.futures, os, re, subprocess, sys
STYLE = "--style={BasedOnStyle: InheritParentConfig, InsertBraces: %s}"
def fmt(path, braces):
    return subprocess.run(["clang-format-19", STYLE % braces, path], capture_output=True,
                          check=True).stdout
def squeeze(b):
    return re.sub(rb"\s", b"", b)
def unbraced(path):
    braced = squeeze(fmt(path, "true"))
    original = squeeze(open(path, "rb").read())
    if braced == original:
        return None
    if braced.replace(b"{", b"").replace(b"}", b"") == original.replace(b"{", b"").replace(b"}", b""):
        return path
    return path if fmt(path, "true") != fmt(path, "false") else None
names = [n for n in sys.stdin.read().split("\0") if n]
with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
    for found in sorted(p for p in pool.map(unbraced, names) if p):
        print(found)
'

check_braces() {
    if ! command -v clang-format-19 >/dev/null; then
        echo "SKIP braces: clang-format-19 is missing: install the Debian package clang-format-19" \
             "(packaging/install-deps.sh does)"
        return 77
    fi
    local bad
    bad=$(git ls-files -z '*.cpp' '*.h' '*.cu' '*.cuh' | /usr/bin/python3 -c "$braces_py")
    if [ -n "$bad" ]; then
        echo "braces: a statement without braces after if/else/for/while in:"
        printf '  %s\n' $bad
        echo "fix: clang-format-19 --style=\"{BasedOnStyle: InheritParentConfig, InsertBraces: true}\" -i FILE && clang-format -i FILE"
        return 1
    fi
    echo "braces: $(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | wc -l) files brace every statement"
}

check_rooms() {
    local bad=0 d n
    while read -r d; do
        n=$(git ls-files "$d" | grep -c "^$d/[^/]*\.cpp$" || true)
        if [ "$n" -gt 40 ]; then
            echo "rooms: $d holds $n .cpp files directly (at most 40): give it subfolders named for what they hold"
            bad=1
        fi
    done < <(git ls-files app backend worker | xargs -n 1 dirname | sort -u)
    [ $bad -eq 0 ] && echo "rooms: no folder of app/, backend/ or worker/ holds more than 40 .cpp files"
    return $bad
}

# Each backend domain and the domains it may include besides its own folder, core/ and tls/
# (core/ itself only tls/certificate_authority.h, the no-Qt crypto of tessera_tls).
declare -A may=(
    [core]="" [tls]="" [planner]="" [cluster]="" [history]=""
    [jobs]="cluster history" [telemetry]="cluster history jobs"
    [provision]="cluster history planner"
    [autoscale]="cluster history jobs planner provision"
    [service]="autoscale cluster history jobs planner provision telemetry"
    [ctl]="autoscale client cluster history jobs planner provision service telemetry export layout"
    [server]="autoscale cluster history jobs planner provision service telemetry"
    [client]="service"
    [layout]="planner" [export]="layout planner"
)

check_layers() {
    local bad=0 f from to
    while IFS=: read -r f to; do
        from=${f#backend/}; from=${from%%/*}
        [ "$to" = "$from" ] || [ "$to" = core ] && continue
        [ "$to" = tls ] && continue # core/'s use of it is checked below
        if [ -z "${may[$from]+x}" ]; then
            echo "layers: $f is in backend/$from/, which backend/CMakeLists.txt does not list"
            bad=1
        elif ! [[ " ${may[$from]} " == *" $to "* ]]; then
            echo "layers: $f includes backend/$to/, which backend/$from/ stands below"
            bad=1
        fi
    done < <(git grep -oE '#include "backend/[a-z]+/' -- 'backend/*.cpp' 'backend/*.h' |
             sed -E 's|^([^:]+):#include "backend/([a-z]+)/|\1:\2|' | sort -u)
    # core/ may include only tls/'s certificate_authority.h (no Qt, no backend).
    if git grep -nE '#include "backend/tls/' -- backend/core | grep -v 'certificate_authority.h'; then
        echo "layers: core/ includes more of tls/ than certificate_authority.h"
        bad=1
    fi
    [ $bad -eq 0 ] && echo "layers: every backend domain includes only the domains below it"
    return $bad
}

for c in "${checks[@]}"; do
    rc=0
    case "$c" in
    braces) check_braces || rc=$? ;;
    rooms) check_rooms || rc=$? ;;
    layers) check_layers || rc=$? ;;
    *) echo "check-tree: unknown check '$c' (braces, rooms, layers)" >&2; exit 2 ;;
    esac
    if [ $rc -eq 1 ] || { [ $rc -eq 77 ] && [ $status -eq 0 ]; }; then status=$rc; fi
done
exit $status
