#!/usr/bin/env bash
# Ray-casting benchmark: PlaneKit's existingPlaneGeometry kernel next to Open3D's
# RaycastingScene.cast_rays (Embree) on the same 20 planes, one thread each.
# Installs open3d-cpu and numpy into .build-venv/ (ignored by git); without them PlaneKit's
# figure is reported alone. Extra arguments go to `planekit bench raycast`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-venv
python=""
if [ -x "$venv/bin/python3" ] && "$venv/bin/python3" -c "import open3d, numpy" 2>/dev/null; then
    python="$venv/bin/python3"
elif python3 -m venv "$venv" && "$venv/bin/pip" install --quiet open3d-cpu numpy; then
    python="$venv/bin/python3"
else
    echo "bench-raycast: could not install open3d-cpu into $venv; reporting PlaneKit alone" >&2
fi
swift build -c release
if [ -n "$python" ]; then
    .build/release/planekit bench raycast --python "$python" "$@"
else
    .build/release/planekit bench raycast --no-open3d "$@"
fi
