#!/usr/bin/env bash
# Camera-tracking benchmark: PlaneKit's CameraTracker next to Open3D's frame-to-frame
# point-to-plane ICP (2 cm voxels), or with --open3d-tracking frame-to-model its dense SLAM
# pipeline (a TSDF, as KinectFusion), on the same depth frames: RMSE against the reference poses
# and median time per frame (see scripts/bench-with-open3d.sh for the Python side). Extra
# arguments go to `planekit bench tracking` (for example --frames 300, --seed 2, --sequence DIR).
exec "$(dirname "$0")/bench-with-open3d.sh" tracking "$@"
