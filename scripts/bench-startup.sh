#!/usr/bin/env bash
# Start-up of the command line (issue 15): a benchmark, not a test.
#
#   scripts/bench-startup.sh [RUNS]
#
# Builds `planekit` in release mode twice: as `swift build -c release` builds it (.build, the Swift
# runtime in shared libraries, as the tests use it) and as the README's install builds it
# (.build-static, `--static-swift-stdlib`: the runtime linked in). Then times each, in one
# hyperfine run so that both see the same machine, on one core (taskset -c 1), after 10 warm-up
# runs, RUNS runs each (100 by default), mean ± σ:
#   planekit --help
#   planekit analyze samples/room-depth.png                    organized: no PCL loaded
#   planekit analyze ../shared/data/pcl/sac_plane_test.pcd     unorganized: loads the PCL bridge
# The issue's goals are 10 ms for --help and 15 ms for analyze of an organized file. Run it on a
# quiet machine: the load average is printed before and after.
set -euo pipefail

RUNS=${1:-100}
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if ! command -v hyperfine > /dev/null; then
    apt-get update -qq && apt-get install -y -qq hyperfine > /dev/null
fi

# Only what is timed: the command and the bridge the unorganized cloud loads. The static build has
# its own scratch path: the same objects built with other flags would make every later
# `swift build` in .build start again.
for product in planekit PlaneKitPCLBridge; do
    swift build -c release --product "$product" >&2
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product "$product" >&2
done

unorganized=../shared/data/pcl/sac_plane_test.pcd
commands=()
for bin in .build/release/planekit .build-static/release/planekit; do
    commands+=("$bin --help" "$bin analyze samples/room-depth.png")
    [ -f "$unorganized" ] && commands+=("$bin analyze $unorganized")
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
taskset -c 1 hyperfine -N --warmup 10 --runs "$RUNS" --style basic "${commands[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
