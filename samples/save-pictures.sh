#!/usr/bin/env bash
# Writes pictures a person can open: the sample's segmentation (analyze --png, plus the label image
# and a coloured PLY), and one picture per frame of a generated walk with two taps (stream
# --png-dir): depth in grey, tracked planes coloured by anchor, the focus indicator, object boxes.
#   samples/save-pictures.sh [FRAMES]
source "$(dirname "$0")/common.sh"
frames="${1:-60}"

"$PLANEKIT" analyze --png "$out/room-planes.png" --labels "$out/room-labels.pgm" --ply "$out/room-planes.ply" \
    "$repo/samples/room-depth.png" > /dev/null
echo "segmentation of the sample: $out/room-planes.png (labels: room-labels.pgm, cloud: room-planes.ply)"

rm -rf "$out/walk" && mkdir -p "$out/walk"
"$PLANEKIT" synth --seed 5 --frames "$frames" --taps 2 | "$PLANEKIT" stream --png-dir "$out/walk" > "$out/walk/events.ndjson"
count=$(ls "$out/walk" | grep -c '^frame-.*\.png$')
echo "$count frame pictures in $out/walk (frame-000000.png is frame 0 of the events)"
