"""planekit.evaluate: the scores of `planekit evaluate`."""
import json

import numpy as np
import pytest

import planekit
from conftest import run_cli, shared


def test_a_segmentation_against_itself_is_all_correct(sample):
    detection = planekit.detect_planes(sample)
    score = planekit.evaluate(detection, detection.labels)
    assert score.correct == score.true_regions == score.detected_regions == len(detection)
    assert (score.recall, score.precision) == (1.0, 1.0)
    assert np.isnan(score.mean_orientation_error)


def test_scores_equal_the_cli_on_an_abw_image(cli, tmp_path):
    cloud_path = shared("segcomp-abw-dev/abw00.pcd")
    truth_path = shared("segcomp-abw-dev/gt/abw00.labels.pgm")
    cloud = planekit.read(cloud_path)
    detection = planekit.detect_planes(cloud)
    run_cli(cli, "analyze", "--labels", tmp_path / "abw00.pgm", cloud_path)
    np.testing.assert_array_equal(planekit.read_labels(tmp_path / "abw00.pgm").reshape(-1), detection.labels.reshape(-1))
    reference = json.loads(run_cli(cli, "evaluate", "--json", "--cloud", cloud_path, tmp_path / "abw00.pgm", truth_path))["total"]
    score = planekit.evaluate(detection.labels.reshape(cloud.height, cloud.width), planekit.read_labels(truth_path),
                              points=cloud.points)
    assert (score.true_regions, score.detected_regions, score.correct) == (
        reference["trueRegions"], reference["detectedRegions"], reference["correct"])
    assert (score.over_segmented, score.under_segmented, score.missed, score.noise) == (
        reference["overSegmented"], reference["underSegmented"], reference["missed"], reference["noise"])
    assert score.recall == pytest.approx(reference["recall"]) and score.precision == pytest.approx(reference["precision"])
    assert score.mean_orientation_error == pytest.approx(reference["meanOrientationError"], abs=1e-4)


def test_bad_label_images_raise():
    labels = np.zeros((4, 4), dtype=np.uint16)
    with pytest.raises(ValueError):
        planekit.evaluate(labels, np.zeros((4, 5), dtype=np.uint16))
    with pytest.raises(TypeError):
        planekit.evaluate(labels.astype(np.float32), labels)
    with pytest.raises(ValueError):
        planekit.evaluate(labels, labels, threshold=0.3)
    with pytest.raises(ValueError):
        planekit.evaluate(labels.astype(np.int32) - 1, labels)
