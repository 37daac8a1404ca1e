#!/usr/bin/env bash
# Installs what is missing, then builds and runs PlaneKit's whole test suite.
# The suite reads real sensor data from ../shared/data/ beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Release mode: the accuracy tests run the detector over many full VGA frames, which an
# unoptimised build makes slow. -enable-testing keeps @testable imports working.
swift test -c release -Xswiftc -enable-testing "$@"
# A whole-suite run also runs the live view's browser test and the samples/ pipelines with the
# binary that build made.
if [[ $# -eq 0 ]]; then
    scripts/test-view.sh
    scripts/check-samples.sh
    scripts/check-cli.sh
fi
