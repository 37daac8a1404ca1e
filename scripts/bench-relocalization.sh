#!/usr/bin/env bash
# Relocalization benchmark: PlaneKit's global registration into generated rooms' maps (success,
# error, false relocalizations in unrelated rooms, time of one attempt), next to Open3D's FPFH +
# RANSAC + ICP global registration on the same pairs, one thread each.
# Installs open3d-cpu and numpy into .build-venv/ (ignored by git); without them PlaneKit's
# figures are reported alone. Extra arguments go to `planekit bench relocalization`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-venv
python=""
if [ -x "$venv/bin/python3" ] && "$venv/bin/python3" -c "import open3d, numpy" 2>/dev/null; then
    python="$venv/bin/python3"
elif python3 -m venv "$venv" && "$venv/bin/pip" install --quiet open3d-cpu numpy; then
    python="$venv/bin/python3"
else
    echo "bench-relocalization: could not install open3d-cpu into $venv; reporting PlaneKit alone" >&2
fi
swift build -c release --product planekit
if [ -n "$python" ]; then
    taskset -c 1 .build/release/planekit bench relocalization --python "$python" "$@"
else
    taskset -c 1 .build/release/planekit bench relocalization --no-open3d "$@"
fi
