import PlaneKitGeometry
import PlaneKitStreamFormat
import PlaneKitTestSupport
import Testing
@testable import PlaneKitStream

/// The real Kinect walk streamed as a user streams it: depth frames with gravity and no pose,
/// tracked, their planes detected and placed.
@Suite(.enabled(if: SevenScenesDev.isAvailable, "needs ../shared/data/7scenes-redkitchen-dev beside the repository"))
struct RealWalkStreamTests {
    /// A new keyframe is put back level on the floor it sees after its planes are detected. The
    /// frame must be reported where the next frames are tracked from; reported before that, each
    /// keyframe frame stood apart from its neighbours by the floor's correction — on this walk,
    /// whose gravity and floor disagree by up to 3.9° in frames 100–155, 13 of the first 160
    /// frames turned more than 1° away from the reference's turn and back.
    @Test func framesTurnAsTheReferenceDoesAtKeyframes() throws {
        let count = 160
        let down = try SevenScenesDev.gravity()
        var processor = StreamProcessor()
        var events: [StreamEvent] = []
        var reference: [Transform] = []
        for index in 0..<count {
            let image = try SevenScenesDev.depth(index)
            let pose = try SevenScenesDev.pose(index)
            let frame = image.samples.withUnsafeBufferPointer { samples in
                StreamFrame.depth16(samples: samples, intrinsics: SevenScenesDev.intrinsics, depthScale: 0.001,
                                    timestamp: Double(index) / 30)
            }
            let record = CameraEventTests.unposed(.frame(frame), gravity: pose.rotation.transposed * down * 9.81)
            try processor.handle(record, number: index, into: &events)
            reference.append(pose)
        }
        let cameras = events.compactMap { event -> Transform? in
            if case .camera(let camera) = event { return camera.transform }
            return nil
        }
        #expect(cameras.count == count)
        // Each step's turn against the reference's: the angle of the rotation between them.
        var offTurns: [Int] = []
        for i in 0..<(min(cameras.count, count) - 1) {
            let tracked = cameras[i].rotation.transposed * cameras[i + 1].rotation
            let truth = reference[i].rotation.transposed * reference[i + 1].rotation
            let difference = Quaternion(tracked.transposed * truth).angle * 180 / .pi
            if difference > 1 { offTurns.append(i) }
        }
        print("dev walk 0–\(count - 1) streamed with gravity: \(offTurns.count) steps turn more than 1° away from the reference's (at \(offTurns))")
        // Measured: 2 (frame 121, where the reference itself jumps 1.7° and 3.7 cm, and frame
        // 154, where a keyframe that sees no floor is levelled on gravity again); 13 before.
        #expect(offTurns.count <= 2)
    }
}
