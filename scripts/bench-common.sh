# Shared set-up of the stream benchmarks, sourced by scripts/bench-stream.sh and
# scripts/bench-view.sh: moves to the repository root, builds the release binary (or takes
# PLANEKIT=/path/to/planekit, a release binary to time instead of this checkout's) into BIN, makes
# a work folder WORK removed on exit (named after BENCH_NAME), and sets CONSUMER and PRODUCER to
# pin the consumer on core 1 and the rest on core 0 when there are two cores.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ -n "${PLANEKIT:-}" ]; then
    BIN="$PLANEKIT"
else
    swift build -c release >&2
    BIN="$ROOT/.build/release/planekit"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/${BENCH_NAME:-bench}.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ "$(nproc)" -ge 2 ]; then CONSUMER=(taskset -c 1); PRODUCER=(taskset -c 0); else CONSUMER=(); PRODUCER=(); fi

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
