#!/usr/bin/env bash
# The stream's frame rate with and without a live viewer (issue 15): a benchmark, not a test.
#
#   scripts/bench-view.sh [FRAMES] [RUNS]
#
# Records a `planekit synth --frames FRAMES --taps 3` walk once, then RUNS times, alternating:
#   without: cat walk | planekit stream
#   with:    cat walk | planekit stream --view 127.0.0.1:PORT, with a WebSocket viewer
#            (scripts/view_client.py) connected before the first frame and reading everything
# and prints each run's frames per second and CPU time per frame, their medians, and what the view
# itself cost the stream's thread (`stream --stats --view`: thread CPU time in the hub). The rate is
# measured on the events (scripts/event_clock.py: from the first frame's events to the last's), so
# start-up and the viewer's draining at the end are left out of both; the CPU time is the whole
# process's (user + system, start-up and the server's threads included), which a machine busy
# with other work disturbs less than the wall clock. Nothing is pinned to a core (taskset would put
# the server's threads on the stream's core too).
set -euo pipefail

FRAMES=${1:-600}
RUNS=${2:-5}
BENCH_NAME=bench-view
# PLANEKIT=/path/to/planekit times that (release) binary instead of building this checkout's.
source "$(dirname "$0")/bench-common.sh"
# Nothing is pinned here: taskset would put the view's server threads on the stream's core too.
CONSUMER=()
PRODUCER=()

"$BIN" synth --frames "$FRAMES" --taps 3 > "$WORK/walk.stream"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Each run prints "FRAMES FRAMES_PER_S CPU_S P50_MS": the event clock's two numbers, the user +
# system CPU seconds of the whole planekit process (its server threads included, from
# /usr/bin/time), and the median frame latency `stream --stats` measured on the stream's own thread
# (decoding, tracking, writing the events and handing them to the view).
without() {
    "${PRODUCER[@]}" cat "$WORK/walk.stream" |
        /usr/bin/time -f "%U %S" -o "$WORK/cpu" "${CONSUMER[@]}" "$BIN" stream --stats 2> "$WORK/stats" |
        "${PRODUCER[@]}" python3 scripts/event_clock.py | tr '\n' ' '
    awk '{ printf "%s ", $1 + $2 }' "$WORK/cpu"
    sed -n 's/.* p50 \([0-9.]*\) .*/\1/p' "$WORK/stats"
}

# Prints the view's CPU time a frame on the stream's thread (µs), from `stream --stats --view`.
view_cost() { sed -n 's/.*view: \([0-9.]*\) µs CPU a frame.*/\1/p' "$WORK/stats"; }

with_viewer() {
    local port ready
    port=$(free_port)
    ready="$WORK/ready.$port"
    "${PRODUCER[@]}" python3 scripts/view_client.py "$port" "$ready" > "$WORK/viewer.$port" &
    local viewer=$!
    # The input starts once the viewer has its snapshot (at most 30 s).
    { for _ in $(seq 300); do [ -e "$ready" ] && break; sleep 0.1; done; "${PRODUCER[@]}" cat "$WORK/walk.stream"; } |
        /usr/bin/time -f "%U %S" -o "$WORK/cpu" "${CONSUMER[@]}" "$BIN" stream --stats --view "127.0.0.1:$port" 2> "$WORK/stats" |
        "${PRODUCER[@]}" python3 scripts/event_clock.py | tr '\n' ' '
    awk '{ printf "%s ", $1 + $2 }' "$WORK/cpu"
    sed -n 's/.* p50 \([0-9.]*\) .*/\1/p' "$WORK/stats"
    view_cost >> "$WORK/view-cost"
    wait "$viewer"
    echo "  viewer: $(cat "$WORK/viewer.$port")" >&2
}

echo "planekit stream with and without a viewer: $FRAMES frames, $RUNS runs each, $(nproc) cores" >&2
: > "$WORK/without"
: > "$WORK/with"
for ((i = 1; i <= RUNS; i++)); do
    # Alternate which goes first, so a drift in the machine's load favours neither.
    if ((i % 2)); then a=$(without); b=$(with_viewer); else b=$(with_viewer); a=$(without); fi
    read -r fa ra ca la <<< "$a"
    read -r fb rb cb lb <<< "$b"
    printf 'run %d: without %.1f frames/s, %.2f ms CPU a frame, latency p50 %s ms; with a viewer %.1f frames/s, %.2f ms CPU a frame, p50 %s ms (%d and %d frames)\n' \
        "$i" "$ra" "$(echo "$ca * 1000 / $fa" | bc -l)" "$la" "$rb" "$(echo "$cb * 1000 / $fb" | bc -l)" "$lb" "$fa" "$fb" >&2
    echo "$ra $(echo "$ca * 1000 / $fa" | bc -l) $la" >> "$WORK/without"
    echo "$rb $(echo "$cb * 1000 / $fb" | bc -l) $lb" >> "$WORK/with"
done
r_without=$(cut -d' ' -f1 "$WORK/without" | median)
r_with=$(cut -d' ' -f1 "$WORK/with" | median)
c_without=$(cut -d' ' -f2 "$WORK/without" | median)
c_with=$(cut -d' ' -f2 "$WORK/with" | median)
printf 'median frame rate: without %.1f frames/s, with a viewer %.1f frames/s (%+.1f%%)\n' "$r_without" "$r_with" \
    "$(echo "($r_with - $r_without) * 100 / $r_without" | bc -l)"
l_without=$(cut -d' ' -f3 "$WORK/without" | median)
l_with=$(cut -d' ' -f3 "$WORK/with" | median)
printf 'median frame latency (stream --stats p50): without %.2f ms, with a viewer %.2f ms (%+.1f%%)\n' "$l_without" "$l_with" \
    "$(echo "($l_with - $l_without) * 100 / $l_without" | bc -l)"
printf 'view on the stream'"'"'s thread: median %.1f µs CPU a frame (%.1f%% of the median frame latency without a viewer)\n' \
    "$(median < "$WORK/view-cost")" "$(echo "$(median < "$WORK/view-cost") / 10 / $l_without" | bc -l)"
printf 'median CPU of the planekit process: without %.2f ms a frame, with a viewer %.2f ms a frame (%+.1f%%)\n' "$c_without" "$c_with" \
    "$(echo "($c_with - $c_without) * 100 / $c_without" | bc -l)"
