#!/usr/bin/env bash
# Relocalization benchmark: PlaneKit's global registration into generated rooms' maps (success,
# error, false relocalizations in unrelated rooms, time of one attempt), next to Open3D's FPFH +
# RANSAC + ICP global registration on the same pairs, one thread each, on core 1 (see
# scripts/bench-with-open3d.sh for the Python side). Extra arguments go to `planekit bench
# relocalization`.
BENCH_PIN_CORE=1 exec "$(dirname "$0")/bench-with-open3d.sh" relocalization "$@"
