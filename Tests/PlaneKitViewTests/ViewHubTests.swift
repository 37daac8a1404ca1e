import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitStream
import Testing
@testable import PlaneKitView

@Suite("ViewHub") struct ViewHubTests {
    @Test("the snapshot is the session's final state: the last line of every live plane and object")
    func snapshotIsFinalState() throws {
        let bytes = try walkStream(frameCount: 40)
        let hub = ViewHub(options: .init(pointInterval: .zero))
        let run = runStream(bytes, hub: hub)
        #expect(run.frames == 40)

        // What the events say, applied one by one.
        var fromEvents = ViewerModel()
        for line in run.lines { fromEvents.apply(line) }
        var fromSnapshot = ViewerModel()
        let snapshot = hub.snapshot()
        for message in snapshot { fromSnapshot.apply(String(message.dropLast())) }
        #expect(fromEvents.planes.count >= 3)
        #expect(fromSnapshot.planes == fromEvents.planes)
        #expect(fromSnapshot.objects == fromEvents.objects)
        #expect(!fromEvents.objects.isEmpty)
        #expect(fromSnapshot.ended)
        #expect(snapshot.first?.hasPrefix(#"{"event":"reset","frame":39,"#) == true)
        // One camera position per frame in the path.
        let path = try #require(snapshot.first { $0.hasPrefix(#"{"event":"path""#) })
        let positions = try #require((try JSONSerialization.jsonObject(with: Data(path.utf8)) as? [String: Any])?["positions"] as? [[Double]])
        #expect(positions.count == 40)
        let statistics = hub.statistics
        #expect(statistics.frames == 40)
        #expect(statistics.events == run.lines.count)
    }

    @Test("points are whole millimetres of world points, every step-th pixel of every step-th row")
    func pointsMessage() throws {
        let bytes = try walkStream(frameCount: 1)
        let hub = ViewHub(options: .init(pointTarget: 4800))
        _ = runStream(bytes, hub: hub)
        let line = try #require(hub.snapshot().first { $0.hasPrefix(#"{"event":"points""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["step"] as? Int == 4)  // 320×240 / 4800 = 16 pixels a point
        let millimetres = try #require(object["millimetres"] as? [Int])
        #expect(millimetres.count % 3 == 0)
        #expect(millimetres.count / 3 > 3000)
        #expect(millimetres.count / 3 <= 80 * 60)
    }

    @Test("the path keeps its shape within its limit")
    func pathThinning() {
        var state = ViewState(pathLimit: 8)
        for frame in 0..<40 {
            state.apply(.camera(CameraEvent(frame: frame, timestamp: Double(frame), transform: Transform(translation: SIMD3(Float(frame), 0, 0)), tracking: .normal)), line: "")
        }
        #expect(state.path.count <= 8)
        #expect(state.path.first == SIMD3(0, 0, 0))
        #expect(state.pathStride == 8)
        #expect(state.path.map(\.x) == [0, 8, 16, 24, 32])
    }

    @Test("listen addresses", arguments: [
        ("8080", "127.0.0.1:8080"), ("0.0.0.0:80", "0.0.0.0:80"), ("[::1]:9000", "[::1]:9000"), ("localhost:0", "localhost:0"),
    ])
    func listenAddress(text: String, expected: String) {
        #expect(ListenAddress(parsing: text)?.description == expected)
    }

    @Test("bad listen addresses", arguments: ["", ":80", "host:", "host:65536", "host:-1", "host:8o"])
    func badListenAddress(text: String) {
        #expect(ListenAddress(parsing: text) == nil)
    }
}

@Suite("FrameMessages") struct FrameMessagesTests {
    @Test("points are the step-th readings moved into the world, rounded to millimetres; holes are left out")
    func pointsByHand() throws {
        let nan = Float.nan
        // A 4×2 organized cloud; with step 2 the readings at (0,0), (2,0) are taken (row 1 is skipped).
        let points: ContiguousArray<SIMD3<Float>> = [
            SIMD3(0.0004, -1.2344, 2), SIMD3(9, 9, 9), SIMD3(-0.0016, 0.0026, 1.9996), SIMD3(9, 9, 9),
            SIMD3(9, 9, 9), SIMD3(9, 9, 9), SIMD3(9, 9, 9), SIMD3(9, 9, 9),
        ]
        let cloud = try PointCloud(width: 4, height: 2, points: points)
        // The world is the camera moved 1 m up and turned half a turn about +Y.
        let pose = Transform(rotation: Quaternion(angle: .pi, axis: SIMD3(0, 1, 0)), translation: SIMD3(0, 1, 0))
        let line = FrameMessages.points(cloud: cloud, pose: pose, step: 2, frame: 7, timestamp: 0.25)
        #expect(line == #"{"event":"points","frame":7,"millimetres":[0,-234,-2000,2,1003,-2000],"step":2,"timestamp":0.25}"# + "\n")

        var holes = points
        holes[0] = SIMD3(nan, 0, 1)
        let holed = try PointCloud(width: 4, height: 2, points: holes)
        let fewer = FrameMessages.points(cloud: holed, pose: .identity, step: 2, frame: 0, timestamp: 0)
        #expect(fewer.contains(#""millimetres":[-2,3,2000],"#))
        // A far point is clamped, not trapped: 10 000 km becomes 2 000 km.
        let far = try PointCloud(width: 1, height: 1, points: [SIMD3(0, 0, 1e7)])
        #expect(FrameMessages.points(cloud: far, pose: .identity, step: 1, frame: 0, timestamp: 0).contains("[0,0,2000000000]"))
    }
}
