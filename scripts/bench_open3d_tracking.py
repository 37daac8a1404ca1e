#!/usr/bin/env python3
"""Open3D's side of `planekit bench tracking`: frame-to-frame point-to-plane ICP on depth images.

Usage: bench_open3d_tracking.py MANIFEST.json

The manifest (written by planekit) names the depth PNGs in order, their intrinsics and depth
scale (metres per unit). Each frame is turned into a point cloud, voxel-downsampled at 2 cm,
given normals (hybrid search, 5 cm radius, 30 neighbours), and registered against the previous
frame with point-to-plane ICP (5 cm correspondence distance, starting from the previous
motion). The chained poses (world-from-camera, the first frame at identity, column-major) and
the median time per frame (downsampling, normals and ICP; not reading the file) are printed as
one JSON line on stdout.
"""
import json
import sys
import time

import numpy as np
import open3d as o3d


def main():
    with open(sys.argv[1]) as f:
        manifest = json.load(f)
    k = manifest["intrinsics"]
    intrinsic = o3d.camera.PinholeCameraIntrinsic(k["width"], k["height"], k["fx"], k["fy"], k["cx"], k["cy"])
    units_per_metre = 1.0 / manifest["depthScale"]
    voxel = manifest.get("voxel", 0.02)
    criteria = o3d.pipelines.registration.ICPConvergenceCriteria(max_iteration=30)
    estimation = o3d.pipelines.registration.TransformationEstimationPointToPlane()
    previous = None
    pose = np.eye(4)
    motion = np.eye(4)
    poses = []
    times = []
    for path in manifest["frames"]:
        depth = o3d.io.read_image(path)
        start = time.perf_counter()
        cloud = o3d.geometry.PointCloud.create_from_depth_image(
            depth, intrinsic, depth_scale=units_per_metre, depth_trunc=manifest.get("maxDepth", 6.0))
        cloud = cloud.voxel_down_sample(voxel)
        cloud.estimate_normals(o3d.geometry.KDTreeSearchParamHybrid(radius=2.5 * voxel, max_nn=30))
        if previous is not None:
            result = o3d.pipelines.registration.registration_icp(
                cloud, previous, 2.5 * voxel, motion, estimation, criteria)
            motion = result.transformation
            pose = pose @ motion
        times.append(time.perf_counter() - start)
        poses.append([float(x) for x in pose.T.reshape(-1)])
        previous = cloud
    print(json.dumps({
        "open3d": o3d.__version__,
        "threads": o3d.utility.get_num_threads() if hasattr(o3d.utility, "get_num_threads") else 1,
        "medianSeconds": float(np.median(times)),
        "poses": poses,
    }))


if __name__ == "__main__":
    main()
