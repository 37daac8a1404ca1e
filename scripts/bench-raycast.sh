#!/usr/bin/env bash
# Ray-casting benchmark: PlaneKit's existingPlaneGeometry kernel next to Open3D's
# RaycastingScene.cast_rays (Embree) on the same 20 planes, one thread each (see
# scripts/bench-with-open3d.sh for the Python side). Extra arguments go to `planekit bench raycast`.
exec "$(dirname "$0")/bench-with-open3d.sh" raycast "$@"
