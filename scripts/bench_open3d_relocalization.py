#!/usr/bin/env python3
"""Open3D's side of `planekit bench relocalization`: global registration of each pair the bench
wrote (FOLDER/pairK-source.f32, -target.f32: x y z nx ny nz float32 rows; -truth.f32: the 16
column-major numbers of the true map-from-query transform, then the camera position), with
Open3D's usual pipeline: 5 cm voxel downsampling, FPFH features (radius 25 cm), RANSAC on
feature matches (mutual filter off, 3 points, 100 000 iterations, confidence 0.999, edge length
and 7.5 cm distance checks), then point-to-plane ICP (2 cm). One thread. Prints one line per
pair and a summary: median time, error at the camera and angle, as PlaneKit's are measured."""
import json
import sys
import time

import numpy as np
import open3d as o3d


def cloud(path):
    rows = np.fromfile(path, dtype=np.float32).reshape(-1, 6)
    pc = o3d.geometry.PointCloud()
    pc.points = o3d.utility.Vector3dVector(rows[:, :3].astype(np.float64))
    pc.normals = o3d.utility.Vector3dVector(rows[:, 3:].astype(np.float64))
    return pc


def register(source, target, voxel=0.05):
    s = source.voxel_down_sample(voxel)
    t = target.voxel_down_sample(voxel)
    param = o3d.geometry.KDTreeSearchParamHybrid(radius=5 * voxel, max_nn=100)
    fs = o3d.pipelines.registration.compute_fpfh_feature(s, param)
    ft = o3d.pipelines.registration.compute_fpfh_feature(t, param)
    distance = 1.5 * voxel
    result = o3d.pipelines.registration.registration_ransac_based_on_feature_matching(
        s, t, fs, ft, False, distance,
        o3d.pipelines.registration.TransformationEstimationPointToPoint(False), 3,
        [o3d.pipelines.registration.CorrespondenceCheckerBasedOnEdgeLength(0.9),
         o3d.pipelines.registration.CorrespondenceCheckerBasedOnDistance(distance)],
        o3d.pipelines.registration.RANSACConvergenceCriteria(100000, 0.999))
    icp = o3d.pipelines.registration.registration_icp(
        s, t, 0.02, result.transformation, o3d.pipelines.registration.TransformationEstimationPointToPlane())
    return icp.transformation


def main():
    folder, count = sys.argv[1], int(sys.argv[2])
    try:
        o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
    except AttributeError:
        pass
    times, positions, angles, good = [], [], [], 0
    for k in range(count):
        source = cloud(f"{folder}/pair{k}-source.f32")
        target = cloud(f"{folder}/pair{k}-target.f32")
        numbers = np.fromfile(f"{folder}/pair{k}-truth.f32", dtype=np.float32).astype(np.float64)
        truth = numbers[:16].reshape(4, 4).T
        camera = np.append(numbers[16:19], 1.0)
        start = time.perf_counter()
        found = register(source, target)
        times.append(time.perf_counter() - start)
        position = float(np.linalg.norm((found @ camera - truth @ camera)[:3]))
        r = found[:3, :3] @ truth[:3, :3].T
        angle = float(np.degrees(np.arccos(np.clip((np.trace(r) - 1) / 2, -1, 1))))
        positions.append(position)
        angles.append(angle)
        if position <= 0.01 and angle <= 0.5:
            good += 1
        print(f"Open3D pair {k}: {times[-1] * 1000:.1f} ms, error {position * 1000:.1f} mm / {angle:.3f}°")
    print(f"Open3D {o3d.__version__}: {good} of {count} pairs within 1 cm / 0.5°; median time "
          f"{np.median(times) * 1000:.1f} ms, median error {np.median(positions) * 1000:.1f} mm / {np.median(angles):.3f}°")
    print(json.dumps({"open3d": o3d.__version__, "pairs": count, "good": good,
                      "medianMilliseconds": float(np.median(times) * 1000),
                      "medianPositionError": float(np.median(positions)), "medianAngleError": float(np.median(angles))}))


if __name__ == "__main__":
    main()
