"""PlaneKit from Python: plane detection in depth images and point clouds, a tracking session, and
the Hoover evaluation, on numpy arrays (docs/python.md).

    import planekit
    frame = planekit.read("samples/room-depth.png")
    detection = planekit.detect_planes(frame)
    for plane in detection:
        print(plane.label, plane.classification, plane.normal, plane.area)
    detection.labels          # (480, 640) uint16, 0 = no plane
"""
from ._arrays import CameraIntrinsics
from ._batch import analyze_file
from ._detection import ALIGNMENTS, CLASSIFICATIONS, SENSORS, Detection, Plane, PointCloud, detect_planes, read
from ._evaluation import Evaluation, evaluate, read_labels
from ._native import (API_VERSION, DetectionError, InputError, InvalidArgumentError, PlaneKitError, SessionError,
                      library_dir)
from ._session import HIT_TARGETS, Hit, Session

__version__ = "0.1.0"

__all__ = [
    "ALIGNMENTS", "API_VERSION", "CLASSIFICATIONS", "CameraIntrinsics", "Detection", "DetectionError", "Evaluation",
    "HIT_TARGETS", "Hit", "InputError", "InvalidArgumentError", "Plane", "PlaneKitError", "PointCloud", "SENSORS",
    "Session", "SessionError", "analyze_file", "detect_planes", "evaluate", "get_include", "library_dir", "read", "read_labels",
]


def get_include() -> str:
    """The folder holding planekit.h, for building C or C++ code against the bundled library."""
    import os
    return os.path.join(os.path.dirname(__file__), "include")
