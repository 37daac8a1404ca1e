#!/usr/bin/env bash
# Throughput and memory of `planekit stream` on VGA depth16 frames (issue #6): a benchmark, not a test.
#
#   scripts/bench-stream.sh [FRAMES] [RUNS] [SOAK_FRAMES]
#
# Builds the release binary, then reports the median over RUNS runs of
#   1. stream alone, reading a pre-recorded synth stream from a file (the consumer side), and the
#      same file through a pipe from cat (what a pipe costs the consumer, with a plain writer);
#   2. planekit synth --frames N --taps 3 | planekit stream (producer and consumer together);
#   3. planekit encode of a recorded depth sequence | planekit stream: one room, a moving camera,
#      N depth PNGs with sidecars made by synth --frames N --depth-dir (like a TUM RGB-D folder);
#      and, as an extra line, encode of 100 unrelated rooms (one PNG per seed);
#   4. planekit encode of the real depth TIFFs in ../shared/data/pcl/depth | planekit stream;
# and a soak: a SOAK_FRAMES-frame synth stream through stream, its VmRSS sampled once a second.
# frames/s counts frames over the wall time of the whole command, process start-up, parsing and
# event output included. stream runs on core 1 and its producer on core 0 (taskset), when there
# are two cores; wall-clock figures are noisy on a busy machine, so compare medians.
set -euo pipefail

FRAMES=${1:-120}
RUNS=${2:-5}
SOAK_FRAMES=${3:-3000}
BENCH_NAME=bench-stream
# PLANEKIT=/path/to/planekit times that (release) binary instead of building this checkout's.
source "$(dirname "$0")/bench-common.sh"

now() { date +%s.%N; }

# runs "$@" (a shell command line) RUNS times; prints the median wall time in seconds
time_median() {
    local i start end
    for ((i = 0; i < RUNS; i++)); do
        start=$(now)
        bash -c "$1"
        end=$(now)
        echo "$end - $start" | bc -l
    done | median
}

report() { # name frames seconds
    printf '%-58s %6d frames  %7.3f s  %7.1f frames/s\n' "$1" "$2" "$3" "$(echo "$2 / $3" | bc -l)"
}
bench() { # name frames command: times the command and reports it
    report "$1" "$2" "$(time_median "$3")"
}

echo "planekit stream benchmark: $FRAMES frames, median of $RUNS runs, $(nproc) cores" >&2

# 1. stream alone on a recorded stream, with its own latency figures from the last run.
"$BIN" synth --frames "$FRAMES" --taps 3 --stream-output "$WORK/synth.bin"
bench "stream < recorded synth stream" "$FRAMES" "${CONSUMER[*]} '$BIN' stream < '$WORK/synth.bin' > /dev/null"
"${CONSUMER[@]}" "$BIN" stream --stats < "$WORK/synth.bin" 2>&1 >/dev/null | sed 's/^/    /'
bench "cat recorded synth stream | stream" "$FRAMES" "${PRODUCER[*]} cat '$WORK/synth.bin' | ${CONSUMER[*]} '$BIN' stream > /dev/null"

# The producer alone, to tell whether it limits the pipe.
bench "synth alone (producer)" "$FRAMES" "${PRODUCER[*]} '$BIN' synth --frames $FRAMES --taps 3 > /dev/null"

# 2. synth | stream
bench "synth | stream" "$FRAMES" "${PRODUCER[*]} '$BIN' synth --frames $FRAMES --taps 3 | ${CONSUMER[*]} '$BIN' stream > /dev/null"

# 3. encode of a recorded walk (one room, moving camera: synth's stream as depth PNGs) | stream
"$BIN" synth --frames "$FRAMES" --depth-dir "$WORK/walk"
ls "$WORK"/walk/frame-*.png > "$WORK/walk.txt"
bench "encode $FRAMES walk PNGs alone (producer)" "$FRAMES" "${PRODUCER[*]} '$BIN' encode < '$WORK/walk.txt' > /dev/null"
bench "encode $FRAMES walk PNGs | stream" "$FRAMES" "${PRODUCER[*]} '$BIN' encode < '$WORK/walk.txt' | ${CONSUMER[*]} '$BIN' stream > /dev/null"

# The same with 100 unrelated rooms (one PNG per seed): every frame a new world for the tracker.
ROOMS=$(( FRAMES < 100 ? FRAMES : 100 ))
mkdir -p "$WORK/png"
for ((k = 1; k <= ROOMS; k++)); do "$BIN" synth --seed "$k" --depth "$WORK/png/room-$k.png" > /dev/null; done
ls "$WORK"/png/room-*.png > "$WORK/pngs.txt"
bench "encode $ROOMS depth PNGs of different rooms | stream" "$ROOMS" "${PRODUCER[*]} '$BIN' encode < '$WORK/pngs.txt' | ${CONSUMER[*]} '$BIN' stream > /dev/null"

# 4. the real depth TIFFs (with their XML intrinsics), repeated to make a run worth timing (300 frames).
DATA="$ROOT/../shared/data/pcl/depth"
if ls "$DATA"/*_depth.tiff > /dev/null 2>&1; then
    : > "$WORK/tiffs.txt"
    for ((r = 0; r < 100; r++)); do ls "$DATA"/*_depth.tiff >> "$WORK/tiffs.txt"; done
    n=$(wc -l < "$WORK/tiffs.txt")
    bench "encode real depth TIFFs (x100) | stream" "$n" "${PRODUCER[*]} '$BIN' encode < '$WORK/tiffs.txt' | ${CONSUMER[*]} '$BIN' stream > /dev/null"
fi

# Soak: memory of the stream process over a long stream, sampled once a second (SOAK_FRAMES 0: none).
[ "$SOAK_FRAMES" -gt 0 ] || exit 0
# Piped rather than recorded: 3000 VGA frames would make a 1.8 GB file. $! is the stream's pid.
"${PRODUCER[@]}" "$BIN" synth --frames "$SOAK_FRAMES" --taps 10 | "${CONSUMER[@]}" "$BIN" stream > /dev/null &
pid=$!
samples=()
# The first sample is taken one second in, after start-up and the first frames.
while sleep 1 && kill -0 "$pid" 2> /dev/null; do
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2> /dev/null || true)
    [ -n "$rss" ] && samples+=("$rss")
done
wait "$pid"
if [ ${#samples[@]} -gt 0 ]; then
    max=$(printf '%s\n' "${samples[@]}" | sort -n | tail -1)
    echo "soak: $SOAK_FRAMES frames, ${#samples[@]} samples; VmRSS after 1 s ${samples[0]} kB, at the end ${samples[-1]} kB, max $max kB"
    echo "    every sample (kB): ${samples[*]}"
fi
