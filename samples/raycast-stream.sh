#!/usr/bin/env bash
# Writes a stream by hand: the sample depth image as a frame (through `planekit encode`), then
# ray casts and a tap as plain JSON lines with printf. Shows what each ray hits, and where the
# object landed, with grep and awk.
#   samples/raycast-stream.sh
source "$(dirname "$0")/common.sh"
events="$out/raycast-events.ndjson"

{
    "$PLANEKIT" encode "$repo/samples/room-depth.png"
    for pixel in "320 400" "500 120" "100 300"; do
        set -- $pixel
        printf '{"type":"raycast","x":%d,"y":%d,"target":"existingPlaneGeometry","alignment":"any"}\n' "$1" "$2"
    done
    printf '{"type":"raycast","origin":[0,0,0],"direction":[0,0.4,1],"target":"any","alignment":"horizontal"}\n'
    printf '{"type":"tap","x":320,"y":400,"name":"vase","size":[0.2,0.3,0.2]}\n'
} | "$PLANEKIT" stream > "$events"

echo "nearest hit of each ray, in the order asked (distance in m, target, plane):"
grep '"event":"hit"' "$events" |
    awk "$json_field"' { printf "  ray %d  %-10s %-22s %s\n", NR, field("distance"), field("target"), field("planeIdentifier") }'
echo "placed:"
grep '"event":"objectAdded"' "$events" |
    awk "$json_field"' { printf "  %s (%s) on %s\n", field("identifier"), field("name"), field("planeIdentifier") }'
echo "all events: $events"
