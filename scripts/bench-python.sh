#!/usr/bin/env bash
# The Python side-by-side benchmark: planekit.detect_planes next to Open3D 0.20's segment_plane
# (looped) and detect_planar_patches on the ABW dev scans, generated rooms and PCL's Kinect frames,
# in one process, with Hoover accuracy; then Python's overhead on a VGA frame
# (python/benchmarks/open3d_side_by_side.py; the table is in docs/python.md). Installs open3d-cpu
# 0.20.0 and numpy into .build-venv/ (as scripts/bench-with-open3d.sh does) and the planekit
# package from python/. Extra arguments go to the script (--rooms N, --repeat N).
# BENCH_PIN_CORE=N runs the benchmark (not the build) on core N with taskset.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-venv
if ! "$venv/bin/python3" -c "import open3d, numpy, setuptools, wheel; assert open3d.__version__.startswith('0.20')" 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "open3d-cpu==0.20.0" numpy setuptools wheel
fi
# Release, with the test build's flags (scripts/test.sh) so that the two share their modules.
swift build -c release -Xswiftc -enable-testing --product PlaneKitC
swift build -c release -Xswiftc -enable-testing --product planekit
PLANEKIT_LIBRARY_DIR=$PWD/.build/release "$venv/bin/pip" install --quiet --no-build-isolation --no-deps --force-reinstall ./python
pin=()
[ -n "${BENCH_PIN_CORE:-}" ] && pin=(taskset -c "$BENCH_PIN_CORE")
"${pin[@]}" "$venv/bin/python3" python/benchmarks/open3d_side_by_side.py --cli .build/release/planekit "$@"
