#!/usr/bin/env python3
"""Reads `planekit stream` events on stdin and prints the stream's frame rate, for
scripts/bench-view.sh: frames per second between the first and the last `focus` event (one per
frame), so process start-up and the end of the run are left out."""
import sys
import time

first = last = None
frames = 0
for line in sys.stdin.buffer:
    if b'"event":"focus"' in line:
        now = time.perf_counter()
        if first is None:
            first = now
        last = now
        frames += 1
if frames < 2:
    sys.exit("event_clock: fewer than 2 frames")
print("%d %.1f" % (frames, (frames - 1) / (last - first)))
