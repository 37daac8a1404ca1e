#!/usr/bin/env python3
"""Times Open3D's RaycastingScene.cast_rays (Embree) on the planes and rays `planekit bench raycast` wrote.

Usage: bench_open3d_raycast.py DIR RUNS
DIR holds vertices.f32 (N×3 float32), triangles.u32 (M×3 uint32) and rays.f32 (R×6 float32:
origin, direction). Casts every ray RUNS times on one thread, prints one JSON object
{"open3d": version, "threads": 1 or null, "median_seconds": s, "rays": R, "triangles": M}
and writes each ray's distance (inf for a miss) to DIR/open3d_t_hit.f32.
"""
import json
import os
import statistics
import sys
import time

# One thread, whichever threading layer this Open3D build uses; set before importing it.
for name in ("OMP_NUM_THREADS", "TBB_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[name] = "1"

import numpy as np  # noqa: E402
import open3d as o3d  # noqa: E402


def main() -> None:
    folder, runs = sys.argv[1], int(sys.argv[2])
    vertices = np.fromfile(os.path.join(folder, "vertices.f32"), dtype=np.float32).reshape(-1, 3)
    triangles = np.fromfile(os.path.join(folder, "triangles.u32"), dtype=np.uint32).reshape(-1, 3)
    rays = np.fromfile(os.path.join(folder, "rays.f32"), dtype=np.float32).reshape(-1, 6)

    threads = None
    try:
        scene = o3d.t.geometry.RaycastingScene(nthreads=1)
        threads = 1
    except TypeError:  # older Open3D: no thread setting, the environment variables above apply
        scene = o3d.t.geometry.RaycastingScene()
    scene.add_triangles(o3d.core.Tensor(vertices), o3d.core.Tensor(triangles))
    ray_tensor = o3d.core.Tensor(rays)

    result = scene.cast_rays(ray_tensor)  # builds the BVH; not timed
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        result = scene.cast_rays(ray_tensor)
        samples.append(time.perf_counter() - start)
    result["t_hit"].numpy().astype(np.float32).tofile(os.path.join(folder, "open3d_t_hit.f32"))
    print(json.dumps({"open3d": o3d.__version__, "threads": threads, "median_seconds": statistics.median(samples),
                      "rays": int(rays.shape[0]), "triangles": int(triangles.shape[0])}))


if __name__ == "__main__":
    main()
