#!/usr/bin/env python3
"""Rewrites a generated walk (planekit synth --depth-dir WALK) in the layouts of the public RGB-D
data sets, with its true poses as the reference: a 7-Scenes sequence in SEVEN and a TUM RGB-D
folder in TUM. With --camera-matrix, SEVEN also gets a camera-intrinsics.txt of the walk's
525, 525, 319.5, 239.5 camera. Used by check-sequences.sh and check-users.sh.

    walk_layouts.py WALK SEVEN TUM [--camera-matrix]
"""
import json, math, os, shutil, sys

walk, seven, tum = sys.argv[1:4]
os.makedirs(seven)
os.makedirs(os.path.join(tum, "depth"))
if "--camera-matrix" in sys.argv[4:]:
    open(os.path.join(seven, "camera-intrinsics.txt"), "w").write("525 0 319.5\n0 525 239.5\n0 0 1\n")
depth_txt = ["# depth maps"]
truth_txt = ["# timestamp tx ty tz qx qy qz qw"]
for name in sorted(n for n in os.listdir(walk) if n.endswith(".json")):
    stem = name[:-5]
    record = json.load(open(os.path.join(walk, name)))
    m, t = record["pose"], record["t"]          # column-major world-from-camera
    # 7-Scenes: frame-NNNNNN.depth.png (millimetres) and the 4×4 pose row by row.
    shutil.copy(os.path.join(walk, stem + ".png"), os.path.join(seven, stem + ".depth.png"))
    with open(os.path.join(seven, stem + ".pose.txt"), "w") as f:
        for r in range(4):
            f.write("\t".join("%.9e" % m[c * 4 + r] for c in range(4)) + "\t\n")
    # TUM: depth/<t>.png at 5000 units per metre would need rescaling; keep millimetres and say
    # so with --depth-scale 0.001. Poses as translation and quaternion, 10 ms after the frame.
    stamp = "%.6f" % (1000 + t)
    shutil.copy(os.path.join(walk, stem + ".png"), os.path.join(tum, "depth", stamp + ".png"))
    depth_txt.append("%s depth/%s.png" % (stamp, stamp))
    r = [[m[c * 4 + row] for c in range(3)] for row in range(3)]
    w = math.sqrt(max(0.0, 1 + r[0][0] + r[1][1] + r[2][2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + r[0][0] - r[1][1] - r[2][2])) / 2, r[2][1] - r[1][2])
    y = math.copysign(math.sqrt(max(0.0, 1 - r[0][0] + r[1][1] - r[2][2])) / 2, r[0][2] - r[2][0])
    z = math.copysign(math.sqrt(max(0.0, 1 - r[0][0] - r[1][1] + r[2][2])) / 2, r[1][0] - r[0][1])
    truth_txt.append("%.6f %.9f %.9f %.9f %.9f %.9f %.9f %.9f" % (1000 + t + 0.01, m[12], m[13], m[14], x, y, z, w))
open(os.path.join(tum, "depth.txt"), "w").write("\n".join(depth_txt) + "\n")
open(os.path.join(tum, "groundtruth.txt"), "w").write("\n".join(truth_txt) + "\n")
