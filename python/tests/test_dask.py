"""The Dask example: 1000 generated frames on a 2-worker LocalCluster give the planes one process
gives, and a bad frame is an error of its own while the rest go on."""
import importlib.util
import subprocess
from pathlib import Path

import pytest

import planekit

distributed = pytest.importorskip("dask.distributed")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dask_frames.py"
FRAMES = 1000
BAD_FRAME = 500


def load_example():
    spec = importlib.util.spec_from_file_location("dask_frames", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def frames(cli, tmp_path_factory):
    """1000 frames of a synthetic walk through a room (depth PNGs with JSON sidecars), frame 500 broken."""
    folder = tmp_path_factory.mktemp("frames")
    subprocess.run([str(cli), "synth", "--frames", str(FRAMES), "--depth-dir", str(folder), "--seed", "7"],
                   check=True, capture_output=True)
    (folder / f"frame-{BAD_FRAME:06d}.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a PNG")
    return folder


def without_timing(results):
    return [{key: value for key, value in result.items() if key != "milliseconds"} for result in results]


def test_a_local_cluster_gives_the_planes_of_one_process(frames):
    example = load_example()
    paths = example.frame_paths(frames)
    assert len(paths) == FRAMES
    single = [planekit.analyze_file(path) for path in paths]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
            spread = example.analyze_on_cluster(client, paths, show_progress=False)
    assert without_timing(spread) == without_timing(single)

    bad = spread[BAD_FRAME]
    assert bad["planes"] is None and "frame-000500.png" in bad["error"]
    good = [result for index, result in enumerate(spread) if index != BAD_FRAME]
    assert all(result["error"] is None for result in good)
    # A room seen from a walk: planes in every frame, and the floor in most of them.
    assert all(len(result["planes"]) >= 1 for result in good)
    with_floor = sum(any(plane["classification"] == "floor" for plane in result["planes"]) for result in good)
    assert with_floor >= 0.5 * len(good)
