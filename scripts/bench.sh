#!/usr/bin/env bash
# Builds PlaneKit in release mode and times plane detection next to PCL on the same frames
# (the real VGA frames in ../shared/data/pcl/ and generated rooms). Extra arguments go to
# `planekit bench detection`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release >&2
exec .build/release/planekit bench detection --data ../shared/data "$@"
