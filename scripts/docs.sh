#!/usr/bin/env bash
# Builds the DocC documentation (the API reference of every module and the articles in
# Sources/PlaneKit/PlaneKit.docc) with `swift package generate-documentation`, and fails if DocC
# warns about any of PlaneKit's own sources. The plugin also documents the dependencies' targets;
# their warnings are theirs and are not counted.
#   scripts/docs.sh        archives in .build/plugins/Swift-DocC/outputs/<Module>.doccarchive
# The first run makes a debug build of the package (about 10 minutes here); later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/planekit-docs.XXXXXX")
trap 'rm -f "$log"' EXIT
swift package generate-documentation > "$log" 2>&1 || { tail -20 "$log" >&2; echo "docs: DocC failed" >&2; exit 1; }
# A warning is followed by the place it points at; only PlaneKit's own sources count.
ours=$(grep -A1 '^warning:' "$log" | grep -c -- '--> Sources/' || true)
if ((ours > 0)); then
    grep -B1 -- '--> Sources/' "$log" >&2
    echo "docs: $ours DocC warning(s) in Sources/" >&2
    exit 1
fi
documented=$(grep -c '^Finished building documentation' "$log" || true)
echo "docs: $documented archives in .build/plugins/Swift-DocC/outputs, no DocC warning in Sources/"
