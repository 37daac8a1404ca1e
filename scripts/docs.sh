#!/usr/bin/env bash
# Builds the DocC documentation of every PlaneKit module (the API reference and the articles in
# Sources/PlaneKit/PlaneKit.docc) and fails if DocC warns about any of PlaneKit's own sources.
#   scripts/docs.sh        archives in .build/plugins/Swift-DocC/outputs/<Module>.doccarchive
# The first run makes a debug build of the package (several minutes); later runs reuse it.
# The C API (PlaneKitC) is documented by its header, Sources/CPlaneKit/include/planekit.h, and
# docs/c-api.md.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
for dir in Sources/PlaneKit*/; do
    name=$(basename "$dir")
    [[ $name == PlaneKitC ]] && continue
    targets+=(--target "$name")
done
log=$(mktemp "${TMPDIR:-/tmp}/planekit-docs.XXXXXX")
trap 'rm -f "$log"' EXIT
swift package generate-documentation "${targets[@]}" > "$log" 2>&1 || { tail -20 "$log" >&2; echo "docs: DocC failed" >&2; exit 1; }
# A warning is followed by the place it points at; only PlaneKit's own sources count.
ours=$(grep -A1 '^warning:' "$log" | grep -c -- '--> Sources/' || true)
if ((ours > 0)); then
    grep -B1 -- '--> Sources/' "$log" >&2
    echo "docs: $ours DocC warning(s) in Sources/" >&2
    exit 1
fi
documented=$(grep -c '^Finished building documentation' "$log" || true)
echo "docs: $documented modules documented in .build/plugins/Swift-DocC/outputs, no DocC warning in Sources/"
