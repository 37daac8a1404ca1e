"""One file in, a plain summary out: the unit of work for batches and distributed engines (Dask,
Ray, multiprocessing), picklable and never raising for a bad file."""
from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Union

from ._detection import detect_planes, read
from ._native import PlaneKitError


def analyze_file(path: Union[str, os.PathLike], *, sensor: str = "auto", up: Optional[Sequence[float]] = None,
                 depth_scale: Optional[float] = None, max_depth: Optional[float] = None) -> Dict[str, Any]:
    """Reads one file and detects its planes, as `planekit analyze --json` does, returning a dict of
    plain Python values: `file`, `width`, `height`, `milliseconds` (detection), `planes` (each with
    label, normal, offset, center, extent, area, pointCount, classification, alignment) and
    `error` (None). A file that cannot be read or analysed gives `planes` None and `error` its
    message instead of an exception, so one bad frame does not stop a batch."""
    try:
        cloud = read(path, depth_scale=depth_scale, max_depth=max_depth)
        detection = detect_planes(cloud, sensor=sensor, up=up)
    except (PlaneKitError, OSError, ValueError) as error:
        return {"file": os.fspath(path), "planes": None, "error": str(error)}
    planes = [{
        "label": plane.label, "normal": plane.normal.tolist(), "offset": plane.offset, "center": plane.center.tolist(),
        "extent": plane.extent.tolist(), "area": plane.area, "pointCount": plane.point_count,
        "classification": plane.classification, "alignment": plane.alignment,
    } for plane in detection]
    return {"file": os.fspath(path), "width": cloud.width, "height": cloud.height,
            "milliseconds": detection.milliseconds, "planes": planes, "error": None}
