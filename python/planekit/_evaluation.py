"""Hoover et al.'s (1996) segmentation scores: `planekit.evaluate`."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Optional, Union

import numpy as np

from . import _arrays, _native
from ._detection import Detection

lib = _native.lib


@dataclass(frozen=True)
class Evaluation:
    """The scores `planekit evaluate` prints for one image: regions counted, how each was
    classified at overlap threshold T, recall (correct / true regions) and precision (correct /
    detected regions), and the mean orientation error of the correct detections (degrees, NaN
    without points)."""

    threshold: float
    true_regions: int
    detected_regions: int
    correct: int
    over_segmented: int
    under_segmented: int
    missed: int
    noise: int
    recall: float
    precision: float
    mean_orientation_error: float


def read_labels(path: Union[str, "os.PathLike[str]"]) -> np.ndarray:
    """A label image from a binary PGM file (8- or 16-bit, as `planekit analyze --labels` and the
    SegComp ground truth write them) as a (height, width) uint16 array."""
    with open(path, "rb") as file:
        data = file.read()
    fields, position = [], 0
    while len(fields) < 4:
        while position < len(data) and (data[position:position + 1].isspace() or data[position:position + 1] == b"#"):
            if data[position:position + 1] == b"#":
                position = data.find(b"\n", position)
                position = len(data) if position < 0 else position
            position += 1
        end = position
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    if fields[0] != b"P5":
        raise ValueError(f"{path}: not a binary PGM (P5)")
    try:
        width, height, maximum = (int(field) for field in fields[1:])
    except ValueError:
        raise ValueError(f"{path}: a PGM header with no valid size") from None
    dtype = np.dtype(">u2") if maximum > 255 else np.dtype("u1")
    pixels = data[position + 1:position + 1 + width * height * dtype.itemsize]
    if len(pixels) != width * height * dtype.itemsize:
        raise ValueError(f"{path}: {len(pixels)} bytes of pixels, {width}×{height} need {width * height * dtype.itemsize}")
    return np.frombuffer(pixels, dtype=dtype).reshape(height, width).astype(np.uint16)


def _labels(array: Union[Detection, np.ndarray], name: str) -> np.ndarray:
    if isinstance(array, Detection):
        array = array.labels
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array or a planekit.Detection, got {type(array).__name__}")
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D label image, got shape {array.shape}")
    if array.dtype != np.uint16:
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"{name} must hold integer labels, got {array.dtype}")
        if array.size and (array.min() < 0 or array.max() > 65535):
            raise ValueError(f"{name}'s labels must be 0 … 65535")
    return np.ascontiguousarray(array, dtype=np.uint16)


def evaluate(detected: Union[Detection, np.ndarray], truth: np.ndarray, *, threshold: float = 0.8,
             min_pixels: int = 1, points: Optional[np.ndarray] = None) -> Evaluation:
    """Scores a label image (or a Detection's) against a ground-truth label image of the same size
    (0 = no region) as Hoover et al. (1996) and `planekit evaluate` do. `points` (height, width, 3),
    one point per pixel, adds each correct detection's orientation error."""
    found, true = _labels(detected, "detected"), _labels(truth, "truth")
    if found.shape != true.shape:
        raise ValueError(f"detected {found.shape} and truth {true.shape} differ in size")
    height, width = true.shape
    points_address, stride = None, 0
    if points is not None:
        cloud, cloud_width, cloud_height, stride = _arrays.points(points)
        if (cloud_height, cloud_width) != (height, width):
            raise ValueError(f"points {points.shape} do not match the {height}×{width} label images")
        points_address = _arrays.address(cloud)
    result = _native.Evaluation()
    _native.check(lib.planekit_evaluate(_arrays.address(found), _arrays.address(true), width, height, float(threshold),
                                        int(min_pixels), points_address, stride, ctypes.byref(result)))
    return Evaluation(**{name: getattr(result, name) for name, _ in _native.Evaluation._fields_})
