"""PlaneKit next to Open3D on the same frames, in one process: time per frame and Hoover accuracy.

    scripts/bench-python.sh                     # builds, installs, runs this (see docs/python.md)
    python open3d_side_by_side.py --rooms 5 --repeat 3

Frames: the SegComp ABW dev range images (../shared/data/segcomp-abw-dev, with ground truth),
generated rooms (`planekit synth`, with their true labels) and PCL's real Kinect frames
(../shared/data/pcl, no ground truth: time and plane count only). Methods:

  planekit      planekit.detect_planes(cloud), sensor auto;
  segment_plane Open3D's RANSAC, called in a loop on the points left until the best plane has
                fewer than --min-points inliers (or 30 planes), as its users extract every plane;
                distance threshold 1 cm (4 mm on the ABW scans, whose depth steps are 1.3 mm);
  patches       Open3D's detect_planar_patches with its documented example settings, normals
                from 30 nearest neighbours (their time included); a point's segment is the first
                patch whose oriented box contains it.

Accuracy is Hoover et al.'s at T = 0.8 (planekit.evaluate): correct detections of all true regions
(recall) and of all segments (precision). Times are medians over --repeat runs, in milliseconds.
Last, the cost of going through Python (measured first, before Open3D is loaded): detect_planes
on a VGA uint16 depth image (the sample room) timed around the call, against the time the library
measures inside the same call.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional

import numpy as np

import planekit

# Open3D is imported after the overhead measurement (see main): its thread pools and ~100 MB of
# libraries are no part of what planekit costs.
o3d = None

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = REPOSITORY.parent / "shared" / "data"


@dataclass
class Frame:
    """One benchmark frame: its cloud, ground truth (or None) and the segment_plane threshold."""

    group: str
    name: str
    cloud: planekit.PointCloud
    truth: Optional[np.ndarray]
    distance_threshold: float
    min_points: int


def abw_frames() -> List[Frame]:
    folder = DATA / "segcomp-abw-dev"
    return [Frame("ABW dev", path.stem, planekit.read(path), planekit.read_labels(folder / "gt" / f"{path.stem}.labels.pgm"),
                  0.004, 500)
            for path in sorted(folder.glob("abw*.pcd"))]


def room_frames(cli: Path, count: int, folder: Path) -> List[Frame]:
    frames = []
    for seed in range(1, count + 1):
        depth, labels = folder / f"room{seed}.png", folder / f"room{seed}.pgm"
        subprocess.run([str(cli), "synth", "--seed", str(seed), "--depth", str(depth), "--labels", str(labels)],
                       check=True, capture_output=True)
        frames.append(Frame("generated rooms", f"room{seed}", planekit.read(depth), planekit.read_labels(labels), 0.01, 1500))
    return frames


def pcl_frames() -> List[Frame]:
    folder = DATA / "pcl"
    paths = sorted(folder.glob("frame_*.pcd")) + [folder / "table_scene_mug_stereo_textured.pcd",
                                                  folder / "milk_cartoon_all_small_clorox.pcd"]
    return [Frame("PCL Kinect (no truth)", path.stem, planekit.read(path), None, 0.01, 1500) for path in paths if path.exists()]


def valid_points(frame: Frame):
    """Open3D's cloud of the frame's finite points, and their pixel indices."""
    points = frame.cloud.points.reshape(-1, 3)
    indices = np.flatnonzero(np.all(np.isfinite(points), axis=1))
    cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(points[indices].astype(np.float64)))
    return cloud, indices


def planekit_labels(frame: Frame) -> np.ndarray:
    return planekit.detect_planes(frame.cloud).labels.reshape(frame.cloud.height, frame.cloud.width)


def segment_plane_labels(frame: Frame) -> np.ndarray:
    cloud, indices = valid_points(frame)
    labels = np.zeros(frame.cloud.width * frame.cloud.height, dtype=np.uint16)
    remaining = np.arange(len(indices))
    for label in range(1, 31):
        if len(remaining) < frame.min_points:
            break
        subset = cloud.select_by_index(remaining)
        _, inliers = subset.segment_plane(distance_threshold=frame.distance_threshold, ransac_n=3, num_iterations=1000)
        if len(inliers) < frame.min_points:
            break
        taken = remaining[inliers]
        labels[indices[taken]] = label
        remaining = np.delete(remaining, inliers)
    return labels.reshape(frame.cloud.height, frame.cloud.width)


def patch_labels(frame: Frame) -> np.ndarray:
    cloud, indices = valid_points(frame)
    cloud.estimate_normals(search_param=o3d.geometry.KDTreeSearchParamKNN(knn=30))
    boxes = cloud.detect_planar_patches(normal_variance_threshold_deg=60, coplanarity_deg=75, outlier_ratio=0.75,
                                        min_plane_edge_length=0, min_num_points=0,
                                        search_param=o3d.geometry.KDTreeSearchParamKNN(knn=30))
    labels = np.zeros(frame.cloud.width * frame.cloud.height, dtype=np.uint16)
    free = np.ones(len(indices), dtype=bool)
    for label, box in enumerate(boxes[:65535], start=1):
        inside = np.asarray(box.get_point_indices_within_bounding_box(cloud.points), dtype=np.int64)
        inside = inside[free[inside]]
        labels[indices[inside]] = label
        free[inside] = False
    return labels.reshape(frame.cloud.height, frame.cloud.width)


METHODS: Dict[str, Callable[[Frame], np.ndarray]] = {
    "planekit": planekit_labels, "segment_plane": segment_plane_labels, "patches": patch_labels}


def timed(method: Callable[[Frame], np.ndarray], frame: Frame, repeat: int):
    times, labels = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        labels = method(frame)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), labels


def python_overhead(runs: int) -> Dict[str, float]:
    """Python's cost on the VGA sample as a uint16 depth image: the median over `runs` calls (after
    20 to warm up) of the wall time around the call minus the time the library measured inside it,
    for detect_planes alone and for detect_planes with its planes and label image fetched. Each
    result is freed after the next call's timed span, as a caller keeping results would."""
    sample = planekit.read(REPOSITORY / "samples" / "room-depth.png")
    depth = np.round(sample.depth * 1000).astype(np.uint16)
    intrinsics = sample.intrinsics
    for _ in range(20):
        planekit.detect_planes(depth, intrinsics)
    figures: Dict[str, List[float]] = {"library": [], "call": [], "with results": []}
    kept: List[planekit.Detection] = []
    for kind in ("call", "with results"):
        for _ in range(runs):
            start = time.perf_counter()
            detection = planekit.detect_planes(depth, intrinsics)
            if kind == "with results":
                detection.labels, detection.planes
            wall = (time.perf_counter() - start) * 1e3
            figures[kind].append(wall - detection.milliseconds)
            figures["library"].append(detection.milliseconds)
            kept[:] = [detection]  # the previous result is freed here, after the timed span
    return {name: statistics.median(values) for name, values in figures.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=5, help="generated rooms (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per frame and method; the median counts (default 3)")
    parser.add_argument("--overhead-runs", type=int, default=200)
    parser.add_argument("--cli", type=Path, default=REPOSITORY / ".build" / "release" / "planekit")
    options = parser.parse_args()
    overhead = python_overhead(options.overhead_runs)
    global o3d
    import open3d
    o3d = open3d
    o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)

    with tempfile.TemporaryDirectory() as scratch:
        frames = abw_frames() + room_frames(options.cli, options.rooms, Path(scratch)) + pcl_frames()
    groups: Dict[str, List[Frame]] = {}
    for frame in frames:
        groups.setdefault(frame.group, []).append(frame)

    print(f"planekit {planekit.__version__}, Open3D {o3d.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    print("| frames | method | ms per frame (median) | segments per frame | correct / true regions | recall | precision |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for group, members in groups.items():
        for name, method in METHODS.items():
            times, segments, correct, true_regions, detected = [], [], 0, 0, 0
            for frame in members:
                milliseconds, labels = timed(method, frame, options.repeat)
                times.append(milliseconds)
                segments.append(len(np.unique(labels[labels > 0])))
                if frame.truth is not None:
                    score = planekit.evaluate(labels, frame.truth)
                    correct += score.correct
                    true_regions += score.true_regions
                    detected += score.detected_regions
            accuracy = (f"{correct} / {true_regions} | {correct / true_regions:.1%} | {correct / max(detected, 1):.1%}"
                        if true_regions else "– | – | –")
            print(f"| {group} ({len(members)}) | {name} | {statistics.median(times):.1f} | "
                  f"{statistics.mean(segments):.1f} | {accuracy} |", flush=True)

    print(f"\nVGA depth image (uint16) through Python, medians of {options.overhead_runs} calls each: the library "
          f"{overhead['library']:.2f} ms a frame; Python's overhead {overhead['call'] * 1e3:.0f} µs for detect_planes, "
          f"{overhead['with results'] * 1e3:.0f} µs with its planes and labels fetched")
    return 0


if __name__ == "__main__":
    sys.exit(main())
