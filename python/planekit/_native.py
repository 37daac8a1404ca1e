"""The ctypes binding of libPlaneKitC (planekit.h): structures, prototypes and status checks.

Everything here mirrors the C header one to one; the public modules build the Pythonic API on it.
"""
from __future__ import annotations

import ctypes
import os
from ctypes import POINTER, c_char, c_char_p, c_double, c_float, c_int32, c_int64, c_uint8, c_uint16, c_void_p
from pathlib import Path

#: The API version this binding was written for (PLANEKIT_API_VERSION).
API_VERSION = 3

LIBRARY_NAME = "libPlaneKitC.so"
PCL_BRIDGE_NAME = "libPlaneKitPCLBridge.so"


class PlaneKitError(Exception):
    """A failure reported by the library; `status` is planekit.h's code."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class InvalidArgumentError(PlaneKitError, ValueError):
    """An argument the library refused: a size, a number, a missing value."""


class InputError(PlaneKitError, OSError):
    """A file that cannot be read or is not what it claims to be."""


class DetectionError(PlaneKitError, RuntimeError):
    """The detector refused the input (too large, the PCL bridge missing, …)."""


class SessionError(PlaneKitError, RuntimeError):
    """The session refused a frame or command (a timestamp going back, nothing to place on, …)."""


_ERRORS = {1: InvalidArgumentError, 2: InputError, 3: DetectionError, 4: SessionError}


class Intrinsics(ctypes.Structure):
    _fields_ = [("fx", c_float), ("fy", c_float), ("cx", c_float), ("cy", c_float)]


class DetectOptions(ctypes.Structure):
    _fields_ = [("sensor", c_int32), ("up", c_float * 3), ("max_depth", c_float)]


class ReadOptions(ctypes.Structure):
    _fields_ = [("has_intrinsics", c_int32), ("intrinsics", Intrinsics), ("depth_scale", c_float),
                ("max_depth", c_float), ("unit_scale", c_float)]


class CloudInfo(ctypes.Structure):
    _fields_ = [("width", c_int64), ("height", c_int64), ("points", POINTER(c_float)), ("colors", POINTER(c_uint8)),
                ("has_intrinsics", c_int32), ("intrinsics", Intrinsics), ("pose", c_float * 16),
                ("default_up", c_float * 3)]


class Plane(ctypes.Structure):
    _fields_ = [("label", c_int32), ("normal", c_float * 3), ("offset", c_float), ("center", c_float * 3),
                ("centroid", c_float * 3), ("transform", c_float * 16), ("extent", c_float * 2), ("area", c_float),
                ("rms_error", c_float), ("point_count", c_int64), ("alignment", c_int32),
                ("classification", c_int32), ("boundary_count", c_int64)]


class SessionOptions(ctypes.Structure):
    _fields_ = [("up", c_float * 3), ("sensor", c_int32), ("max_depth", c_float), ("fused_surface", c_int32),
                ("no_depth_calibration", c_int32)]


class FrameInfo(ctypes.Structure):
    _fields_ = [("timestamp", c_double), ("pose", POINTER(c_float)), ("gravity", POINTER(c_float))]


class Hit(ctypes.Structure):
    _fields_ = [("distance", c_float), ("position", c_float * 3), ("normal", c_float * 3), ("transform", c_float * 16),
                ("target", c_int32), ("alignment", c_int32), ("plane", c_char * 32)]


class Evaluation(ctypes.Structure):
    _fields_ = [("threshold", c_double), ("true_regions", c_int64), ("detected_regions", c_int64),
                ("correct", c_int64), ("over_segmented", c_int64), ("under_segmented", c_int64),
                ("missed", c_int64), ("noise", c_int64), ("recall", c_double), ("precision", c_double),
                ("mean_orientation_error", c_double)]


_status = c_int32
_handle_out = POINTER(c_void_p)
_text_out = POINTER(c_char_p)

# name: (result type, argument types), as declared in planekit.h.
_PROTOTYPES = {
    "planekit_version": (c_int32, []),
    "planekit_last_error": (c_char_p, []),
    "planekit_detect_options_default": (DetectOptions, []),
    "planekit_read": (_status, [c_char_p, POINTER(ReadOptions), _handle_out]),
    "planekit_cloud_get_info": (_status, [c_void_p, POINTER(CloudInfo)]),
    "planekit_cloud_free": (None, [c_void_p]),
    "planekit_detect_cloud": (_status, [c_void_p, POINTER(DetectOptions), _handle_out]),
    "planekit_detect_points": (_status, [c_void_p, c_int64, c_int64, c_int64, POINTER(Intrinsics),
                                         POINTER(DetectOptions), _handle_out]),
    "planekit_detect_depth_u16": (_status, [c_void_p, c_int64, c_int64, POINTER(Intrinsics), c_float,
                                            POINTER(DetectOptions), _handle_out]),
    "planekit_detect_depth_f32": (_status, [c_void_p, c_int64, c_int64, POINTER(Intrinsics), POINTER(DetectOptions),
                                            _handle_out]),
    "planekit_detection_plane_count": (c_int64, [c_void_p]),
    "planekit_detection_plane": (_status, [c_void_p, c_int64, c_void_p]),
    "planekit_detection_planes": (_status, [c_void_p, c_void_p, c_int64, POINTER(c_int64)]),
    "planekit_detection_boundary": (_status, [c_void_p, c_int64, POINTER(POINTER(c_float)), POINTER(c_int64)]),
    "planekit_detection_labels": (_status, [c_void_p, POINTER(POINTER(c_uint16)), POINTER(c_int64), POINTER(c_int64)]),
    "planekit_detection_milliseconds": (c_double, [c_void_p]),
    "planekit_detection_free": (None, [c_void_p]),
    "planekit_alignment_name": (c_char_p, [c_int32]),
    "planekit_classification_name": (c_char_p, [c_int32]),
    "planekit_session_create": (_status, [POINTER(SessionOptions), _handle_out]),
    "planekit_session_free": (None, [c_void_p]),
    "planekit_session_update_u16": (_status, [c_void_p, c_void_p, c_int64, c_int64, POINTER(Intrinsics), c_float,
                                              POINTER(FrameInfo), _text_out]),
    "planekit_session_update_f32": (_status, [c_void_p, c_void_p, c_int64, c_int64, POINTER(Intrinsics),
                                              POINTER(FrameInfo), _text_out]),
    "planekit_session_command": (_status, [c_void_p, c_char_p, _text_out]),
    "planekit_session_raycast": (_status, [c_void_p, c_float, c_float, c_int32, c_int32, POINTER(Hit), c_int64,
                                           POINTER(c_int64)]),
    "planekit_session_save_map": (_status, [c_void_p, c_char_p, _text_out]),
    "planekit_session_load_map": (_status, [c_void_p, c_char_p, _text_out]),
    "planekit_evaluate": (_status, [c_void_p, c_void_p, c_int64, c_int64, c_double, c_int64, c_void_p, c_int64,
                                    POINTER(Evaluation)]),
}


def library_dir() -> Path:
    """Where libPlaneKitC.so is loaded from: $PLANEKIT_LIBRARY_DIR, else the package's _lib/."""
    return Path(os.environ.get("PLANEKIT_LIBRARY_DIR") or Path(__file__).resolve().parent / "_lib")


def _load() -> ctypes.CDLL:
    folder = library_dir()
    bridge = folder / PCL_BRIDGE_NAME
    # The library opens the PCL bridge (unorganized clouds) by this variable, else beside the
    # executable, which for Python is the interpreter's folder.
    if bridge.exists() and not os.environ.get("PLANEKIT_PCL_BRIDGE"):
        os.environ["PLANEKIT_PCL_BRIDGE"] = str(bridge)
    try:
        library = ctypes.CDLL(str(folder / LIBRARY_NAME))
    except OSError as error:
        raise ImportError(f"cannot load PlaneKit's library from {folder}: {error}; reinstall the package "
                          "(`pip install ./python` from the repository) or set PLANEKIT_LIBRARY_DIR") from error
    for name, (result, arguments) in _PROTOTYPES.items():
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    version = library.planekit_version()
    if version != API_VERSION:
        raise ImportError(f"{folder / LIBRARY_NAME} has API version {version}, this package needs {API_VERSION}")
    return library


lib = _load()


def check(status: int) -> None:
    """Raises the exception for a failed call's status, with the library's message."""
    if status != 0:
        message = lib.planekit_last_error().decode("utf-8", "replace")
        if status == 5:
            raise IndexError(message)
        raise _ERRORS.get(status, PlaneKitError)(message, status)
