#!/usr/bin/env bash
# Streams a generated walk through a room (120 frames, 3 taps) through a tracking session and picks
# the events apart with grep, sed and awk only — no jq.
#   samples/stream-events.sh [FRAMES] [TAPS]
source "$(dirname "$0")/common.sh"
frames="${1:-120}"
taps="${2:-3}"
events="$out/events.ndjson"

"$PLANEKIT" synth --seed 5 --frames "$frames" --taps "$taps" | "$PLANEKIT" stream --stats > "$events"

echo "events by kind:"
grep -o '"event":"[A-Za-z]*"' "$events" | sed 's/"event":"\(.*\)"/\1/' | sort | uniq -c

echo "planes as they were found (frame, plane, class):"
grep '"event":"planeAdded"' "$events" |
    awk "$json_field"' { printf "  frame %-4s %-9s %s\n", field("frame"), field("identifier"), field("classification") }'

echo "objects placed (frame, object, plane):"
grep '"event":"objectAdded"' "$events" |
    awk "$json_field"' { printf "  frame %-4s %-9s on %s\n", field("frame"), field("identifier"), field("planeIdentifier") }'

echo "mapping status changes (frame, status):"
grep '"event":"mapping"' "$events" | awk "$json_field"' { printf "  frame %-4s %s\n", field("frame"), field("to") }'
echo "all events: $events"
