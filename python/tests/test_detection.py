"""planekit.read and planekit.detect_planes: the CLI's planes from numpy, and bad input refused."""
import gc
import json

import numpy as np
import pytest

import planekit
from planekit import _arrays
from conftest import SAMPLE, run_cli, shared


def analyze_json(cli, *arguments):
    return json.loads(run_cli(cli, "analyze", "--json", *arguments))[0]


def assert_same_planes(detection, reference_planes, tolerance=1e-5):
    assert len(detection) == len(reference_planes)
    for plane, reference in zip(detection, reference_planes):
        np.testing.assert_allclose(plane.normal, reference["plane"]["normal"], atol=tolerance, rtol=0)
        assert plane.offset == pytest.approx(reference["plane"]["offset"], abs=tolerance)
        assert plane.point_count == reference["pointCount"]
        assert plane.classification == reference["classification"]
        assert plane.alignment == reference["alignment"]


def test_read_gives_the_sample_frame(sample):
    assert (sample.width, sample.height) == (640, 480)
    assert sample.points.shape == (480, 640, 3) and sample.points.dtype == np.float32
    assert sample.intrinsics == (525.0, 525.0, 319.5, 239.5)
    assert not sample.points.flags.writeable
    # The sidecar's pose makes up the world's +Y seen from the camera.
    np.testing.assert_allclose(sample.default_up, sample.pose[:3, :3].T @ [0, 1, 0], atol=1e-6)


def test_planes_equal_the_cli_on_the_sample(cli, sample):
    reference = analyze_json(cli, SAMPLE)
    detection = planekit.detect_planes(sample)
    assert len(detection) == len(reference["planes"]) >= 4
    assert_same_planes(detection, reference["planes"])
    floor = [plane for plane in detection if plane.classification == "floor"]
    assert len(floor) == 1 and floor[0].alignment == "horizontal"


def test_depth_arrays_give_the_same_planes_as_the_file(sample):
    from_file = planekit.detect_planes(sample)
    millimetres = np.round(sample.depth * 1000).astype(np.uint16)
    from_u16 = planekit.detect_planes(millimetres, sample.intrinsics, depth_scale=0.001, up=sample.default_up)
    from_f32 = planekit.detect_planes(sample.depth, sample.intrinsics, up=sample.default_up)
    from_points = planekit.detect_planes(sample.points, sample.intrinsics, up=sample.default_up)
    for other in (from_u16, from_f32, from_points):
        assert len(other) == len(from_file)
        for a, b in zip(from_file, other):
            np.testing.assert_allclose(a.normal, b.normal, atol=1e-5, rtol=0)
        np.testing.assert_array_equal(other.labels, from_file.labels)


def test_contiguous_arrays_are_passed_without_a_copy(sample):
    depth = np.zeros((4, 5), dtype=np.uint16)
    assert _arrays.depth_image(depth) is depth
    # PointCloud.points is a strided view of the library's 16-byte points: passed as it is.
    points, width, height, stride = _arrays.points(sample.points)
    assert points is sample.points and (width, height, stride) == (640, 480, 4)
    packed = np.zeros((10, 3), dtype=np.float32)
    assert _arrays.points(packed)[0] is packed
    # A transposed (non-contiguous) image is copied into order, not refused.
    assert _arrays.depth_image(np.zeros((5, 4), dtype=np.uint16).T).flags.c_contiguous


def test_labels_and_planes_describe_each_other(sample):
    detection = planekit.detect_planes(sample)
    labels = detection.labels
    assert labels.shape == (480, 640) and labels.dtype == np.uint16 and not labels.flags.writeable
    counts = np.bincount(labels.ravel(), minlength=len(detection) + 1)
    assert labels.max() == len(detection)
    for plane in detection:
        assert counts[plane.label] == plane.point_count
        assert abs(float(np.dot(plane.normal, plane.center)) + plane.offset) < 1e-3
        np.testing.assert_allclose(plane.transform[:3, 1], plane.normal, atol=1e-5)
        assert plane.boundary.shape[1] == 2 and len(plane.boundary) >= 3
        # The outline lies in the plane.
        distances = plane.boundary_points @ plane.normal + plane.offset
        assert np.max(np.abs(distances)) < 1e-3
    assert detection.milliseconds > 0


def test_arrays_outlive_the_detection(sample):
    detection = planekit.detect_planes(sample)
    labels, boundary = detection.labels, detection[0].boundary
    expected_labels, expected_boundary = labels.copy(), boundary.copy()
    del detection
    gc.collect()
    planekit.detect_planes(sample)  # reuses freed memory, if the arrays did not keep theirs
    np.testing.assert_array_equal(labels, expected_labels)
    np.testing.assert_array_equal(boundary, expected_boundary)


def test_unorganized_clouds_go_through_pcl(cli):
    path = shared("pcl/sac_plane_test.pcd")
    cloud = planekit.read(path)
    assert not cloud.is_organized and cloud.points.ndim == 2
    detection = planekit.detect_planes(cloud)
    reference = analyze_json(cli, path)
    assert len(detection) == len(reference["planes"]) >= 2
    assert detection.labels.shape == (cloud.width,)
    assert_same_planes(detection, reference["planes"], tolerance=1e-4)


@pytest.mark.parametrize("bad_input, error", [
    (np.zeros((48, 64), dtype=np.int32), TypeError),
    (np.zeros((48, 64), dtype=np.uint8), TypeError),
    (np.zeros((2, 48, 64), dtype=np.uint16), ValueError),
    (np.zeros((48, 64, 4), dtype=np.float32), ValueError),
    ([[1, 2], [3, 4]], TypeError),
    ("room.png", TypeError),
])
def test_wrong_types_and_shapes_raise(bad_input, error):
    with pytest.raises(error):
        planekit.detect_planes(bad_input, (525, 525, 32, 24))


@pytest.mark.parametrize("intrinsics", [
    (float("nan"), 525, 320, 240), (525, 525, float("inf"), 240), (0, 525, 320, 240), (-525, 525, 320, 240),
    (525, 525, 320), None, np.eye(4),
])
def test_bad_intrinsics_raise_value_error(intrinsics):
    with pytest.raises(ValueError):
        planekit.detect_planes(np.ones((48, 64), dtype=np.uint16), intrinsics)


def test_bad_options_raise_value_error():
    depth = np.ones((48, 64), dtype=np.uint16)
    for options in ({"depth_scale": 0}, {"depth_scale": float("nan")}, {"sensor": "lidar"},
                    {"up": (0, float("nan"), 1)}, {"up": (0, 0, 0)}, {"max_depth": -1}):
        with pytest.raises(ValueError):
            planekit.detect_planes(depth, (525, 525, 32, 24), **options)


def test_intrinsics_accept_a_camera_matrix():
    depth = np.full((48, 64), 1000, dtype=np.uint16)
    matrix = planekit.CameraIntrinsics(525, 525, 31.5, 23.5).matrix
    assert len(planekit.detect_planes(depth, matrix)) == len(planekit.detect_planes(depth, (525, 525, 31.5, 23.5)))


def test_files_that_cannot_be_read_raise_input_error(tmp_path):
    with pytest.raises(planekit.InputError, match="nonexistent"):
        planekit.read(tmp_path / "nonexistent.pcd")
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    with pytest.raises(OSError):
        planekit.read(broken)
    with pytest.raises(ValueError):
        planekit.read(SAMPLE, depth_scale=-1)


def test_an_empty_frame_has_no_planes_and_out_of_range_indices_raise():
    detection = planekit.detect_planes(np.zeros((48, 64), dtype=np.uint16), (525, 525, 32, 24))
    assert len(detection) == 0 and not detection.labels.any()
    with pytest.raises(IndexError):
        detection[0]
