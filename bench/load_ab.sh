#!/bin/sh
# Alternate the load bench on another commit (default main) and on this tree, back to back:
#   bench/load_ab.sh [REF] [PAIRS] [load_bench options...]
# e.g. bench/load_ab.sh main 2 --games 200 --moves 30
# REF is exported with git archive into a temporary folder and run with OTHER_PY (default:
# this tree's python; give REF's own environment, e.g. a venv made with `pip install -e` of
# REF, when the two differ in dependencies: this tree adds uvloop and orjson). RAIL_SHARED
# points at the fixtures; each run's report goes to stdout, headed with the tree, the commit
# and the time. Nothing else CPU-heavy should run meanwhile.
set -eu
ref=${1:-main}
pairs=${2:-2}
shift 2 2>/dev/null || shift $#
[ $# -gt 0 ] || set -- --games 200 --moves 30
here=$(cd "$(dirname "$0")/.." && pwd)
other=$(mktemp -d)
trap 'rm -rf "$other"' EXIT
git -C "$here" archive "$ref" | tar -x -C "$other"
export RAIL_SHARED="${RAIL_SHARED:-$(cd "$here/.." && pwd)/shared}"
i=0
while [ "$i" -lt "$pairs" ]; do
    for tree in "$other" "$here"; do
        if [ "$tree" = "$here" ]; then
            name="this tree $(git -C "$here" rev-parse --short HEAD)"
        else
            name="$ref $(git -C "$here" rev-parse --short "$ref")"
        fi
        py=python
        [ "$tree" = "$here" ] || py=${OTHER_PY:-python}
        echo "== $name, $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
        "$py" "$tree/bench/load_bench.py" "$@" 2>&1 | grep -v "event loop was blocked"
    done
    i=$((i + 1))
done
