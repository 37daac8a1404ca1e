#!/usr/bin/env bash
# Runs `planekit bench NAME ARGS…` (raycast, tracking) from a release build next to Open3D:
# installs open3d-cpu and numpy into .build-venv/ (ignored by git) when needed and passes that
# Python; when they cannot be installed, PlaneKit's figures are reported alone (--no-open3d).
# BENCH_PIN_CORE=N runs the benchmark (not the build) on core N with taskset.
set -euo pipefail
cd "$(dirname "$0")/.."
name="$1"; shift
venv=.build-venv
python=""
if [ -x "$venv/bin/python3" ] && "$venv/bin/python3" -c "import open3d, numpy" 2>/dev/null; then
    python="$venv/bin/python3"
elif python3 -m venv "$venv" && "$venv/bin/pip" install --quiet open3d-cpu numpy; then
    python="$venv/bin/python3"
else
    echo "bench-$name: could not install open3d-cpu into $venv; reporting PlaneKit alone" >&2
fi
swift build -c release
pin=()
[ -n "${BENCH_PIN_CORE:-}" ] && pin=(taskset -c "$BENCH_PIN_CORE")
if [ -n "$python" ]; then
    "${pin[@]}" .build/release/planekit bench "$name" --python "$python" "$@"
else
    "${pin[@]}" .build/release/planekit bench "$name" --no-open3d "$@"
fi
