"""Checking and passing numpy arrays and camera models to the library, and arrays that borrow the
library's memory."""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

IntrinsicsLike = Union["CameraIntrinsics", Sequence[float], np.ndarray, Any]


class CameraIntrinsics(tuple):
    """A pinhole camera in pixels: focal lengths `fx`, `fy` and principal point `cx`, `cy`."""

    __slots__ = ()

    def __new__(cls, fx: float, fy: float, cx: float, cy: float) -> "CameraIntrinsics":
        return super().__new__(cls, (float(fx), float(fy), float(cx), float(cy)))

    fx = property(lambda self: self[0], doc="Focal length along x, pixels.")
    fy = property(lambda self: self[1], doc="Focal length along y, pixels.")
    cx = property(lambda self: self[2], doc="Principal point x, pixels.")
    cy = property(lambda self: self[3], doc="Principal point y, pixels.")

    @property
    def matrix(self) -> np.ndarray:
        """The 3×3 camera matrix K."""
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], dtype=np.float64)

    def __repr__(self) -> str:
        return f"CameraIntrinsics(fx={self.fx:g}, fy={self.fy:g}, cx={self.cx:g}, cy={self.cy:g})"


def intrinsics(value: IntrinsicsLike) -> _native.Intrinsics:
    """`value` as the C struct: a CameraIntrinsics, (fx, fy, cx, cy), a 3×3 matrix K, or an object
    with `intrinsic_matrix` (Open3D's PinholeCameraIntrinsic). Raises for NaN, ∞ or focal lengths
    that are not positive."""
    if value is None:
        raise ValueError("intrinsics are needed for a depth image: (fx, fy, cx, cy) in pixels or a 3×3 matrix")
    if isinstance(value, (tuple, list)) and len(value) == 4:
        # The common case without numpy: a few microseconds count on every frame.
        try:
            fx, fy, cx, cy = (float(n) for n in value)
        except (TypeError, ValueError):
            raise ValueError(f"intrinsics must be four numbers (fx, fy, cx, cy), got {value!r}") from None
        return _checked_intrinsics(fx, fy, cx, cy)
    matrix = getattr(value, "intrinsic_matrix", None)
    if matrix is not None:
        value = matrix
    numbers = np.asarray(value, dtype=np.float64)
    if numbers.shape == (3, 3):
        numbers = np.array([numbers[0, 0], numbers[1, 1], numbers[0, 2], numbers[1, 2]])
    if numbers.shape != (4,):
        raise ValueError(f"intrinsics must be (fx, fy, cx, cy) or a 3×3 matrix, got shape {numbers.shape}")
    return _checked_intrinsics(*(float(n) for n in numbers))


def _checked_intrinsics(fx: float, fy: float, cx: float, cy: float) -> _native.Intrinsics:
    if not all(math.isfinite(n) for n in (fx, fy, cx, cy)) or fx <= 0 or fy <= 0:
        raise ValueError(f"intrinsics need finite numbers and positive focal lengths, got {(fx, fy, cx, cy)}")
    return _native.Intrinsics(fx, fy, cx, cy)


def address(array: np.ndarray) -> int:
    """The address of an array's first element (`array.ctypes.data` costs several times more)."""
    return array.__array_interface__["data"][0]


def positive(value: Optional[float], name: str, default: float = 0.0) -> float:
    """`value` (None: `default`) as a float that must be positive and finite."""
    if value is None:
        return default
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return number


def vector3(value: Optional[Sequence[float]], name: str) -> Optional[Tuple[float, float, float]]:
    """A finite 3-vector, or None."""
    if value is None:
        return None
    numbers = np.asarray(value, dtype=np.float64)
    if numbers.shape != (3,) or not np.all(np.isfinite(numbers)) or not np.any(numbers):
        raise ValueError(f"{name} must be three finite numbers, not all zero, got {value!r}")
    return (float(numbers[0]), float(numbers[1]), float(numbers[2]))


def matrix4(value: Any, name: str) -> np.ndarray:
    """A 4×4 transform as 16 float32 in column-major order (what the C API takes)."""
    numbers = np.asarray(value, dtype=np.float64)
    if numbers.shape != (4, 4) or not np.all(np.isfinite(numbers)):
        raise ValueError(f"{name} must be a finite 4×4 matrix, got shape {numbers.shape}")
    return np.ascontiguousarray(numbers.T, dtype=np.float32).reshape(16)


def depth_image(depth: Any) -> np.ndarray:
    """A 2-D uint16 or float32 depth image, C-contiguous: passed as it is when it already is (no
    copy); float64 is converted to float32."""
    if not isinstance(depth, np.ndarray):
        raise TypeError(f"a depth image must be a numpy array, got {type(depth).__name__}")
    if depth.ndim != 2:
        raise ValueError(f"a depth image must be 2-D (height, width), got shape {depth.shape}")
    if depth.dtype == np.float64:
        depth = depth.astype(np.float32)
    if depth.dtype not in (np.uint16, np.float32):
        raise TypeError(f"a depth image must be uint16 (raw units) or float32/float64 (metres), got {depth.dtype}")
    return np.ascontiguousarray(depth)


def points(array: Any) -> Tuple[np.ndarray, int, int, int]:
    """xyz points as (array, width, height, point stride in floats): an (H, W, 3) organized grid or
    (N, 3) unorganized cloud of float32 (float64 is converted). A view whose points are evenly
    spaced, such as `PointCloud.points`, is passed without a copy."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"points must be a numpy array, got {type(array).__name__}")
    if array.ndim not in (2, 3) or array.shape[-1] != 3:
        raise ValueError(f"points must have shape (height, width, 3) or (count, 3), got {array.shape}")
    if array.dtype == np.float64:
        array = array.astype(np.float32)
    if array.dtype != np.float32:
        raise TypeError(f"points must be float32 or float64, got {array.dtype}")
    height, width = (array.shape[0], array.shape[1]) if array.ndim == 3 else (1, array.shape[0])
    item = array.itemsize
    point_step = array.strides[-2]
    evenly_spaced = (array.strides[-1] == item and point_step % item == 0 and point_step >= 3 * item
                     and (array.ndim == 2 or array.strides[0] == width * point_step))
    if not evenly_spaced:
        array = np.ascontiguousarray(array)
        point_step = 3 * item
    return array, width, height, point_step // item


class Borrowed:
    """Memory owned by a library handle, seen as a numpy array: the array keeps this object, and it
    keeps `owner` (the handle), so the memory lives as long as any array on it."""

    def __init__(self, owner: Any, address: int, shape: Tuple[int, ...], typestr: str,
                 strides: Optional[Tuple[int, ...]] = None):
        self.owner = owner
        self.__array_interface__ = {"data": (address, True), "shape": shape, "typestr": typestr,
                                    "strides": strides, "version": 3}

    def array(self) -> np.ndarray:
        """The read-only array."""
        return np.asarray(self)
