#!/usr/bin/env bash
# Every message the app shows has its German and Chinese translation: lupdate reads the sources
# (the project file the build writes for the tessera_lupdate target) into copies of
# translations/tessera_*.ts, and no message may be new or unfinished there. A message added
# without running `cmake --build build --target tessera_lupdate` and translating it fails here,
# naming it. Usage: tests/check-translations.sh BUILD_DIR. Exits 0, 1 naming the messages, or 77
# (skip) without lupdate or the project file (the app not built).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(cd "${1:?usage: tests/check-translations.sh BUILD_DIR}" && pwd)
project="$build/app/.lupdate/tessera_project.cmake" # written at configure time
lupdate=/usr/lib/qt6/bin/lupdate
[ -x "$lupdate" ] || lupdate=$(command -v lupdate || true)
generate=$(ls /usr/lib/*/cmake/Qt6LinguistTools/GenerateLUpdateProject.cmake 2>/dev/null | head -1)
if [ -z "$lupdate" ] || [ -z "$generate" ] || [ ! -f "$project" ]; then
    echo "SKIP: lupdate and Qt6LinguistTools (qt6-l10n-tools) or $project (the app's build) is" \
         "missing"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp translations/tessera_*.ts "$work/"
# As the tessera_lupdate target does, into the copies.
(cd "$build/app" && cmake -DIN_FILE="$project" -DOUT_FILE="$work/project.json" -P "$generate")
"$lupdate" -project "$work/project.json" -locations relative -no-obsolete \
    -ts "$work"/tessera_*.ts >"$work/lupdate.log" 2>&1 || { cat "$work/lupdate.log"; exit 1; }
status=0
for ts in "$work"/tessera_*.ts; do
    missing=$(/usr/bin/python3 - "$ts" <<'PY'
import sys, xml.etree.ElementTree as ET
for ctx in ET.parse(sys.argv[1]).getroot().iter("context"):
    for m in ctx.iter("message"):
        if m.find("translation").get("type") == "unfinished":
            print(f"  {ctx.find('name').text}: {m.find('source').text!r}")
PY
)
    if [ -n "$missing" ]; then
        echo "$(basename "$ts"): messages without a translation (run cmake --build $build" \
             "--target tessera_lupdate, translate them in translations/$(basename "$ts")):"
        echo "$missing"
        status=1
    fi
done
[ $status -eq 0 ] && echo "translations: every message of the app has its German and Chinese text"
exit $status
