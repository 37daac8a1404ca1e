#!/usr/bin/env bash
# Checks what a new user meets first (issue #26), through the built planekit binary: pixel rays
# through the cloud's own points, map sizes, inputs that are not record streams, Ctrl-C during
# `stream --save-map`, negative option values, outputs that cannot be written, units, the up
# hint, the plane outputs (mesh, labelled clouds, --indices), the tuning options, encode with
# poses and big-endian PLY.
#   scripts/check-users.sh          # after `swift build -c release --product planekit`
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/check-common.sh check-users
data=../shared/data
mug=$data/pcl/table_scene_mug_stereo_textured.pcd

# 1. raycast --pixel on an organized PCD without intrinsics: the intrinsics are fitted to its
# points, so the ray meets the plane that --labels marks at that pixel (it had Kinect's 525 px
# and missed everything), and a pixel outside the image is an error.
if [[ -f "$mug" ]]; then
    "$PLANEKIT" analyze --labels "$OUT/mug-labels.pgm" "$mug" > /dev/null
    "$PLANEKIT" raycast --json --pixel 320,400 "$mug" > "$OUT/mug-ray.json" || fail "raycast --pixel on $mug failed"
    python3 - "$OUT/mug-labels.pgm" "$OUT/mug-ray.json" <<'PY' || fail "raycast --pixel 320,400 on the mug scene does not hit the plane labelled at that pixel"
import json, struct, sys
pgm = open(sys.argv[1], 'rb').read()
parts = pgm.split(b'\n', 3)  # P5 / width height / maxval / samples
width, height = map(int, parts[1].split())
label = struct.unpack_from('>H', parts[3], 2 * (400 * width + 320))[0]
query = json.load(open(sys.argv[2]))['queries'][0]
assert label > 0, 'pixel 320,400 is not on a plane in the label image'
assert query['results'], 'no hits'
hit = query['results'][0]
assert hit['plane'] == f'plane-{label}', f"the ray hits {hit['plane']}, the label image has plane {label} there"
PY
    status=0
    "$PLANEKIT" raycast --pixel 700,10 "$mug" > /dev/null 2> "$OUT/outside.err" || status=$?
    [[ $status != 0 && $(wc -l < "$OUT/outside.err") == 1 ]] && grep -q 'outside the image' "$OUT/outside.err" ||
        fail "a pixel outside the image should be one error line and a non-zero status, got $status: $(head -c 300 "$OUT/outside.err")"
else
    echo "check-users: $mug absent: raycast checks skipped" >&2
fi

# 2. map info prints the file's real size.
"$PLANEKIT" synth --frames 40 --taps 1 > "$OUT/walk.stream"
"$PLANEKIT" stream --save-map "$OUT/room.pkmap" < "$OUT/walk.stream" > /dev/null
bytes=$(stat -c %s "$OUT/room.pkmap")
"$PLANEKIT" map info "$OUT/room.pkmap" | grep -q ", $bytes bytes" || fail "map info does not print the map's $bytes bytes"
"$PLANEKIT" map info --json "$OUT/room.pkmap" | grep -q "\"bytes\":$bytes," || fail "map info --json does not give \"bytes\":$bytes"

# 3. stream of something that is not a record stream: one line saying what it is, non-zero.
for input in samples/room-depth.png "$mug" /bin/sh; do
    [[ -f "$input" ]] || continue
    status=0
    "$PLANEKIT" stream < "$input" > "$OUT/foreign.ndjson" 2> "$OUT/foreign.err" || status=$?
    [[ $status != 0 && $(wc -l < "$OUT/foreign.err") == 1 ]] && grep -q 'planekit encode' "$OUT/foreign.err" ||
        fail "stream < $input: expected one line naming planekit encode and a non-zero status, got $status and $(wc -l < "$OUT/foreign.err") lines: $(head -c 300 "$OUT/foreign.err")"
done
status=0
printf '{"type":"frame"}\n{"type":"tap"}\n' | "$PLANEKIT" stream > /dev/null 2> "$OUT/allbad.err" || status=$?
[[ $status != 0 ]] || fail "a stream in which no record was good exited 0"
printf '' | "$PLANEKIT" stream > /dev/null || fail "an empty stream should still exit 0"

# 4. Ctrl-C during stream --save-map: the frame in hand is finished, the map written and said,
# exit 130. The input is a few frames, then a pause (the stream blocks in its read).
status=0
{ head -c 2000000 "$OUT/walk.stream"; sleep 30; } | "$PLANEKIT" stream --save-map "$OUT/interrupted.pkmap" > "$OUT/int.ndjson" 2> "$OUT/int.err" &
pid=$!
for _ in $(seq 1 100); do
    grep -q '"frame":2' "$OUT/int.ndjson" 2> /dev/null && break
    sleep 0.1
done
stream_pid=$(pgrep -P $$ -f 'planekit stream --save-map' | head -n 1 || true)
[[ -n "$stream_pid" ]] && kill -INT "$stream_pid"
wait $pid || status=$?
[[ $status == 130 ]] || fail "stream --save-map after SIGINT exited $status, expected 130: $(head -c 300 "$OUT/int.err")"
grep -q 'saved the world map to' "$OUT/int.err" || fail "stream did not say it saved the map on SIGINT: $(head -c 300 "$OUT/int.err")"
"$PLANEKIT" map info "$OUT/interrupted.pkmap" > /dev/null || fail "the map written on SIGINT does not load"

# 5. Negative numbers start option values.
"$PLANEKIT" analyze --up -0.1,-0.9,-0.4 samples/room-depth.png > /dev/null 2> "$OUT/neg.err" ||
    fail "--up -0.1,-0.9,-0.4 was refused: $(head -c 300 "$OUT/neg.err")"
"$PLANEKIT" raycast --origin -0.1,0,0 --direction 0,0.3,1 samples/room-depth.png > /dev/null 2> "$OUT/neg.err" ||
    fail "--origin -0.1,0,0 was refused: $(head -c 300 "$OUT/neg.err")"
status=0
"$PLANEKIT" analyze --max-depth -1 samples/room-depth.png > /dev/null 2> "$OUT/neg.err" || status=$?
[[ $status != 0 ]] && grep -q 'max-depth must be a positive' "$OUT/neg.err" ||
    fail "--max-depth -1 should be the range's validation error, got $status: $(head -c 300 "$OUT/neg.err")"

# 6. An output that cannot be written: one line with the path and the reason, the table still
# printed, exit 1; --png on an unorganized cloud: a warning, the rest done.
status=0
"$PLANEKIT" analyze --png /nonexistent/dir/x.png samples/room-depth.png > "$OUT/nopng.txt" 2> "$OUT/nopng.err" || status=$?
[[ $status == 1 ]] || fail "an unwritable --png gave status $status, expected 1"
[[ $(wc -l < "$OUT/nopng.err") == 1 ]] && grep -q '/nonexistent/dir/x.png: cannot write: No such file or directory' "$OUT/nopng.err" ||
    fail "an unwritable --png should be one line with the path and reason, got: $(head -c 300 "$OUT/nopng.err")"
grep -q 'CocoaError' "$OUT/nopng.err" && fail "an unwritable --png printed a raw CocoaError"
grep -q '^  3  floor ' "$OUT/nopng.txt" || fail "an unwritable --png dropped the planes table"
if [[ -f $data/pcl/sac_plane_test.pcd && -f .build/release/libPlaneKitPCLBridge.so ]]; then
    status=0
    "$PLANEKIT" analyze --png "$OUT/u.png" --ply "$OUT/u.ply" $data/pcl/sac_plane_test.pcd > "$OUT/u.txt" 2> "$OUT/u.err" || status=$?
    grep -q 'does not apply' "$OUT/u.err" || fail "--png on an unorganized cloud gave no warning: $(head -c 300 "$OUT/u.err")"
    grep -q '^  1 ' "$OUT/u.txt" && [[ -s "$OUT/u.ply" ]] || fail "--png on an unorganized cloud dropped the table or the other outputs"
fi

if ((failures > 0)); then
    echo "check-users: $failures check(s) failed" >&2
    exit 1
fi
echo "check-users: every check passed"
