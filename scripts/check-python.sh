#!/usr/bin/env bash
# Installs the Python package (python/) into .build-pyvenv/ (ignored by git) with the library the
# test build made, and runs its pytest suite (python/tests): the planes against `planekit analyze
# --json`, bad input, the session, the evaluation, and the Dask example on a 2-worker LocalCluster
# over 1000 generated frames. numpy, pytest and dask[distributed] are installed from PyPI on the
# first run.
#   scripts/check-python.sh           # after `swift test -c release -Xswiftc -enable-testing` (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-pyvenv
if ! "$venv/bin/python" -c "import numpy, pytest, dask.distributed, setuptools, wheel" 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy pytest "dask[distributed]" setuptools wheel
fi
library_dir=$PWD/.build/release
# The test build makes every product; built here only when run on its own, with the test build's
# flags, so the two share their modules instead of rebuilding each other's.
[[ -f $library_dir/libPlaneKitC.so ]] || swift build -c release -Xswiftc -enable-testing --product PlaneKitC
PLANEKIT_LIBRARY_DIR=$library_dir "$venv/bin/pip" install --quiet --no-build-isolation --no-deps --force-reinstall ./python
PLANEKIT_CLI=$library_dir/planekit "$venv/bin/python" -m pytest -q python/tests
