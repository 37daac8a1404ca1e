#!/usr/bin/env python3
"""Writes the committed seed corpora, Fuzz/corpus/<target>/, from hand-made minimal files.

Every seed is built here from the format's specification (nothing is copied from
../shared/data), small enough that a whole corpus is a few KB. Run it again after changing
it; scripts/fuzz.sh only reads the result.
"""
import json
import math
import os
import shutil
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# A 4 × 3 organized patch of a tilted plane, with one hole (NaN).
POINTS = [(0.1 * u - 0.15, 0.1 * v - 0.1, 1.0 + 0.05 * u) for v in range(3) for u in range(4)]
POINTS[5] = (math.nan, math.nan, math.nan)


def lzf_literals(data):
    """LZF with literal runs only (runs of at most 32 bytes), plus one back reference when the
    data ends with a repeat, so both kinds of LZF instruction appear in the seeds."""
    out = bytearray()
    for i in range(0, len(data), 32):
        chunk = data[i:i + 32]
        out.append(len(chunk) - 1)
        out += chunk
    return bytes(out)


def pcd_header(data, fields="x y z", size="4 4 4", typ="F F F", count="1 1 1", width=4, height=3, points=12):
    return (f"# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\nFIELDS {fields}\nSIZE {size}\n"
            f"TYPE {typ}\nCOUNT {count}\nWIDTH {width}\nHEIGHT {height}\nVIEWPOINT 0 0 0 1 0 0 0\n"
            f"POINTS {points}\nDATA {data}\n").encode()


def pcd_seeds():
    ascii_body = "".join(" ".join("nan" if math.isnan(c) else f"{c:g}" for c in p) + "\n" for p in POINTS)
    write("pcd", "ascii.pcd", pcd_header("ascii") + ascii_body.encode())
    binary = b"".join(struct.pack("<3f", *p) for p in POINTS)
    write("pcd", "binary.pcd", pcd_header("binary") + binary)
    columns = b"".join(struct.pack("<12f", *[p[k] for p in POINTS]) for k in range(3))
    packed = lzf_literals(columns)
    write("pcd", "compressed.pcd", pcd_header("binary_compressed") + struct.pack("<II", len(packed), len(columns)) + packed)
    # A back reference: x column literal (16 bytes), y column "repeat 16 bytes from 16 back"
    # (length 16: 7 in the control byte's top bits, 7 more in the next byte), z column literal.
    x = struct.pack("<4f", 1, 2, 3, 4)
    z = struct.pack("<4f", 5, 5, 5, 5)
    lzf = bytes([15]) + x + bytes([7 << 5, 7, 15]) + bytes([15]) + z
    write("pcd", "backref.pcd", pcd_header("binary_compressed", width=4, height=1, points=4)
          + struct.pack("<II", len(lzf), 48) + lzf)
    rgb = b"".join(struct.pack("<3fI", *p, 0x00FF8040) for p in POINTS if not math.isnan(p[0]))
    write("pcd", "rgb-unorganized.pcd", pcd_header("binary", fields="x y z rgb", size="4 4 4 4", typ="F F F U", count="1 1 1 1",
                                                  width=11, height=1, points=11) + rgb)
    write("pcd", "mixed-types.pcd", pcd_header("ascii", fields="x y z intensity", size="8 4 4 2", typ="F F F U", count="1 1 1 2",
                                              width=2, height=1, points=2) + b"1.5 -2 3 5 65535\n2.5 7 1e2 1 0\n")


def ply_seeds():
    head = "ply\nformat {}\ncomment seed\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\n"
    colour = "property uchar red\nproperty uchar green\nproperty uchar blue\n"
    face = "element face 1\nproperty list uchar int vertex_indices\n"
    good = [p for p in POINTS if not math.isnan(p[0])]
    body = "".join(f"{x:g} {y:g} {z:g} 200 100 50\n" for x, y, z in good)
    write("ply", "ascii.ply", head.format("ascii 1.0", len(good)) + colour + face + "end_header\n" + body + "3 0 1 2\n")
    binary = b"".join(struct.pack("<3f3B", *p, 10, 20, 30) for p in good) + struct.pack("<B3i", 3, 0, 1, 2)
    write("ply", "binary.ply", (head.format("binary_little_endian 1.0", len(good)) + colour + face + "end_header\n").encode() + binary)
    doubles = b"".join(struct.pack("<3d", *p) for p in good[:3])
    write("ply", "double.ply", ("ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty double x\nproperty double y\n"
                                "property double z\nend_header\n").encode() + doubles)


def xyz_seeds():
    write("xyz", "spaces.xyz", "# x y z\n" + "".join(f"{x:g} {y:g} {z:g}\n" for x, y, z in POINTS if not math.isnan(x)))
    write("xyz", "commas.txt", "1.5,2,3,255\n\n-4e-3,\t5 6 # note\r\n7 8 9")


def depth_samples(width, height):
    return [1000 + 7 * u + 13 * v + (0 if (u + v) % 5 else 0) for v in range(height) for u in range(width)]


def pgm_seeds():
    w, h = 6, 4
    samples = depth_samples(w, h)
    write("pgm", "p5-16.pgm", f"P5\n# depth\n{w} {h}\n65535\n".encode() + b"".join(struct.pack(">H", s) for s in samples))
    write("pgm", "p5-8.pgm", f"P5 {w} {h} 255\n".encode() + bytes(s & 0xFF for s in samples))
    write("pgm", "p2.pgm", f"P2\n{w} {h}\n65535\n" + " ".join(str(s) for s in samples) + "\n")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, depth, rows, extra=b""):
    raw = b"".join(bytes([f]) + r for f, r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra + png_chunk(b"IDAT", zlib.compress(raw))
            + png_chunk(b"IEND", b""))


def png_seeds():
    w, h = 6, 4
    samples = depth_samples(w, h)
    rows16 = [(v % 5, b"".join(struct.pack(">H", s) for s in samples[v * w:(v + 1) * w])) for v in range(h)]
    write("png", "gray16-filters.png", png(w, h, 16, rows16, extra=png_chunk(b"tEXt", b"Comment\0seed")))
    rows8 = [(4 - v % 5, bytes(s & 0xFF for s in samples[v * w:(v + 1) * w])) for v in range(h)]
    write("png", "gray8.png", png(w, h, 8, rows8))


def tiff(width, height, big, compression, strip):
    e = ">" if big else "<"
    entries = [(256, 4, width), (257, 4, height), (258, 3, 16), (259, 3, compression), (262, 3, 1),
               (273, 4, 8), (277, 3, 1), (278, 4, height), (279, 4, len(strip))]
    out = (b"MM" if big else b"II") + struct.pack(e + "HI", 42, 8 + len(strip)) + strip + struct.pack(e + "H", len(entries))
    for tag, typ, value in entries:
        out += struct.pack(e + "HHI", tag, typ, 1) + (struct.pack(e + "HH", value, 0) if typ == 3 else struct.pack(e + "I", value))
    return out + struct.pack(e + "I", 0)


def packbits(data):
    out = bytearray()
    i = 0
    while i < len(data):
        run = 1
        while i + run < len(data) and run < 128 and data[i + run] == data[i]:
            run += 1
        if run > 1:
            out += bytes([257 - run, data[i]])
            i += run
        else:
            out += bytes([0, data[i]])
            i += 1
    return bytes(out)


def tiff_seeds():
    w, h = 6, 4
    samples = depth_samples(w, h)
    little = b"".join(struct.pack("<H", s) for s in samples)
    big = b"".join(struct.pack(">H", s) for s in samples)
    write("tiff", "none-le.tif", tiff(w, h, False, 1, little))
    write("tiff", "packbits-be.tif", tiff(w, h, True, 32773, packbits(big)))
    write("tiff", "deflate-le.tif", tiff(w, h, False, 8, zlib.compress(little)))


def sidecar_seeds():
    write("sidecar-json", "full.json", json.dumps({"fx": 525, "fy": 525.5, "cx": 319.5, "cy": 239.5, "depthScale": 0.001,
                                                   "pose": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, 1.4, -2, 1], "t": 0.033}))
    write("sidecar-json", "minimal.json", '{"fx":1,"fy":1,"cx":0,"cy":0}')
    write("sidecar-xml", "camera.xml", """<?xml version="1.0" encoding="UTF-8"?>
<!-- depth camera -->
<camera name="seed">
  <depth>
    <focal_length_x>525.0</focal_length_x>
    <focal_length_y>525.0</focal_length_y>
    <principal_point_x>319.5</principal_point_x>
    <principal_point_y>239.5</principal_point_y>
    <z_multiplication_factor>0.001</z_multiplication_factor>
    <note a="1" b='x &amp; y'>&lt;&#65;&#x42;&gt;<![CDATA[raw]]></note>
    <empty/>
  </depth>
</camera>
""")
    write("sidecar-xml", "minimal.xml", "<c><depth><focal_length_x>1</focal_length_x><focal_length_y>2</focal_length_y>"
          "<principal_point_x>0</principal_point_x><principal_point_y>0</principal_point_y></depth></c>")


# Small frames (a few KB) that the detector still finds the floor and the wall in.
FOCAL = 100


def frame_record(width, height, encoding, payload, **extra):
    header = {"type": "frame", "t": extra.pop("t", 0.0), "width": width, "height": height, "encoding": encoding,
              "intrinsics": {"fx": FOCAL, "fy": FOCAL, "cx": (width - 1) / 2, "cy": (height - 1) / 2}, "bytes": len(payload)}
    header.update(extra)
    if header["intrinsics"] is None:
        del header["intrinsics"]  # xyz32f without intrinsics: the stream fits them
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + payload


def floor_depth(width, height):
    """Depths of a floor 1.2 m below a camera pitched down, and a wall 2 m ahead, in metres."""
    out = []
    for v in range(height):
        for u in range(width):
            ray_y = (v - (height - 1) / 2) / FOCAL + 0.3
            out.append(min(2.0, 1.2 / ray_y) if ray_y > 0 else 2.0)
    return out


def stream_seeds():
    w, h = 80, 60
    depth = floor_depth(w, h)
    d16 = b"".join(struct.pack("<H", int(z * 1000)) for z in depth)
    d32 = b"".join(struct.pack("<f", z) for z in depth)
    xw, xh = 40, 30  # xyz32f is 12 bytes a pixel: a smaller frame
    xyz = b"".join(struct.pack("<3f", (i % xw - (xw - 1) / 2) / FOCAL * z, (i // xw - (xh - 1) / 2) / FOCAL * z, z)
                   for i, z in enumerate(floor_depth(xw, xh)))
    pose = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1.4, 0, 1]
    commands = [
        {"type": "tap", "x": 40, "y": 50, "name": "chair", "size": [0.5, 0.8, 0.5]},
        {"type": "drag", "object": "object-1", "x": 30, "y": 52},
        {"type": "rotate", "object": "object-1", "angle": 0.5},
        {"type": "raycast", "x": 40, "y": 10, "target": "existingPlaneGeometry", "alignment": "any"},
        {"type": "raycast", "origin": [0, 1.4, 0], "direction": [0, -1, 0.2], "target": "any"},
        {"type": "remove", "object": "object-1"},
    ]
    lines = b"".join(json.dumps(c, separators=(",", ":")).encode() + b"\n" for c in commands)
    frames = b"".join(frame_record(w, h, "depth16", d16, t=i / 30, pose=pose, depthScale=0.001) for i in range(2))
    write("stream", "depth16-commands.bin", frames + lines)
    write("stream", "depth32f.bin", frame_record(w, h, "depth32f", d32, maxDepth=5.0) + b"\r\n  \n")
    write("stream", "xyz32f.bin", frame_record(xw, xh, "xyz32f", xyz, t=0.5, intrinsics=None)
          + lines[:120])
    write("stream", "bad-records.bin", b'{"type":"frame","t":1,"width":2,"height":2,"encoding":"depth16","bytes":3}\nabc'
          + b'{"type":"teleport"}\n{"t":1,"t":2}\n' + b'{"type":"tap","x":"1","y":2}\n')


def world_map_seeds():
    """A small world map written from docs/world-map.md: a floor and a wall anchor, an object,
    two keyframes and a few points; and its body alone (the target also decodes raw bodies)."""
    def transform(rotation_columns, translation):
        return b"".join(struct.pack("<3f", *c) for c in rotation_columns) + struct.pack("<3f", *translation)
    identity = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    def anchor(ident, frame, normal, offset, centroid, area, alignment, classification, runs, boundary):
        data = struct.pack("<Q", ident) + transform(*frame) + struct.pack("<f", 0.05) + transform(*frame)
        data += struct.pack("<3ff3f", *normal, offset, *centroid)
        data += struct.pack("<4f", 0, 0, 1, 1) + struct.pack("<2f", area, 0.001) + struct.pack("<q", 1000)
        data += struct.pack("<BB", alignment, classification)
        data += struct.pack("<q9d", 100, *(c * 100 for c in centroid), 1, 1, 1, 0, 0, 0)
        data += struct.pack("<3q", 0, 5, 6)
        data += struct.pack("<I", len(boundary)) + b"".join(struct.pack("<2f", *v) for v in boundary)
        data += struct.pack("<I", len(runs)) + b"".join(struct.pack("<hhH", *r) for r in runs)
        return data
    square = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    runs = [(r, -10, 20) for r in range(-10, 10)]
    # A wall facing +Z: local +Y (the normal) along world +Z.
    wall = ([(1, 0, 0), (0, 0, 1), (0, -1, 0)], (0, 1.2, -2))
    body = struct.pack("<BQQ", 3, 3, 2)
    body += struct.pack("<I", 2)
    body += anchor(1, (identity, (0, 0, 0)), (0, 1, 0), 0, (0, 0, 0), 1.0, 0, 0, runs, square)
    body += anchor(2, wall, (0, 0, 1), 2, (0, 1.2, -2), 1.0, 1, 2, runs, square)
    name = "chair".encode()
    body += struct.pack("<I", 1) + struct.pack("<QH", 1, len(name)) + name + struct.pack("<3f", 0.5, 0.8, 0.5)
    body += transform(identity, (0.3, 0, 0.2)) + struct.pack("<QB", 1, 0)
    body += struct.pack("<I", 2) + transform(identity, (0, 1.4, 1)) + transform(identity, (0.5, 1.4, 1))
    points = [((x * 0.1, 0, z * 0.1), (0, 127, 0)) for x in range(-2, 3) for z in range(-2, 3)]
    body += struct.pack("<I", len(points)) + b"".join(struct.pack("<3f3b", *p, *n) for p, n in points)
    compressed = zlib.compress(body, 9)
    header = b"PKWMAP" + struct.pack("<HIII", 1, len(body), len(compressed), zlib.crc32(body) & 0xFFFFFFFF)
    write("world-map", "room.pkmap", header + compressed)
    write("world-map", "body.bin", body)


if __name__ == "__main__":
    shutil.rmtree(ROOT, ignore_errors=True)
    for make in (pcd_seeds, ply_seeds, xyz_seeds, pgm_seeds, png_seeds, tiff_seeds, sidecar_seeds, stream_seeds, world_map_seeds):
        make()
