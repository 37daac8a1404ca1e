#!/usr/bin/env python3
"""Open3D's side of `planekit bench tracking`: its tracking of the same depth images.

Usage: bench_open3d_tracking.py MANIFEST.json

The manifest (written by planekit) names the depth PNGs in order, their intrinsics, depth scale
(metres per unit) and the method:

- "frame-to-frame": each frame is turned into a point cloud, voxel-downsampled at 2 cm, given
  normals (hybrid search, 5 cm radius, 30 neighbours), and registered against the previous frame
  with point-to-plane ICP (5 cm correspondence distance, starting from the previous motion).
- "frame-to-model": Open3D's dense RGB-D SLAM pipeline (open3d.t.pipelines.slam, as KinectFusion):
  every frame is integrated into a TSDF voxel-block grid (5.8 mm voxels, 16³ blocks, truncation
  8 voxels), and the next frame is registered against the surface ray-cast from it at the last
  pose (multi-scale projective point-to-plane ICP, 7 cm correspondence distance), depth to 4 m.
  The colour is black: the frames are depth alone.

The chained poses (world-from-camera, the first frame at identity, column-major) and the median
time per frame (everything but reading the file) are printed as one JSON line on stdout.
"""
import json
import sys
import time

import numpy as np
import open3d as o3d


def frame_to_frame(manifest, intrinsic, units_per_metre, max_depth):
    voxel = manifest.get("voxel", 0.02)
    criteria = o3d.pipelines.registration.ICPConvergenceCriteria(max_iteration=30)
    estimation = o3d.pipelines.registration.TransformationEstimationPointToPlane()
    previous = None
    pose = np.eye(4)
    motion = np.eye(4)
    poses, times = [], []
    for path in manifest["frames"]:
        depth = o3d.io.read_image(path)
        start = time.perf_counter()
        cloud = o3d.geometry.PointCloud.create_from_depth_image(
            depth, intrinsic, depth_scale=units_per_metre, depth_trunc=max_depth)
        cloud = cloud.voxel_down_sample(voxel)
        cloud.estimate_normals(o3d.geometry.KDTreeSearchParamHybrid(radius=2.5 * voxel, max_nn=30))
        if previous is not None:
            result = o3d.pipelines.registration.registration_icp(
                cloud, previous, 2.5 * voxel, motion, estimation, criteria)
            motion = result.transformation
            pose = pose @ motion
        times.append(time.perf_counter() - start)
        poses.append(pose.copy())
        previous = cloud
    return poses, times


def frame_to_model(manifest, intrinsic, units_per_metre, _):
    max_depth = 4.0
    slam = o3d.t.pipelines.slam
    device = o3d.core.Device("CPU:0")
    k = o3d.core.Tensor(intrinsic.intrinsic_matrix, o3d.core.Dtype.Float64)
    width, height = intrinsic.width, intrinsic.height
    model = slam.Model(0.0058, 16, 40000, o3d.core.Tensor(np.eye(4)), device)
    source = slam.Frame(height, width, k, device)
    rendered = slam.Frame(height, width, k, device)
    black = o3d.t.geometry.Image(o3d.core.Tensor(np.zeros((height, width, 3), np.uint8)))
    pose = o3d.core.Tensor(np.eye(4))
    poses, times = [], []
    for index, path in enumerate(manifest["frames"]):
        depth = o3d.t.io.read_image(path)
        start = time.perf_counter()
        source.set_data_from_image("depth", depth)
        source.set_data_from_image("color", black)
        if index > 0:
            result = model.track_frame_to_model(source, rendered, units_per_metre, max_depth, 0.07)
            pose = pose @ result.transformation
        model.update_frame_pose(index, pose)
        model.integrate(source, units_per_metre, max_depth, 8.0)
        model.synthesize_model_frame(rendered, units_per_metre, 0.1, max_depth, 8.0, False)
        times.append(time.perf_counter() - start)
        poses.append(pose.numpy().copy())
    return poses, times


def main():
    with open(sys.argv[1]) as f:
        manifest = json.load(f)
    k = manifest["intrinsics"]
    intrinsic = o3d.camera.PinholeCameraIntrinsic(k["width"], k["height"], k["fx"], k["fy"], k["cx"], k["cy"])
    units_per_metre = 1.0 / manifest["depthScale"]
    max_depth = manifest.get("maxDepth", 6.0)
    track = frame_to_model if manifest.get("method") == "frame-to-model" else frame_to_frame
    poses, times = track(manifest, intrinsic, units_per_metre, max_depth)
    print(json.dumps({
        "open3d": o3d.__version__,
        "threads": o3d.utility.get_num_threads() if hasattr(o3d.utility, "get_num_threads") else 1,
        "medianSeconds": float(np.median(times)),
        "poses": [[float(x) for x in pose.T.reshape(-1)] for pose in poses],
    }))


if __name__ == "__main__":
    main()
