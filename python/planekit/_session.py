"""A tracking session fed frame by frame: `planekit.Session`."""
from __future__ import annotations

import ctypes
import json
import os
import threading
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _arrays, _native
from ._arrays import IntrinsicsLike
from ._detection import ALIGNMENTS, sensor_code
from ._handles import create

lib = _native.lib

Event = Dict[str, Any]

#: Hit-test targets by planekit_hit_target code ("any" only as a query).
HIT_TARGETS = ("plane", "plane_extent", "plane_infinite", "estimated_plane", "feature_point", "any")


@dataclass(frozen=True)
class Hit:
    """Where a ray met a surface, in world coordinates."""

    distance: float
    position: np.ndarray
    normal: np.ndarray
    transform: np.ndarray
    target: str
    alignment: str
    plane: Optional[str]


def _events(text: Optional[bytes]) -> List[Event]:
    return [json.loads(line) for line in (text or b"").decode().splitlines() if line]


class Session:
    """A tracking session: frames in, ARKit-like events out (planes added, updated, removed; objects
    placed; the camera and focus), as `planekit stream` reports them (docs/stream-format.md).

    The world is +Y up (`up` changes it). Frames come with a pose (world from camera, 4×4) or
    without one, and then the camera is tracked from the depth; `gravity` (the accelerometer's
    down, camera coordinates) helps tracking. `fused_surface=True` tracks such frames against the
    surface fused from the frames before them instead of the nearest keyframe (`planekit stream
    --fused-surface`; docs/tracking.md says when each does better). While tracking, the session
    learns the depth camera's fixed-pattern error and corrects later frames (a Kinect's depth errs
    by up to about 1 % across the image); `depth_calibration=False` turns that off. Use as a
    context manager or call `close()`.
    """

    def __init__(self, *, up: Sequence[float] = (0, 1, 0), sensor: str = "auto", max_depth: Optional[float] = None,
                 fused_surface: bool = False, depth_calibration: bool = True):
        options = _native.SessionOptions()
        options.up[:] = _arrays.vector3(up, "up")
        options.sensor = sensor_code(sensor)
        options.max_depth = _arrays.positive(max_depth, "max_depth")
        if not isinstance(fused_surface, bool):
            raise TypeError(f"fused_surface must be True or False, got {fused_surface!r}")
        options.fused_surface = int(fused_surface)
        if not isinstance(depth_calibration, bool):
            raise TypeError(f"depth_calibration must be True or False, got {depth_calibration!r}")
        options.no_depth_calibration = int(not depth_calibration)
        self._handle = create(lambda out: lib.planekit_session_create(ctypes.byref(options), out),
                              lib.planekit_session_free)
        self._timestamp: Optional[float] = None
        self.frame_interval = 1 / 30
        # The library releases the GIL during a call and a session must not be used by two threads
        # at once: calls from several Python threads take turns.
        self._lock = threading.Lock()

    def update(self, depth: np.ndarray, intrinsics: IntrinsicsLike, pose: Optional[Any] = None,
               gravity: Optional[Sequence[float]] = None, *, depth_scale: float = 0.001,
               timestamp: Optional[float] = None) -> List[Event]:
        """Feeds one depth frame (uint16 raw units × `depth_scale`, or float metres) and returns its
        events as dicts. `timestamp` (seconds) defaults to the previous frame's plus
        `frame_interval`. Raises `planekit.SessionError` for a frame the session refuses."""
        image = _arrays.depth_image(depth)
        camera = _arrays.intrinsics(intrinsics)
        if timestamp is None:
            timestamp = 0.0 if self._timestamp is None else self._timestamp + self.frame_interval
        info = _native.FrameInfo()
        info.timestamp = float(timestamp)
        if pose is not None:
            matrix = _arrays.matrix4(pose, "pose")
            info.pose = matrix.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        if gravity is not None:
            down = np.array(_arrays.vector3(gravity, "gravity"), dtype=np.float32)
            info.gravity = down.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        height, width = image.shape
        text = ctypes.c_char_p()
        scale = _arrays.positive(depth_scale, "depth_scale")
        with self._lock:
            if image.dtype == np.uint16:
                status = lib.planekit_session_update_u16(self._pointer(), _arrays.address(image), width, height,
                                                         ctypes.byref(camera), scale, ctypes.byref(info), ctypes.byref(text))
            else:
                status = lib.planekit_session_update_f32(self._pointer(), _arrays.address(image), width, height,
                                                         ctypes.byref(camera), ctypes.byref(info), ctypes.byref(text))
            _native.check(status)
            self._timestamp = float(timestamp)
            return _events(text.value)

    def command(self, record: Dict[str, Any]) -> List[Event]:
        """Carries out one command record of the stream format (tap, drag, rotate, remove, raycast,
        saveMap, loadMap), e.g. `{"type": "rotate", "object": "object-1", "angle": 0.5}`."""
        text = ctypes.c_char_p()
        with self._lock:
            _native.check(lib.planekit_session_command(self._pointer(), json.dumps(record).encode(), ctypes.byref(text)))
            return _events(text.value)

    def place(self, x: float, y: float, name: str = "object", size: Sequence[float] = (0.3, 0.3, 0.3)) -> Event:
        """Places an object where the ray through pixel (x, y) of the latest frame lands (the smart
        hit test); returns the `objectAdded` event, whose `object.identifier` names it for later commands."""
        extent = _arrays.vector3(size, "size")
        events = self.command({"type": "tap", "x": float(x), "y": float(y), "name": name, "size": list(extent)})
        return events[0]

    def raycast(self, x: float, y: float, target: str = "plane", alignment: str = "any") -> List[Hit]:
        """The hits of the ray through pixel (x, y) of the latest frame, nearest first. `target`:
        plane (inside its outline), plane_extent, plane_infinite, estimated_plane, feature_point or
        any; `alignment`: horizontal, vertical or any."""
        if target not in HIT_TARGETS:
            raise ValueError(f"target must be one of {', '.join(HIT_TARGETS)}, got {target!r}")
        if alignment not in ALIGNMENTS:
            raise ValueError(f"alignment must be one of {', '.join(ALIGNMENTS)}, got {alignment!r}")
        capacity = 16
        while True:
            hits = (_native.Hit * capacity)()
            count = ctypes.c_int64()
            with self._lock:
                _native.check(lib.planekit_session_raycast(self._pointer(), float(x), float(y), HIT_TARGETS.index(target),
                                                           ALIGNMENTS.index(alignment), hits, capacity, ctypes.byref(count)))
            if count.value <= capacity:
                break
            capacity = count.value
        return [Hit(distance=hit.distance, position=np.array(hit.position, dtype=np.float32),
                    normal=np.array(hit.normal, dtype=np.float32),
                    transform=np.array(hit.transform, dtype=np.float32).reshape(4, 4).T,
                    target=HIT_TARGETS[hit.target], alignment=ALIGNMENTS[hit.alignment],
                    plane=hit.plane.decode() or None)
                for hit in hits[:count.value]]

    def save_map(self, path: Union[str, os.PathLike]) -> Event:
        """Writes the session's world map to `path`; returns the `mapSaved` event."""
        text = ctypes.c_char_p()
        with self._lock:
            _native.check(lib.planekit_session_save_map(self._pointer(), os.fsencode(path), ctypes.byref(text)))
            return _events(text.value)[0]

    def load_map(self, path: Union[str, os.PathLike]) -> Event:
        """Loads a world map and relocalizes into it over the next frames; returns `mapLoaded`."""
        text = ctypes.c_char_p()
        with self._lock:
            _native.check(lib.planekit_session_load_map(self._pointer(), os.fsencode(path), ctypes.byref(text)))
            return _events(text.value)[0]

    def close(self) -> None:
        """Frees the session now (otherwise when it is garbage collected)."""
        with self._lock:
            self._handle = None

    def _pointer(self) -> ctypes.c_void_p:
        if self._handle is None:
            raise ValueError("the session is closed")
        return self._handle.pointer

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()
