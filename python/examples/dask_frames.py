"""Finds the planes of every frame in a folder on a Dask cluster.

    python examples/dask_frames.py FRAMES_DIR                         # a LocalCluster on this machine
    python examples/dask_frames.py FRAMES_DIR --workers 8
    python examples/dask_frames.py FRAMES_DIR --scheduler tcp://scheduler:8786   # an existing cluster

Each frame is one task (`planekit.analyze_file`), so a bad frame is an error in its own result and
the rest go on. Results are written as JSON lines (one per frame, in file order) to --output, and
a summary is printed. On an existing cluster every worker needs the `planekit` package installed
and the folder at the same path (a shared file system), or pass paths it can read.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Sequence

import planekit

FRAME_PATTERNS = ("*.png", "*.pgm", "*.tif", "*.tiff", "*.pcd", "*.ply")


def frame_paths(folder: Path) -> List[str]:
    """The frames of `folder` in name order (depth images and clouds; sidecars are not frames)."""
    return sorted(str(path) for pattern in FRAME_PATTERNS for path in folder.glob(pattern))


def analyze_on_cluster(client: Any, paths: Sequence[str], show_progress: bool = True, **options: Any) -> List[Dict[str, Any]]:
    """Analyses `paths` on the cluster behind `client`, one task per frame, and returns the results
    in the order of `paths`. With `show_progress`, Dask's progress bar follows the tasks."""
    from dask.distributed import progress

    futures = client.map(planekit.analyze_file, list(paths), pure=False, **options)
    if show_progress:
        progress(futures)
    return client.gather(futures)


def main(arguments: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    parser.add_argument("--sensor", default="auto", choices=planekit.SENSORS)
    parser.add_argument("--output", type=Path, default=Path("planes.jsonl"))
    options = parser.parse_args(arguments)

    from dask.distributed import Client, LocalCluster

    paths = frame_paths(options.folder)
    if not paths:
        print(f"no frames in {options.folder}", file=sys.stderr)
        return 1
    if options.scheduler:
        client = Client(options.scheduler)
    else:
        # One thread per worker process: the detector is single-threaded, and processes sidestep the GIL.
        client = Client(LocalCluster(n_workers=options.workers, threads_per_worker=1))
    with client:
        results = analyze_on_cluster(client, paths, sensor=options.sensor)
    with options.output.open("w") as output:
        for result in results:
            output.write(json.dumps(result) + "\n")
    failed = [result for result in results if result["error"]]
    planes = sum(len(result["planes"]) for result in results if result["planes"] is not None)
    print(f"\n{len(results)} frames, {planes} planes, {len(failed)} failed; results in {options.output}")
    for result in failed:
        print(f"  {result['file']}: {result['error']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
