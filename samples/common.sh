# Sourced by the sample pipelines: finds (or builds) the planekit binary and an output directory.
# PLANEKIT=/path/to/planekit uses that binary instead of the release build in this checkout.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${PLANEKIT:-}" ]]; then
    PLANEKIT="$repo/.build/release/planekit"
    if [[ ! -x "$PLANEKIT" ]]; then
        echo "building planekit (release) once…" >&2
        (cd "$repo" && swift build -c release >&2)
    fi
fi
out="${OUT:-${TMPDIR:-/tmp}/planekit-samples}"
mkdir -p "$out"

# An awk function for reading NDJSON events without jq: field(name) is the first value of
# "name": on the line, wherever the key sits, so nothing depends on key order ("-" if absent).
# Use as: awk "$json_field"' { print field("frame") }'
json_field='function field(name,   s) {
    if (!match($0, "\"" name "\":\"?[^\",}]*")) return "-"
    s = substr($0, RSTART, RLENGTH); sub(/^"[^"]*":"?/, "", s); return s
}'
