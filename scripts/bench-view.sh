#!/usr/bin/env bash
# The stream's frame rate with and without a live viewer (issue 15): a benchmark, not a test.
#
#   scripts/bench-view.sh [FRAMES] [RUNS]
#
# Records a `planekit synth --frames FRAMES --taps 3` walk once, then RUNS times, alternating:
#   without: cat walk | planekit stream
#   with:    cat walk | planekit stream --view 127.0.0.1:PORT, with a WebSocket viewer
#            (scripts/view_client.py) connected before the first frame and reading everything
# and prints each run's frames per second and the medians. The rate is measured on the events
# (scripts/event_clock.py: from the first frame's events to the last's), so start-up and the
# viewer's draining at the end are left out of both. stream runs on core 1, cat, the clock and the
# viewer on core 0 (taskset) when there are two cores; the server's threads are the stream's own
# process, on whichever core is free.
set -euo pipefail

FRAMES=${1:-600}
RUNS=${2:-5}
BENCH_NAME=bench-view
# PLANEKIT=/path/to/planekit times that (release) binary instead of building this checkout's.
source "$(dirname "$0")/bench-common.sh"

"$BIN" synth --frames "$FRAMES" --taps 3 > "$WORK/walk.stream"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

without() {
    "${PRODUCER[@]}" cat "$WORK/walk.stream" | "${CONSUMER[@]}" "$BIN" stream | "${PRODUCER[@]}" python3 scripts/event_clock.py
}

with_viewer() {
    local port ready
    port=$(free_port)
    ready="$WORK/ready.$port"
    "${PRODUCER[@]}" python3 scripts/view_client.py "$port" "$ready" > "$WORK/viewer.$port" &
    local viewer=$!
    # The input starts once the viewer has its snapshot (at most 30 s).
    { for _ in $(seq 300); do [ -e "$ready" ] && break; sleep 0.1; done; "${PRODUCER[@]}" cat "$WORK/walk.stream"; } |
        "${CONSUMER[@]}" "$BIN" stream --view "127.0.0.1:$port" 2>/dev/null | "${PRODUCER[@]}" python3 scripts/event_clock.py
    wait "$viewer"
    echo "  viewer: $(cat "$WORK/viewer.$port")" >&2
}

echo "planekit stream with and without a viewer: $FRAMES frames, $RUNS runs each, $(nproc) cores" >&2
: > "$WORK/without"
: > "$WORK/with"
for ((i = 1; i <= RUNS; i++)); do
    a=$(without)
    b=$(with_viewer)
    echo "run $i: without ${a#* } frames/s, with a viewer ${b#* } frames/s (${a% *} and ${b% *} frames)" >&2
    echo "${a#* }" >> "$WORK/without"
    echo "${b#* }" >> "$WORK/with"
done
m_without=$(median < "$WORK/without")
m_with=$(median < "$WORK/with")
printf 'median: without %.1f frames/s, with a viewer %.1f frames/s (%+.1f%%)\n' "$m_without" "$m_with" \
    "$(echo "($m_with - $m_without) * 100 / $m_without" | bc -l)"
