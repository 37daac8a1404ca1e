#!/usr/bin/env python3
"""Writes a binary PCD (argv[1]) of an organized cloud for scripts/check-users.sh."""
import math, random, struct, sys
# An organized cloud from a camera pitched 20° down, 1.3 m above a floor, 3 m from a wall, with
# no pose: its floor is 20° off the default up (camera −Y).
w, h, f = 160, 120, 150.0
pitch = math.radians(20)
up = (0.0, -math.cos(pitch), -math.sin(pitch))      # world up in camera coordinates
fwd = (0.0, -math.sin(pitch), math.cos(pitch))      # level forward in camera coordinates
random.seed(1)
pts = []
for v in range(h):
    for u in range(w):
        d = ((u - 79.5) / f, (v - 59.5) / f, 1.0)
        best = None
        du = sum(a * b for a, b in zip(up, d))
        if du < 0: best = -1.3 / du                  # floor: up·p = −1.3
        df = sum(a * b for a, b in zip(fwd, d))
        if df > 0:
            t = 3.0 / df                             # wall: fwd·p = 3
            best = t if best is None else min(best, t)
        pts.append(tuple(c * (best if best is not None else float('nan')) + (0 if best is None else random.gauss(0, 0.001)) for c in d))
out = open(sys.argv[1], 'wb')
out.write(("# .PCD v0.7\nVERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH %d\nHEIGHT %d\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS %d\nDATA binary\n" % (w, h, w * h)).encode())
for p in pts: out.write(struct.pack('<3f', *p))
