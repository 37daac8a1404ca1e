#!/usr/bin/env bash
# Finds the planes in the sample depth image and in PCL's table scene (when ../shared/data is there),
# prints them as tables, keeps the JSON, and lists the largest plane of each class with plain awk.
#   samples/analyze-cloud.sh            # results in /tmp/planekit-samples
#   OUT=results samples/analyze-cloud.sh
source "$(dirname "$0")/common.sh"

inputs=("$repo/samples/room-depth.png")
table="$repo/../shared/data/pcl/table_scene_mug_stereo_textured.pcd"
[[ -f "$table" ]] && inputs+=("$table")

"$PLANEKIT" analyze "${inputs[@]}"
"$PLANEKIT" analyze --json "${inputs[@]}" > "$out/planes.json"

# Table columns: number, class, alignment, normal (3), offset, points, area…; keep the first row of each
# class (rows are largest first) from the sample's table.
echo "largest plane of each class in room-depth.png:"
"$PLANEKIT" analyze "$repo/samples/room-depth.png" |
    awk 'NR > 2 && !seen[$2]++ { printf "  %-8s plane %s, %s points, %s\n", $2, $1, $8, $9 }'
echo "JSON of every plane: $out/planes.json"
