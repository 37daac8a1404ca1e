#!/usr/bin/env bash
# Runs every pipeline in samples/ against the planekit binary the test build just made, and checks
# what each prints, so the examples a user copies are proven by the same command as the tests.
#   scripts/check-samples.sh            # after `swift test -c release …` (or any release build)
set -euo pipefail
cd "$(dirname "$0")/.."
export PLANEKIT="${PLANEKIT:-$PWD/.build/release/planekit}"
export OUT
OUT=$(mktemp -d "${TMPDIR:-/tmp}/planekit-samples.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
failures=0

# expect NAME PATTERN COUNT FILE: FILE has exactly COUNT lines matching PATTERN.
expect() {
    local found
    found=$(grep -c -- "$2" "$4" || true)
    if [[ "$found" != "$3" ]]; then
        echo "check-samples: $1: expected $3 lines matching '$2', found $found" >&2
        failures=$((failures + 1))
    fi
}

samples/analyze-cloud.sh > "$OUT/analyze.txt"
expect analyze-cloud '^  floor ' 1 "$OUT/analyze.txt"
expect analyze-cloud '"classification":"floor"' 1 <(tr '}' '\n' < "$OUT/planes.json")

samples/stream-events.sh 120 3 > "$OUT/stream.txt" 2> /dev/null
expect stream-events '^  frame .* object-[0-9]* *on plane-' 3 "$OUT/stream.txt"
expect stream-events '"event":"focus"' 120 "$OUT/events.ndjson"

samples/raycast-stream.sh > "$OUT/raycast.txt"
expect raycast-stream '^  ray [0-9]' 4 "$OUT/raycast.txt"
expect raycast-stream '^  object-1 (vase) on plane-' 1 "$OUT/raycast.txt"

samples/save-pictures.sh 30 > "$OUT/pictures.txt"
expect save-pictures '^30 frame pictures' 1 "$OUT/pictures.txt"
[[ -s "$OUT/room-planes.png" ]] || { echo "check-samples: save-pictures: no room-planes.png" >&2; failures=$((failures + 1)); }

if ((failures > 0)); then
    echo "check-samples: $failures check(s) failed" >&2
    exit 1
fi
echo "check-samples: all 4 sample pipelines ran and printed what they should"
