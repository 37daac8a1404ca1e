"""planekit.Session: frames in, the stream's events out; hit tests, placing, world maps."""
import numpy as np
import pytest

import planekit


@pytest.fixture()
def tracked(sample):
    """A session after three frames of the sample from its pose, and the floor pixel to aim at."""
    session = planekit.Session()
    millimetres = np.round(sample.depth * 1000).astype(np.uint16)
    events = [session.update(millimetres, sample.intrinsics, pose=sample.pose) for _ in range(3)]
    detection = planekit.detect_planes(sample)
    floor = next(plane for plane in detection if plane.classification == "floor")
    rows, columns = np.nonzero(detection.labels == floor.label)
    middle = len(rows) // 2
    yield session, events, (float(columns[middle]), float(rows[middle]))
    session.close()


def test_frames_give_the_streams_events(tracked):
    _, events, _ = tracked
    names = [[event["event"] for event in frame] for frame in events]
    assert all(frame[0] == "camera" and frame[-1] == "focus" for frame in names)
    assert names[0].count("planeAdded") >= 3
    assert events[1][0]["frame"] == 1 and events[2][0]["timestamp"] == pytest.approx(2 / 30)


def test_raycast_hits_the_floor_from_above(tracked):
    session, _, (x, y) = tracked
    hits = session.raycast(x, y, target="plane", alignment="horizontal")
    assert hits and hits[0].plane.startswith("plane-")
    assert hits[0].normal[1] > 0.99 and hits[0].alignment == "horizontal"
    assert 0.3 < hits[0].distance < 10
    # Every kind of target: the floor's hit is among them, the nearest first.
    everything = session.raycast(x, y, target="any")
    assert any(hit.target == "plane" and hit.plane == hits[0].plane for hit in everything)
    assert [hit.distance for hit in everything] == sorted(hit.distance for hit in everything)
    with pytest.raises(ValueError):
        session.raycast(x, y, target="walls")
    with pytest.raises(ValueError):
        session.raycast(float("nan"), y)


def test_placed_objects_survive_a_saved_and_loaded_map(tracked, tmp_path):
    session, _, (x, y) = tracked
    added = session.place(x, y, name="chair", size=(0.5, 0.9, 0.5))
    assert added["event"] == "objectAdded" and added["object"]["name"] == "chair"
    assert added["object"]["transform"]["columnMajor"][13] < 0.2  # world y of the floor's object: on the floor
    saved = session.save_map(tmp_path / "room.pkmap")
    assert saved["event"] == "mapSaved" and saved["objects"] == 1 and saved["anchors"] >= 3
    with planekit.Session() as second:
        loaded = second.load_map(tmp_path / "room.pkmap")
        assert loaded["event"] == "mapLoaded" and loaded["objects"] == 1
    rotated = session.command({"type": "rotate", "object": added["object"]["identifier"], "angle": 0.5})
    assert rotated[0]["event"] == "objectMoved"


def test_frames_without_a_pose_are_tracked_with_gravity(sample):
    millimetres = np.round(sample.depth * 1000).astype(np.uint16)
    down = sample.pose[:3, :3].T @ np.array([0, -1, 0])
    with planekit.Session() as session:
        first = session.update(millimetres, sample.intrinsics, gravity=down)
        second = session.update(millimetres, sample.intrinsics, gravity=down)
    assert first[0]["event"] == "camera" and second[0]["tracking"] == "normal"
    # The same view twice: the camera has not moved.
    np.testing.assert_allclose(second[0]["transform"]["columnMajor"][12:15], first[0]["transform"]["columnMajor"][12:15], atol=0.01)


@pytest.mark.parametrize("option, value, not_a_bool", [("fused_surface", True, "yes"), ("depth_calibration", False, 1)])
def test_frames_without_a_pose_are_tracked_with_each_tracking_option(sample, option, value, not_a_bool):
    millimetres = np.round(sample.depth * 1000).astype(np.uint16)
    with planekit.Session(**{option: value}) as session:
        frames = [session.update(millimetres, sample.intrinsics) for _ in range(3)]
    cameras = [frame[0] for frame in frames]
    assert [camera["tracking"] for camera in cameras[1:]] == ["normal", "normal"]
    # The same view three times: the camera has not moved.
    np.testing.assert_allclose(cameras[2]["transform"]["columnMajor"][12:15], cameras[0]["transform"]["columnMajor"][12:15], atol=0.005)
    with pytest.raises(TypeError):
        planekit.Session(**{option: not_a_bool})


def test_refused_frames_and_commands_raise(sample):
    depth = sample.depth
    with planekit.Session() as session:
        session.update(depth, sample.intrinsics, timestamp=1.0)
        with pytest.raises(planekit.SessionError, match="timestamp"):
            session.update(depth, sample.intrinsics, timestamp=0.5)
        with pytest.raises(ValueError):
            session.update(depth, sample.intrinsics, pose=np.eye(3))
        with pytest.raises(ValueError):
            session.update(depth, sample.intrinsics, pose=np.diag([2.0, 2, 2, 1]))
        with pytest.raises(ValueError):
            session.update(depth, sample.intrinsics, gravity=(0, 0, 0))
        with pytest.raises(TypeError):
            session.update(depth.astype(np.int64), sample.intrinsics)
        with pytest.raises(planekit.SessionError):
            session.command({"type": "remove", "object": "object-7"})
        with pytest.raises(planekit.SessionError):
            session.load_map("/nonexistent/room.pkmap")
    with pytest.raises(ValueError, match="closed"):
        session.update(depth, sample.intrinsics)


def test_threads_sharing_a_session_take_turns(sample):
    """The library releases the GIL; two threads feeding one session must not run into each other."""
    import threading

    depth = sample.depth
    outcomes = []
    with planekit.Session() as session:
        def feed(offset):
            for frame in range(6):
                try:
                    session.update(depth, sample.intrinsics, pose=sample.pose, timestamp=frame + offset)
                    outcomes.append("events")
                except planekit.SessionError:  # the other thread's frame came later in time
                    outcomes.append("refused")

        threads = [threading.Thread(target=feed, args=(offset,)) for offset in (0.0, 0.5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(outcomes) == 12 and outcomes.count("events") >= 6
        assert session.raycast(320, 240, target="any")
