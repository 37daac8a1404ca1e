"""Reading files and detecting planes: `read`, `detect_planes` and what they return."""
from __future__ import annotations

import ctypes
import functools
import os
from typing import Any, Iterator, List, Optional, Sequence, Union, overload

import numpy as np

from . import _arrays, _native
from ._arrays import Borrowed, CameraIntrinsics, IntrinsicsLike
from ._handles import Handle, create

lib = _native.lib

#: The sensor profiles `sensor=` takes, in planekit.h's order (planekit_sensor).
SENSORS = ("auto", "kinect", "realsense", "tof", "scanner")
#: Plane alignments by planekit_alignment code.
ALIGNMENTS = tuple(lib.planekit_alignment_name(code).decode() for code in range(3))
#: Plane classes by planekit_classification code.
CLASSIFICATIONS = tuple(lib.planekit_classification_name(code).decode() for code in range(6))

_PLANE_RECORD = np.dtype(_native.Plane)


def sensor_code(sensor: str) -> int:
    """The planekit_sensor code of a profile name."""
    try:
        return SENSORS.index(sensor)
    except ValueError:
        raise ValueError(f"sensor must be one of {', '.join(SENSORS)}, got {sensor!r}") from None


class PointCloud:
    """A point cloud or depth image read by `planekit.read`, as the CLI reads it.

    `points` is an (height, width, 3) float32 array for an organized cloud or depth image (NaN
    where nothing was measured) and (count, 3) for an unorganized one; it is a read-only view of
    the library's memory, not a copy.
    """

    def __init__(self, handle: Handle, path: str):
        self._handle = handle
        self.path = path
        info = _native.CloudInfo()
        _native.check(lib.planekit_cloud_get_info(handle.pointer, ctypes.byref(info)))
        self.width = int(info.width)
        self.height = int(info.height)
        count = self.width * self.height
        shape = (self.height, self.width, 3) if self.is_organized else (count, 3)
        strides = (self.width * 16, 16, 4) if self.is_organized else (16, 4)
        address = ctypes.cast(info.points, ctypes.c_void_p).value or 0
        self.points: np.ndarray = Borrowed(handle, address, shape, "<f4", strides).array()
        colors = ctypes.cast(info.colors, ctypes.c_void_p).value
        self.colors: Optional[np.ndarray] = (
            Borrowed(handle, colors, shape, "|u1", tuple(s // 4 for s in strides[:-1]) + (1,)).array() if colors else None)
        self.intrinsics: Optional[CameraIntrinsics] = (
            CameraIntrinsics(info.intrinsics.fx, info.intrinsics.fy, info.intrinsics.cx, info.intrinsics.cy)
            if info.has_intrinsics else None)
        #: The sensor's pose (world from camera, 4×4), the identity when the file gives none.
        self.pose: np.ndarray = np.array(info.pose, dtype=np.float32).reshape(4, 4).T
        #: The up direction detection uses for this cloud when none is given.
        self.default_up: np.ndarray = np.array(info.default_up, dtype=np.float32)

    @property
    def is_organized(self) -> bool:
        """True for an image layout (depth images, organized PCDs)."""
        return self.height > 1

    @property
    def depth(self) -> np.ndarray:
        """The z of each point as a float32 depth image in metres, 0 where there is none (a copy)."""
        z = self.points[..., 2]
        return np.where(np.isfinite(z), z, 0).astype(np.float32)

    def __repr__(self) -> str:
        return f"PointCloud({self.path!r}, {self.width}×{self.height}, intrinsics={self.intrinsics})"


def read(path: Union[str, os.PathLike], *, intrinsics: Optional[IntrinsicsLike] = None,
         depth_scale: Optional[float] = None, max_depth: Optional[float] = None,
         units: Optional[float] = None) -> PointCloud:
    """Reads a point cloud (PCD, PLY, x y z text) or a 16-bit depth image (PGM, PNG, TIFF), every
    format `planekit analyze` reads.

    A depth image takes its intrinsics from `intrinsics` or a NAME.xml / NAME.json sidecar, and its
    scale (metres per unit) from `depth_scale`, the sidecar, or 0.001. `max_depth` (metres) drops
    farther readings; `units` is metres per unit of a cloud file (0.01 for centimetres).
    Raises `planekit.InputError` (an OSError) for a file that cannot be read.
    """
    options = _native.ReadOptions()
    if intrinsics is not None:
        options.has_intrinsics = 1
        options.intrinsics = _arrays.intrinsics(intrinsics)
    options.depth_scale = _arrays.positive(depth_scale, "depth_scale")
    options.max_depth = _arrays.positive(max_depth, "max_depth")
    options.unit_scale = _arrays.positive(units, "units")
    text = os.fsencode(path)
    handle = create(lambda out: lib.planekit_read(text, ctypes.byref(options), out), lib.planekit_cloud_free)
    return PointCloud(handle, os.fsdecode(path))


class Plane:
    """One detected plane, in the coordinates of the input (the camera frame for a depth image).

    The array attributes are read-only views of the detection's memory.
    """

    __slots__ = ("_detection", "_index")

    def __init__(self, detection: "Detection", index: int):
        self._detection = detection
        self._index = index

    def _field(self, name: str) -> Any:
        return self._detection._records[name][self._index]

    label = property(lambda self: int(self._field("label")), doc="Its value in the label image (1-based).")
    normal = property(lambda self: self._field("normal"), doc="Unit normal facing the sensor, (3,).")
    offset = property(lambda self: float(self._field("offset")), doc="d of normal·p + d = 0, metres.")
    center = property(lambda self: self._field("center"), doc="Centre of the extent, (3,).")
    centroid = property(lambda self: self._field("centroid"), doc="Mean of the supporting points, (3,).")
    extent = property(lambda self: self._field("extent"), doc="Width (local X) and length (local Z), metres.")
    area = property(lambda self: float(self._field("area")), doc="Area covered by supporting points, m².")
    rms_error = property(lambda self: float(self._field("rms_error")), doc="RMS distance of the points, metres.")
    point_count = property(lambda self: int(self._field("point_count")), doc="Supporting points.")
    alignment = property(lambda self: ALIGNMENTS[self._field("alignment")], doc="horizontal, vertical or any.")
    classification = property(lambda self: CLASSIFICATIONS[self._field("classification")],
                              doc="floor, ceiling, wall, table, seat or none.")

    @property
    def transform(self) -> np.ndarray:
        """The plane's frame as a 4×4 matrix: origin at `center`, local +Y along the normal."""
        return self._field("transform").reshape(4, 4).T

    @property
    def plane_model(self) -> np.ndarray:
        """(a, b, c, d) with ax + by + cz + d = 0, as Open3D's `segment_plane` returns it."""
        return np.append(self.normal, self.offset)

    @property
    def boundary(self) -> np.ndarray:
        """The outline as (count, 2) local (x, z) vertices, counter-clockwise."""
        pointer = ctypes.POINTER(ctypes.c_float)()
        count = ctypes.c_int64()
        handle = self._detection._handle
        _native.check(lib.planekit_detection_boundary(handle.pointer, self._index, ctypes.byref(pointer),
                                                      ctypes.byref(count)))
        address = ctypes.cast(pointer, ctypes.c_void_p).value or 0
        return Borrowed(handle, address, (count.value, 2), "<f4").array()

    @property
    def boundary_points(self) -> np.ndarray:
        """The outline as (count, 3) points in the input's coordinates."""
        local = self.boundary
        homogeneous = np.column_stack([local[:, 0], np.zeros(len(local)), local[:, 1], np.ones(len(local))])
        return (homogeneous @ self.transform.T)[:, :3].astype(np.float32)

    def __repr__(self) -> str:
        n = self.normal
        return (f"Plane(label={self.label}, {self.classification}, {self.alignment}, "
                f"normal=({n[0]:.3f}, {n[1]:.3f}, {n[2]:.3f}), area={self.area:.3f} m², points={self.point_count})")


class Detection(Sequence[Plane]):
    """The planes found in one input, largest first (plane k has label k), and its label image.

    `labels` is a read-only uint16 view of the library's label image: (height, width) for an
    organized input, (count,) for an unorganized cloud; 0 = no plane. `milliseconds` is the time
    the library spent on the call. Planes and labels are fetched from the library on first use.
    """

    def __init__(self, handle: Handle):
        self._handle = handle
        self._count = lib.planekit_detection_plane_count(handle.pointer)

    @functools.cached_property
    def _records(self) -> np.ndarray:
        """Every plane, fetched in one call on first use, in a structured array laid out as planekit_plane."""
        records = np.empty(self._count, dtype=_PLANE_RECORD)
        listed = ctypes.c_int64()
        _native.check(lib.planekit_detection_planes(self._handle.pointer, _arrays.address(records), self._count,
                                                    ctypes.byref(listed)))
        records.flags.writeable = False
        return records

    @functools.cached_property
    def labels(self) -> np.ndarray:
        """The label image, a read-only view of the library's: (height, width) for an organized input,
        (count,) for an unorganized cloud; 0 = no plane, k = plane k."""
        labels = ctypes.POINTER(ctypes.c_uint16)()
        width, height = ctypes.c_int64(), ctypes.c_int64()
        _native.check(lib.planekit_detection_labels(self._handle.pointer, ctypes.byref(labels), ctypes.byref(width),
                                                    ctypes.byref(height)))
        shape = (height.value, width.value) if height.value > 1 else (width.value,)
        return Borrowed(self._handle, ctypes.cast(labels, ctypes.c_void_p).value or 0, shape, "<u2").array()

    @property
    def milliseconds(self) -> float:
        """The time the library spent in the call that made this detection."""
        return lib.planekit_detection_milliseconds(self._handle.pointer)

    @property
    def planes(self) -> List[Plane]:
        """The planes as a list."""
        return list(self)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Plane: ...

    @overload
    def __getitem__(self, index: slice) -> List[Plane]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Plane, List[Plane]]:
        if isinstance(index, slice):
            return [Plane(self, i) for i in range(len(self))[index]]
        count = len(self)
        if not -count <= index < count:
            raise IndexError(f"plane index {index} out of range for {count} planes")
        return Plane(self, index % count)

    def __iter__(self) -> Iterator[Plane]:
        return (Plane(self, i) for i in range(len(self)))

    def __repr__(self) -> str:
        return f"Detection({len(self)} planes, labels {self.labels.shape}, {self.milliseconds:.2f} ms)"


def _options(sensor: str, up: Optional[Sequence[float]], max_depth: Optional[float]) -> _native.DetectOptions:
    if sensor == "auto" and up is None and max_depth is None:
        return _DEFAULT_OPTIONS  # the library only reads it
    options = _native.DetectOptions()
    options.sensor = sensor_code(sensor)
    up_vector = _arrays.vector3(up, "up")
    if up_vector is not None:
        options.up[:] = up_vector
    options.max_depth = _arrays.positive(max_depth, "max_depth")
    return options


_DEFAULT_OPTIONS = lib.planekit_detect_options_default()


def _is_depth_image(array: np.ndarray) -> bool:
    """A 2-D array is a depth image unless it is (count, 3) floats, which are points."""
    return array.ndim == 2 and (array.dtype == np.uint16 or array.shape[1] != 3)


def detect_planes(source: Union[PointCloud, np.ndarray], intrinsics: Optional[IntrinsicsLike] = None, *,
                  depth_scale: float = 0.001, sensor: str = "auto", up: Optional[Sequence[float]] = None,
                  max_depth: Optional[float] = None) -> Detection:
    """Finds the planes of a frame, largest first, with the label image.

    `source` is one of:
      - a `PointCloud` from `planekit.read` (detected exactly as `planekit analyze` does);
      - a 2-D depth image: uint16 raw units (× `depth_scale` metres; 0 and 65535 are no reading)
        or float32/float64 metres (0 or NaN: none), with `intrinsics` (fx, fy, cx, cy), a 3×3
        matrix or an Open3D PinholeCameraIntrinsic;
      - xyz points, float32: (height, width, 3) organized (NaN holes; `intrinsics` optional) or
        (count, 3) unorganized (detected through PCL).
    A C-contiguous array is read where it is, without a copy.

    `sensor` is the noise profile (auto, kinect, realsense, tof, scanner); `up` the direction
    against gravity in the input's coordinates (default: the cloud's pose, else camera −Y);
    `max_depth` drops depth-image readings farther than that many metres.

    Raises TypeError for a wrong dtype or type and ValueError for a wrong shape, NaN intrinsics or
    other invalid numbers.
    """
    options = _options(sensor, up, max_depth)
    if isinstance(source, PointCloud):
        cloud = source._handle.pointer
        call = lambda out: lib.planekit_detect_cloud(cloud, ctypes.byref(options), out)  # noqa: E731
    elif isinstance(source, np.ndarray) and _is_depth_image(source):
        depth = _arrays.depth_image(source)
        camera = _arrays.intrinsics(intrinsics)
        height, width = depth.shape
        if depth.dtype == np.uint16:
            scale = _arrays.positive(depth_scale, "depth_scale")
            call = lambda out: lib.planekit_detect_depth_u16(  # noqa: E731
                _arrays.address(depth), width, height, ctypes.byref(camera), scale, ctypes.byref(options), out)
        else:
            call = lambda out: lib.planekit_detect_depth_f32(  # noqa: E731
                _arrays.address(depth), width, height, ctypes.byref(camera), ctypes.byref(options), out)
    elif isinstance(source, np.ndarray):
        points, width, height, stride = _arrays.points(source)
        camera = _arrays.intrinsics(intrinsics) if intrinsics is not None else None
        camera_pointer = ctypes.byref(camera) if camera is not None else None
        call = lambda out: lib.planekit_detect_points(  # noqa: E731
            _arrays.address(points), width, height, stride, camera_pointer, ctypes.byref(options), out)
    else:
        raise TypeError(f"detect_planes takes a planekit.PointCloud or a numpy array, got {type(source).__name__}")
    return Detection(create(call, lib.planekit_detection_free))
