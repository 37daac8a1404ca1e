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
"$PLANEKIT" synth --frames 3 > "$OUT/three.stream"
{ cat "$OUT/three.stream"; sleep 30; } | "$PLANEKIT" stream --save-map "$OUT/interrupted.pkmap" > "$OUT/int.ndjson" 2> "$OUT/int.err" &
pid=$!
# Events are buffered until the end, so there is nothing to watch: three frames take well
# under a second, after which the stream waits in its read.
sleep 3
stream_pid=$(pgrep -P $$ -f 'planekit stream --save-map' | head -n 1 || true)
[[ -n "$stream_pid" ]] && kill -INT "$stream_pid"
wait $pid || status=$?
[[ $status == 130 ]] || fail "stream --save-map after SIGINT exited $status, expected 130: $(head -c 300 "$OUT/int.err")"
[[ $(wc -l < "$OUT/int.err") == 1 ]] && grep -q 'saved the world map to' "$OUT/int.err" || fail "stream did not say it saved the map on SIGINT: $(head -c 300 "$OUT/int.err")"
"$PLANEKIT" map info "$OUT/interrupted.pkmap" > /dev/null || fail "the map written on SIGINT does not load"
grep -q '"frame":2' "$OUT/int.ndjson" || fail "the events of the frames before SIGINT were not written"

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

# 7. Units: the laser scan in centimetres prints metres with --units cm; with its up (+Y) the
# plane above the scanner is the ceiling.
scan=$data/andreashaus/scan000.pcd
if [[ -f "$scan" ]]; then
    "$PLANEKIT" analyze --units cm --up 0,1,0 "$scan" > "$OUT/scan.txt" 2> "$OUT/scan.err" || fail "analyze --units cm of $scan failed: $(head -c 300 "$OUT/scan.err")"
    python3 - "$OUT/scan.txt" <<'PY' || fail "analyze --units cm of the scan does not print metres: $(head -n 4 "$OUT/scan.txt")"
import re, sys
rows = [l for l in open(sys.argv[1]) if re.match(r'^ +\d+ ', l)]
offsets = [float(re.findall(r'([-\d.]+)m ', l)[0]) for l in rows]
assert rows and max(offsets) < 20, offsets
assert any(' ceiling ' in l and 'horizontal' in l for l in rows[:3])
PY
    status=0
    "$PLANEKIT" analyze --units inch "$scan" > /dev/null 2> "$OUT/units.err" || status=$?
    [[ $status != 0 ]] && grep -q -- '--units must be m, cm, mm' "$OUT/units.err" || fail "a bad --units was not refused clearly: $(head -c 300 "$OUT/units.err")"
fi

# 8. A tilted camera without a pose: one hint naming --up when no plane is horizontal under the
# default up but a large plane is 20° off; none once --up is given.
python3 scripts/tilted_cloud.py "$OUT/tilted.pcd"
"$PLANEKIT" analyze "$OUT/tilted.pcd" > "$OUT/tilted.txt" 2> "$OUT/tilted.err"
[[ $(grep -c 'hint: .*--up' "$OUT/tilted.err") == 1 ]] || fail "a tilted camera without a pose gave no --up hint: $(head -c 300 "$OUT/tilted.err")"
"$PLANEKIT" raycast --pixel 80,100 "$OUT/tilted.pcd" > /dev/null 2> "$OUT/tilted-ray.err"
[[ $(grep -c 'hint: .*--up' "$OUT/tilted-ray.err") == 1 ]] || fail "raycast on a tilted camera without a pose gave no --up hint"
up=$(sed -n 's/.*e\.g\. --up \([-0-9.,]*\) .*/\1/p' "$OUT/tilted.err")
"$PLANEKIT" analyze --up "$up" "$OUT/tilted.pcd" > "$OUT/tilted-up.txt" 2> "$OUT/tilted-up.err"
grep -q ' floor ' "$OUT/tilted-up.txt" && [[ ! -s "$OUT/tilted-up.err" ]] || fail "the suggested --up $up did not give a floor without a hint"

# 9. Plane outputs: the mesh (PLY and OBJ) has one part per plane; the labelled PLY and the
# PointXYZL PCD carry the label image; --indices select exactly the labelled pixels.
"$PLANEKIT" analyze --json --indices --labels "$OUT/room-labels.pgm" --mesh "$OUT/mesh.ply" --ply "$OUT/labelled.ply" \
    --pcd "$OUT/labelled.pcd" samples/room-depth.png > "$OUT/room.json"
"$PLANEKIT" analyze --mesh "$OUT/mesh.obj" samples/room-depth.png > /dev/null
python3 - "$OUT" <<'PY' || fail "the plane outputs do not round-trip (mesh parts, labels, --indices)"
import json, struct, sys
out = sys.argv[1]
report = json.load(open(out + '/room.json'))[0]
planes = report['planes']
assert len(planes) >= 5
pgm = open(out + '/room-labels.pgm', 'rb').read().split(b'\n', 3)
width, height = map(int, pgm[1].split())
labels = struct.unpack('>%dH' % (width * height), pgm[3][:2 * width * height])
# --indices: exactly the pixels labelled k, row-major.
for k, plane in enumerate(planes, 1):
    assert plane['indices'] == [i for i, l in enumerate(labels) if l == k], f'plane {k} indices'
    assert len(plane['indices']) == plane['pointCount']
# The PLY mesh: one label per part, every plane present, faces within one part.
text = open(out + '/mesh.ply').read().split('end_header\n')
head, body = text[0], text[1].splitlines()
nv = int(head.split('element vertex ')[1].split()[0]); nf = int(head.split('element face ')[1].split()[0])
vlabel = [int(l.split()[6]) for l in body[:nv]]
assert sorted(set(vlabel)) == list(range(1, len(planes) + 1)), sorted(set(vlabel))
for line in body[nv:nv + nf]:
    n, *idx = map(int, line.split())
    assert n == 3 and len({vlabel[i] for i in idx}) == 1
# The OBJ mesh: one object per plane.
objects = [l.split()[1] for l in open(out + '/mesh.obj') if l.startswith('o ')]
assert objects == ['plane-%d' % k for k in range(1, len(planes) + 1)], objects
# The PointXYZL PCD: the label image, point by point.
pcd = open(out + '/labelled.pcd', 'rb').read()
head, body = pcd.split(b'DATA binary\n', 1)
assert b'FIELDS x y z label\n' in head and b'TYPE F F F U\n' in head
assert [struct.unpack_from('<I', body, 16 * i + 12)[0] for i in range(width * height)] == list(labels)
# The labelled PLY: a uint label per finite point, counts as the table's.
ply = open(out + '/labelled.ply', 'rb').read()
head, body = ply.split(b'end_header\n', 1)
assert b'property uint label\n' in head
n = int(head.split(b'element vertex ')[1].split()[0])
counts = {}
for i in range(n):
    l = struct.unpack_from('<I', body, 19 * i + 15)[0]
    counts[l] = counts.get(l, 0) + 1
assert all(counts.get(k) == p['pointCount'] for k, p in enumerate(planes, 1)), counts
PY
"$PLANEKIT" analyze "$OUT/labelled.pcd" > /dev/null 2>&1 || fail "PlaneKit cannot read back its own PointXYZL PCD"
# PCL's own readers (the library the bridge uses): the mesh has one part per plane, the
# PointXYZL cloud as many labelled points as the planes have.
pcl_include=$(ls -d /usr/include/pcl-1.* 2> /dev/null | tail -n 1 || true)
if [[ -n "$pcl_include" ]] && command -v g++ > /dev/null &&
    g++ -O0 -std=c++17 -I"$pcl_include" -I/usr/include/eigen3 scripts/pcl_read_back.cpp -o "$OUT/pcl_read_back" -lpcl_io -lpcl_common 2> "$OUT/gxx.err"; then
    planes=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[0]['planes']))" "$OUT/room.json")
    labelled=$(python3 -c "import json,sys; print(sum(p['pointCount'] for p in json.load(open(sys.argv[1]))[0]['planes']))" "$OUT/room.json")
    "$OUT/pcl_read_back" mesh "$OUT/mesh.ply" | grep -q " parts $planes\$" || fail "PCL reads the mesh as $("$OUT/pcl_read_back" mesh "$OUT/mesh.ply"), expected $planes parts"
    "$OUT/pcl_read_back" labels "$OUT/labelled.pcd" | grep -q "^points 307200 labelled $labelled width 640 height 480$" ||
        fail "PCL reads the PointXYZL cloud as $("$OUT/pcl_read_back" labels "$OUT/labelled.pcd"), expected $labelled labelled"
else
    echo "check-users: PCL headers or g++ missing: the PCL read-back is skipped" >&2
fi

# 10. Tuning over --sensor: a minimum plane in points or m², a distance in metres, a merge angle.
"$PLANEKIT" analyze --min-plane 40000 --json samples/room-depth.png > "$OUT/min.json" 2> "$OUT/tune.err" || fail "--min-plane 40000 refused: $(head -c 300 "$OUT/tune.err")"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))[0]['planes']; sys.exit(0 if p and min(x['pointCount'] for x in p) >= 40000 else 1)" "$OUT/min.json" ||
    fail "--min-plane 40000 kept a smaller plane"
"$PLANEKIT" analyze --min-plane 0.5m2 --json samples/room-depth.png > "$OUT/area.json" || fail "--min-plane 0.5m2 refused"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))[0]['planes']; sys.exit(0 if p and min(x['area'] for x in p) >= 0.5 and [x['label'] for x in p] == list(range(1, len(p)+1)) else 1)" "$OUT/area.json" ||
    fail "--min-plane 0.5m2 kept a smaller plane or left gaps in the labels"
"$PLANEKIT" analyze --distance-threshold 0.01m --merge-angle 10 samples/room-depth.png > "$OUT/dist.txt" || fail "--distance-threshold 0.01m --merge-angle 10 refused"
grep -q 'noise 0.0033;' "$OUT/dist.txt" || fail "--distance-threshold 0.01m did not set a constant noise of 0.01/3 m: $(head -n 1 "$OUT/dist.txt")"
for bad in "--merge-angle 100" "--distance-threshold 2cm" "--min-plane 2"; do
    status=0
    # shellcheck disable=SC2086
    "$PLANEKIT" analyze $bad samples/room-depth.png > /dev/null 2> "$OUT/bad.err" || status=$?
    [[ $status != 0 ]] && grep -q -- "${bad%% *} must be" "$OUT/bad.err" || fail "analyze $bad was not refused clearly: $(head -c 300 "$OUT/bad.err")"
done
planes_default=$("$PLANEKIT" stream < "$OUT/walk.stream" | grep -c '"event":"planeAdded"' || true)
planes_tuned=$("$PLANEKIT" stream --min-plane 120000 < "$OUT/walk.stream" | grep -c '"event":"planeAdded"' || true)
((planes_tuned < planes_default)) || fail "stream --min-plane 120000 added $planes_tuned planes, the default $planes_default"

# 11. encode --sequence: a generated walk rewritten as a 7-Scenes sequence (with its
# camera-intrinsics.txt) and as a TUM folder streams to the events of the walk's own files and
# poses; the real 7-Scenes frames stream with their poses.
"$PLANEKIT" synth --seed 4 --frames 45 --depth-dir "$OUT/swalk" > /dev/null
python3 scripts/walk_layouts.py "$OUT/swalk" "$OUT/seven" "$OUT/tum" --camera-matrix
ls "$OUT"/swalk/*.png | "$PLANEKIT" encode | "$PLANEKIT" stream > "$OUT/files.ndjson"
"$PLANEKIT" encode --sequence "$OUT/seven" | "$PLANEKIT" stream > "$OUT/seven.ndjson" 2> "$OUT/seven.err" || fail "encode --sequence (7-Scenes) | stream failed: $(head -c 300 "$OUT/seven.err")"
"$PLANEKIT" encode --sequence "$OUT/tum" --intrinsics 525,525,319.5,239.5 --depth-scale 0.001 | "$PLANEKIT" stream > "$OUT/tum.ndjson" 2> "$OUT/tum.err" ||
    fail "encode --sequence (TUM) | stream failed: $(head -c 300 "$OUT/tum.err")"
python3 - "$OUT" <<'PY' || fail "encode --sequence does not stream to the events of the walk's own files and poses"
import json, sys
out = sys.argv[1]
def events(name): return [json.loads(l) for l in open('%s/%s.ndjson' % (out, name))]
files, seven, tum = events('files'), events('seven'), events('tum')
assert len([e for e in files if e['event'] == 'camera']) == 45
assert seven == files, 'the 7-Scenes layout streams to other events'
# TUM poses go through a quaternion: the same frames and poses within 1e-5.
cams = lambda es: [e for e in es if e['event'] == 'camera']
assert len(cams(tum)) == 45
for a, b in zip(cams(tum), cams(files)):
    assert abs(a['timestamp'] - b['timestamp']) < 1e-5
    assert max(abs(p - q) for p, q in zip(a['transform']['columnMajor'], b['transform']['columnMajor'])) < 1e-5
PY
mkdir "$OUT/not-a-walk"
status=0
"$PLANEKIT" encode --sequence "$OUT/not-a-walk" > /dev/null 2> "$OUT/not-a-walk.err" || status=$?
[[ $status == 1 && $(wc -l < "$OUT/not-a-walk.err") == 1 ]] && grep -q 'neither a TUM RGB-D folder' "$OUT/not-a-walk.err" ||
    fail "encode --sequence of a folder in neither layout should be one line and status 1, got $status: $(head -c 300 "$OUT/not-a-walk.err")"
kitchen=$data/7scenes-redkitchen-dev
if [[ -d "$kitchen" ]]; then
    "$PLANEKIT" encode --sequence "$kitchen" | "$PLANEKIT" stream > "$OUT/kitchen.ndjson" 2> "$OUT/kitchen.err" || fail "encode --sequence $kitchen | stream failed: $(head -c 300 "$OUT/kitchen.err")"
    python3 - "$OUT/kitchen.ndjson" "$kitchen" <<'PY' || fail "the 7-Scenes frames do not stream with their poses"
import json, os, sys
cams = [e for e in map(json.loads, open(sys.argv[1])) if e['event'] == 'camera']
frames = sorted(n for n in os.listdir(sys.argv[2]) if n.endswith('.depth.png'))
assert len(cams) == len(frames) == 500, (len(cams), len(frames))
for k in (0, 250, 499):
    rows = [float(v) for v in open(os.path.join(sys.argv[2], frames[k].replace('.depth.png', '.pose.txt'))).read().split()]
    expected = [rows[(i % 4) * 4 + i // 4] for i in range(16)]
    assert max(abs(a - b) for a, b in zip(cams[k]['transform']['columnMajor'], expected)) < 1e-4, k
    assert abs(cams[k]['timestamp'] - k / 30) < 1e-9
PY
    # Its gravity-direction.txt becomes each frame's gravity: the pose's rotation, transposed, times it.
    "$PLANEKIT" encode --sequence "$kitchen" | python3 -c '
import json, sys
header = json.loads(sys.stdin.buffer.readline())
sys.stdin.buffer.read()
m = header["pose"]
g = [float(v) for v in open(sys.argv[1] + "/gravity-direction.txt").read().split()]
expected = [sum(m[4 * c + r] * g[r] for r in range(3)) for c in range(3)]
assert max(abs(a - b) for a, b in zip(header["gravity"], expected)) < 1e-5, (header.get("gravity"), expected)
' "$kitchen" || fail "encode --sequence does not give the 7-Scenes frames the walk's gravity"
fi

# 12. Big-endian binary PLY reads as its little-endian twin (through PCL for unorganized clouds).
python3 - "$OUT" <<'PY'
import random, struct, sys
random.seed(3)
pts = [(random.uniform(-1, 1), random.uniform(-1, 1), 2 + random.gauss(0, 0.002)) for _ in range(3000)]
pts += [(random.uniform(-1, 1), 1 + random.gauss(0, 0.002), random.uniform(1, 3)) for _ in range(3000)]
for order, name in (('<', 'little'), ('>', 'big')):
    with open('%s/%s.ply' % (sys.argv[1], name), 'wb') as f:
        f.write(('ply\nformat binary_%s_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\nproperty double z\nend_header\n' % (name, len(pts))).encode())
        for x, y, z in pts: f.write(struct.pack(order + 'ffd', x, y, z))
PY
if [[ -f .build/release/libPlaneKitPCLBridge.so ]]; then
    "$PLANEKIT" analyze "$OUT/little.ply" 2>&1 | tail -n +2 > "$OUT/little.txt"
    "$PLANEKIT" analyze "$OUT/big.ply" > "$OUT/big-full.txt" 2> "$OUT/big.err" || fail "big-endian PLY refused: $(head -c 300 "$OUT/big.err")"
    tail -n +2 "$OUT/big-full.txt" > "$OUT/big.txt"
    grep -q '^  2 ' "$OUT/big.txt" && cmp -s "$OUT/little.txt" "$OUT/big.txt" || fail "big-endian PLY does not read as its little-endian twin"
fi

if ((failures > 0)); then
    echo "check-users: $failures check(s) failed" >&2
    exit 1
fi
echo "check-users: every check passed"
