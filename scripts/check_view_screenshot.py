#!/usr/bin/env python3
"""Checks a screenshot of `planekit view` against the stream's events (scripts/test-view.sh).

    check_view_screenshot.py SCREENSHOT.png EVENTS.ndjson

The page fills each plane anchor with its colour (SegmentationPicture.colour(key:), the
identifier's number as key) at 55 % over the dark background. From the events it takes the
anchors alive at the end, with their classes, and counts the screenshot's pixels of each
anchor's colour. It passes when
  - at least 3 anchors are visible (300 pixels or more each),
  - the floor covers at least 3 % of the picture, and its pixels lie in the lower half of the
    picture on average,
  - and lower than the walls' pixels (the view looks down on the room from above and behind the
    sensor, so walls stand above the floor in the picture).
Prints what it counted. Standard library only (zlib for the PNG).
"""
import json
import struct
import sys
import zlib

BACKGROUND = (0x15, 0x17, 0x1C)
OPACITY = 0.55
TOLERANCE = 30  # RGB distance: antialiasing, points drawn over the fill


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(path + ": not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour_type not in (2, 6) or interlace:
                raise SystemExit("unsupported PNG layout: depth %d, colour type %d" % (depth, colour_type))
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def colour(key):
    """SegmentationPicture.colour(key:) in 32-bit floats."""
    hue = f32(f32(key % 1000003) * f32(0.618034))
    hue = f32(hue - int(hue))
    sector = f32(hue * 6)
    x = f32(sector - int(sector))
    p, q, t = 0.25, f32(1 - f32(0.75 * x)), f32(0.25 + f32(0.75 * x))
    return [(1, t, p), (q, 1, p), (p, 1, t), (p, q, 1), (t, p, 1), (1, p, q)][int(sector) % 6]


def live_planes(events_path):
    planes = {}
    for line in open(events_path):
        event = json.loads(line)
        if event["event"] in ("planeAdded", "planeUpdated"):
            planes[event["plane"]["identifier"]] = event["plane"]["plane"]["classification"]
        elif event["event"] == "planeRemoved":
            planes.pop(event["plane"]["identifier"], None)
    return planes


def main():
    width, height, channels, rows = read_png(sys.argv[1])
    planes = live_planes(sys.argv[2])
    expected = {}
    for identifier in planes:
        c = colour(int(identifier.split("-")[1]))
        expected[identifier] = tuple(OPACITY * 255 * c[i] + (1 - OPACITY) * BACKGROUND[i] for i in range(3))
    counts = {identifier: 0 for identifier in planes}
    row_sums = {identifier: 0 for identifier in planes}
    for y, row in enumerate(rows):
        for x in range(0, width * channels, channels):
            r, g, b = row[x], row[x + 1], row[x + 2]
            best, best_distance = None, TOLERANCE * TOLERANCE
            for identifier, (er, eg, eb) in expected.items():
                d = (r - er) ** 2 + (g - eg) ** 2 + (b - eb) ** 2
                if d <= best_distance:
                    best, best_distance = identifier, d
            if best is not None:
                counts[best] += 1
                row_sums[best] += y
    print("screenshot %dx%d; anchors alive at the end: %d" % (width, height, len(planes)))
    for identifier in sorted(planes, key=lambda s: int(s.split("-")[1])):
        n = counts[identifier]
        mean = row_sums[identifier] / n if n else float("nan")
        print("  %-9s %-8s %7d pixels  mean row %6.1f" % (identifier, planes[identifier], n, mean))

    def mean_row(kind):
        n = sum(counts[i] for i in planes if planes[i] == kind)
        return (sum(row_sums[i] for i in planes if planes[i] == kind) / n if n else None), n

    failures = []
    visible = [i for i in planes if counts[i] >= 300]
    if len(visible) < 3:
        failures.append("only %d anchors visible (300 pixels or more), want 3" % len(visible))
    floor_row, floor_pixels = mean_row("floor")
    wall_row, wall_pixels = mean_row("wall")
    if floor_pixels < 0.03 * width * height:
        failures.append("the floor covers %d pixels, under 3%% of the picture" % floor_pixels)
    elif floor_row < height / 2:
        failures.append("the floor's pixels are mostly in the upper half (mean row %.0f of %d)" % (floor_row, height))
    if wall_pixels >= 300 and floor_row is not None and floor_row <= wall_row:
        failures.append("the floor (mean row %.0f) is not below the walls (mean row %.0f)" % (floor_row, wall_row))
    for failure in failures:
        print("FAIL: " + failure)
    print("view screenshot: " + ("ok" if not failures else "%d problems" % len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
