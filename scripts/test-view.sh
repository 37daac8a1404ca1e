#!/usr/bin/env bash
# Browser test of `planekit view` (issue 15), run by scripts/test.sh after the Swift tests.
#
#   scripts/test-view.sh [--update-docs]
#
# Then `planekit view --map` of the walk's saved map: its snapshot (fetched over HTTP, no browser)
# must hold the walk's final planes and objects by identifier, its keyframe path and `end`.
#
# Then a shared space observed: `planekit stream --host` runs the same walk and lingers, `planekit
# view --join` observes it, and the same screenshot check runs on the observer's page against the
# host's events (the planes come from the host's world map and its live anchors).
#
# Serves a known generated walk (synth --frames 60 --seed 4 --taps 1) with `planekit view
# --hold`, loads the page in Debian's headless Chromium (software WebGL: SwiftShader), takes a
# screenshot and checks its pixels against the stream's events (scripts/check_view_screenshot.py:
# at least 3 anchors visible in their colours, the floor in the lower part of the picture and
# below the walls). Every wait is bounded. --update-docs also copies the screenshot to
# docs/view.png for the README.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BIN=${PLANEKIT:-"$ROOT/.build/release/planekit"}
[ -x "$BIN" ] || swift build -c release >&2
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    echo "test-view: chromium is not installed (scripts/install-deps.sh installs Debian's chromium)" >&2
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/test-view.XXXXXX")
VIEW=
MAPVIEW=
HOST=
OBSERVER=
cleanup() {
    [ -n "$VIEW" ] && kill "$VIEW" 2>/dev/null || true
    [ -n "$MAPVIEW" ] && kill "$MAPVIEW" 2>/dev/null || true
    [ -n "$OBSERVER" ] && kill "$OBSERVER" 2>/dev/null || true
    [ -n "$HOST" ] && kill "$HOST" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" synth --frames 60 --seed 4 --taps 1 > "$WORK/walk.stream"
"$BIN" stream --save-map "$WORK/room.pkmap" < "$WORK/walk.stream" > "$WORK/events.ndjson" 2>/dev/null

# await_log LOG TEXT PID SECONDS WHAT: waits until LOG holds TEXT (or PID ends, or SECONDS pass);
# says that WHAT did not happen, with the log, and fails otherwise.
await_log() {
    local _
    for _ in $(seq $(($4 * 10))); do
        grep -q "$2" "$1" && return 0
        kill -0 "$3" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "$2" "$1" && return 0
    echo "test-view: $5:" >&2
    cat "$1" >&2
    exit 1
}

# served_url LOG: the page's address a `planekit view` printed to LOG.
served_url() {
    sed -n 's/.*view at \(http:[^ ]*\).*/\1/p' "$1" | head -n 1
}

timeout 300 "$BIN" view --listen 127.0.0.1:0 --hold < "$WORK/walk.stream" 2> "$WORK/view.log" &
VIEW=$!
# The page is loaded once the whole walk is in (at most 120 s).
await_log "$WORK/view.log" "input ended" "$VIEW" 120 "planekit view did not finish its input"
URL=$(served_url "$WORK/view.log")

# screenshot_and_check URL NAME EVENTS: loads URL in headless Chromium, keeps the screenshot as
# ${TMPDIR:-/tmp}/planekit-NAME-test.png and checks its pixels against EVENTS; fails otherwise.
# SwiftShader is Chromium's own software GL, so WebGL works with no GPU and no display; root
# needs --no-sandbox. The virtual time budget lets the page load, fetch the state and draw.
screenshot_and_check() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-dev-shm-usage --no-first-run \
        --use-angle=swiftshader --enable-unsafe-swiftshader --hide-scrollbars --window-size=960,640 \
        --user-data-dir="$WORK/profile-$2" --virtual-time-budget=10000 \
        --screenshot="$WORK/$2.png" "$1" > "$WORK/chromium-$2.log" 2>&1 || {
        echo "test-view: chromium failed on the $2 page:" >&2
        tail -n 20 "$WORK/chromium-$2.log" >&2
        exit 1
    }
    [ -s "$WORK/$2.png" ] || { echo "test-view: chromium wrote no screenshot of the $2 page" >&2; exit 1; }
    # Kept for a person to look at, whatever the check says.
    local kept="${TMPDIR:-/tmp}/planekit-$2-test.png"
    cp "$WORK/$2.png" "$kept"
    if ! python3 scripts/check_view_screenshot.py "$WORK/$2.png" "$3"; then
        echo "test-view: the screenshot is in $kept" >&2
        exit 1
    fi
}

screenshot_and_check "$URL" view "$WORK/events.ndjson"
if [ "${1:-}" = "--update-docs" ]; then
    cp "$WORK/view.png" docs/view.png
    echo "test-view: docs/view.png updated" >&2
fi
kill "$VIEW" 2>/dev/null || true

# The walk's saved map, served without a stream: the same planes and objects, and a path.
timeout 60 "$BIN" view --map "$WORK/room.pkmap" --listen 127.0.0.1:0 2> "$WORK/map.log" &
MAPVIEW=$!
await_log "$WORK/map.log" "until interrupted" "$MAPVIEW" 20 "planekit view --map did not start"
MAPURL=$(served_url "$WORK/map.log")
python3 - "$MAPURL" "$WORK/events.ndjson" <<'PY'
import json, sys, urllib.request
url, events = sys.argv[1], sys.argv[2]
planes, objects = {}, set()
for line in open(events):
    e = json.loads(line)
    kind = e.get("event")
    if kind in ("planeAdded", "planeUpdated"): planes[e["plane"]["identifier"]] = e["plane"]["plane"]["classification"]
    elif kind == "planeRemoved": planes.pop(e["plane"]["identifier"], None)
    elif kind in ("objectAdded", "objectMoved", "objectSnapped"): objects.add(e["object"]["identifier"])
    elif kind == "objectRemoved": objects.discard(e["object"]["identifier"])
lines = [json.loads(l) for l in urllib.request.urlopen(url + "snapshot.ndjson", timeout=10).read().decode().splitlines()]
shown = {l["plane"]["identifier"]: l["plane"]["plane"]["classification"] for l in lines if l["event"] == "planeAdded"}
shown_objects = {l["object"]["identifier"] for l in lines if l["event"] == "objectAdded"}
path = next(l["positions"] for l in lines if l["event"] == "path")
ok = shown == planes and shown_objects == objects and len(path) >= 2 and lines[-1]["event"] == "end"
print("test-view: map view: %d planes (stream ended with %d), %d objects (%d), %d keyframes in the path: %s"
      % (len(shown), len(planes), len(shown_objects), len(objects), len(path), "ok" if ok else "MISMATCH"), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
kill "$MAPVIEW" 2>/dev/null || true

# The same walk hosted as a shared space (lingering after its input), observed by `view --join`:
# its page must show the host's planes as the stream's own view does.
SECRET="planekit test-view"
timeout 180 "$BIN" stream --host 127.0.0.1:0 --secret "$SECRET" --name host --linger 60 \
    < "$WORK/walk.stream" > "$WORK/host.ndjson" 2> "$WORK/host.log" &
HOST=$!
await_log "$WORK/host.log" "hosting a shared space on" "$HOST" 60 "planekit stream --host did not start"
PORT=$(sed -n 's/.*hosting a shared space on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/host.log" | head -n 1)
# The host has streamed the whole walk once its last frame's events are out (the walk's frames
# come from a file, so that takes seconds); the observer then gets them all with the map.
for _ in $(seq 600); do
    [ "$(grep -c '"event":"camera"' "$WORK/host.ndjson" || true)" -ge 60 ] && break
    kill -0 "$HOST" 2>/dev/null || break
    sleep 0.1
done
timeout 120 "$BIN" view --join "127.0.0.1:$PORT" --secret "$SECRET" --name observer --listen 127.0.0.1:0 \
    2> "$WORK/observer.log" &
OBSERVER=$!
await_log "$WORK/observer.log" "until interrupted" "$OBSERVER" 30 "planekit view --join did not observe the space"
OBSERVERURL=$(served_url "$WORK/observer.log")
screenshot_and_check "$OBSERVERURL" observer "$WORK/host.ndjson"
if [ "${1:-}" = "--update-docs" ]; then
    cp "$WORK/observer.png" docs/view-observer.png
    echo "test-view: docs/view-observer.png updated" >&2
fi
